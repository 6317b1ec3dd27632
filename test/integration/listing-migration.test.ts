/**
 * `data:migrate` (infra/cli/migrations/listings.ts): invoices and clients written before the invoice and client routes — without
 * index keys, `payments_count` or `latest_payment` — are listed and answered like new ones after it runs.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { migrateListings } from '../../infra/cli/migrations/listings.ts';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { call, createInvoice, newAccount, todayMonthFirst, uniqueEmail } from '../support/api.ts';

/** Turns an item back into what the previous version wrote. */
const makeLegacy = (key: { PK: string; SK: string }, attributes: string[]) =>
  documentClient().send(
    new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: `REMOVE ${attributes.join(', ')}` }),
  );

const pay = (key: string, reference_code: string, amount: string) =>
  call('add-payment', { key, body: { reference_code, date: todayMonthFirst(), amount, channel: 'Cash' } });

describe('data:migrate', () => {
  it('lists legacy invoices and clients, and restores the latest payment and the payment count', async () => {
    const { key, account } = await newAccount();
    const paid = await createInvoice(key);
    expect((await pay(key, paid.reference_code, '1.00')).status).toBe(201);
    const latest = (await pay(key, paid.reference_code, '2.00')).body.data;
    const unpaid = await createInvoice(key);
    const client = (
      await call('add-client', {
        key,
        body: { first_name: 'Old', last_name: 'Client', email: uniqueEmail(), phone: '+2348012345678' },
      })
    ).body.data;
    for (const invoice of [paid, unpaid])
      await makeLegacy(keys.invoiceHeader(invoice.reference_code), [
        'GSI1PK',
        'GSI1SK',
        'payments_count',
        'latest_payment',
      ]);
    await makeLegacy(keys.client(account.companyId, client.id), ['GSI1PK', 'GSI1SK', 'version']);

    const before = await call('invoice-history', { key, body: { period: 'today' } });
    expect(before.body.data.invoices).toEqual([]);
    expect((await call('get-payment', { key, pathParameters: { reference_code: paid.reference_code } })).status).toBe(
      404,
    );

    const result = await migrateListings();
    expect(result.invoices).toBeGreaterThanOrEqual(2);
    expect(result.clients).toBeGreaterThanOrEqual(1);

    const after = await call('invoice-history', { key, body: { period: 'today' } });
    const listed = after.body.data.invoices.map((i: { reference_code: string }) => i.reference_code);
    expect(listed.sort()).toEqual([paid.reference_code, unpaid.reference_code].sort());
    const latestNow = await call('get-payment', { key, pathParameters: { reference_code: paid.reference_code } });
    expect(latestNow.status).toBe(200);
    expect(latestNow.body.data.id).toBe(latest.id);
    expect(latestNow.body.data.invoice.payments_count).toBe(2);
    const clients = (await call('list-clients', { key })).body.data.clients.map((c: { id: number }) => c.id);
    expect(clients).toContain(client.id);
    // A legacy client (no version) can be updated, and a second run finds nothing left to do for this account.
    expect(
      (await call('update-client', { key, pathParameters: { id: String(client.id) }, body: { last_name: 'New' } }))
        .status,
    ).toBe(200);
    const again = await migrateListings();
    expect(again.changed_meanwhile).toBe(0);
    expect((await call('invoice-history', { key, body: { period: 'today' } })).body.data.invoices).toHaveLength(2);
  });

  it('leaves a header a payment changed since the scan for the next run (its version moved), never miscounting', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    await makeLegacy(keys.invoiceHeader(invoice.reference_code), [
      'GSI1PK',
      'GSI1SK',
      'payments_count',
      'latest_payment',
    ]);
    // A payment racing the migration: whichever order, the count ends right.
    const [migrated, paid] = await Promise.all([migrateListings(), pay(key, invoice.reference_code, '3.00')]);
    expect(paid.status).toBe(201);
    if (migrated.changed_meanwhile > 0) await migrateListings();
    const latest = await call('get-payment', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(latest.body.data.invoice.payments_count).toBe(1);
  });

  it('puts open invoices written before the overdue index into it (never paid, deleted or notified ones), so the sweep finds them', async () => {
    // Prepare: headers as a version before GSI2 wrote them.
    const { key, account } = await newAccount();
    const overdue = await createInvoice(key, { due_date: '01/15/2020' });
    const later = await createInvoice(key);
    const voided = await createInvoice(key, { due_date: '01/15/2020' });
    await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    for (const invoice of [overdue, later, voided])
      await makeLegacy(keys.invoiceHeader(invoice.reference_code), ['GSI2PK', 'GSI2SK']);
    // Act
    const result = await migrateListings();
    await runWakeSweep(new Date());
    // Assess
    expect(result.overdue_indexed).toBeGreaterThanOrEqual(2);
    const header = async (code: string) =>
      (await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.invoiceHeader(code) }))).Item!;
    expect((await header(later.reference_code)).GSI2PK).toEqual(expect.stringMatching(/^OPEN#\d+$/));
    expect((await header(voided.reference_code)).GSI2PK).toBeUndefined();
    expect((await header(overdue.reference_code)).overdue_notified_at).toEqual(expect.any(String));
    const overdueEvents = (await listDeliveries(account.companyId)).filter((d) => d.type === 'invoice.overdue');
    expect(overdueEvents).toHaveLength(1);
  });
});
