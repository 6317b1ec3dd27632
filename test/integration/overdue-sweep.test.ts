/**
 * docs/api.md "Overdue": the wake sweep over the wake index (GSI2) writes `invoice.overdue` once per invoice, on its first
 * overdue day in its account's time zone — also when it runs twice, concurrently or late — and never for a paid or
 * deleted invoice. The sweep reads the whole shared test table's index, so every `now` here is the real time or at
 * most two days ahead (no other test's invoice falls due within that window).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../shared/domain/dates.ts';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys, wakeIndexKeys } from '../../shared/store/keys.ts';
import { dueToWake } from '../../shared/store/wake-index.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

const PAST_DUE = '01/15/2020';
const items = [{ item: 'A', description: 'B', unit_cost: '10.00', quantity: '1' }];
const DAY_MS = 86_400_000;
const monthFirst = (d: { year: number; month: number; day: number }) => `${d.month}/${d.day}/${d.year}`;

/** The `invoice.overdue` events of an account, with their bodies. */
async function overdueEvents(companyId: number) {
  const lines = (await listDeliveries(companyId)).filter((line) => line.type === 'invoice.overdue');
  return Promise.all(lines.map(async (line) => JSON.parse((await getEvent(line.event_id))!.body)));
}

/** Whether the invoice is still in the wake index. */
async function inIndex(referenceCode: string): Promise<boolean> {
  for await (const hits of dueToWake(wakeIndexKeys.shard(referenceCode), '9999-12-31')) {
    if (hits.some((hit) => hit.kind === 'invoice' && hit.id === referenceCode)) return true;
  }
  return false;
}

async function pay(key: string, referenceCode: string, amount: string) {
  const body = { reference_code: referenceCode, date: todayMonthFirst(), amount, channel: 'Cash' };
  expect((await call('add-payment', { key, body })).status).toBe(201);
}

describe('the wake sweep: overdue', () => {
  it('notifies an overdue invoice exactly once, however often and concurrently it runs, with the invoice as shown', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key, { due_date: PAST_DUE, items });
    // A new invoice is in the index (one not yet due stays there whatever sweeps run meanwhile in other files).
    const notYetDue = await createInvoice(key, { due_date: '12/30/2030', items });
    expect(await inIndex(notYetDue.reference_code)).toBe(true);
    // Act
    await Promise.all([runWakeSweep(new Date()), runWakeSweep(new Date()), runWakeSweep(new Date())]);
    await runWakeSweep(new Date());
    // Assess
    const events = await overdueEvents(account.companyId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'invoice.overdue', company_id: String(account.companyId) });
    const read = await call('get-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(events[0].data).toEqual(read.body.data);
    expect(events[0].data).toMatchObject({ payment_status: 'overdue', client: expect.any(Object) });
    expect(events[0].data.items).toHaveLength(1);
    expect(await inIndex(invoice.reference_code)).toBe(false);
  });

  it('never notifies a paid or deleted invoice (they leave the index with the write), a partly paid one once', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const paid = await createInvoice(key, { due_date: PAST_DUE, items });
    const deleted = await createInvoice(key, { due_date: PAST_DUE, items });
    const partly = await createInvoice(key, { due_date: PAST_DUE, items });
    await pay(key, paid.reference_code, '10.00');
    await pay(key, partly.reference_code, '3.00');
    await call('delete-invoice', { key, pathParameters: { reference_code: deleted.reference_code } });
    // Act
    const leftIndex = [await inIndex(paid.reference_code), await inIndex(deleted.reference_code)];
    await runWakeSweep(new Date());
    // Assess
    expect(leftIndex).toEqual([false, false]);
    const events = await overdueEvents(account.companyId);
    expect(events.map((event) => event.data.reference_code)).toEqual([partly.reference_code]);
    expect(events[0].data).toMatchObject({ amount_paid: '3.00', amount_due: '7.00', payment_status: 'overdue' });
  });

  it('takes an entry whose invoice is no longer open out of the index without an event', async () => {
    // Prepare: a header settled by a write that left it in the index (as one written before GSI2 could be).
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key, { due_date: PAST_DUE, items });
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceHeader(invoice.reference_code),
        UpdateExpression: 'SET amount_due = :zero, amount_paid = #total, payment_status = :paid',
        ExpressionAttributeNames: { '#total': 'total' },
        ExpressionAttributeValues: { ':zero': 0, ':paid': 'paid' },
      }),
    );
    // Act
    const report = await runWakeSweep(new Date());
    // Assess
    expect(report.closed).toBeGreaterThanOrEqual(1);
    expect(await inIndex(invoice.reference_code)).toBe(false);
    expect(await overdueEvents(account.companyId)).toEqual([]);
  });

  it('decides in each account’s time zone: Kiritimati (UTC+14) today, Pago Pago (UTC−11) on its own first overdue day', async () => {
    // Prepare: due yesterday in Kiritimati, which is today or yesterday in Pago Pago (25 hours behind).
    const ahead = await newAccount({ timeZone: 'Pacific/Kiritimati' });
    const behind = await newAccount({ timeZone: 'Pacific/Pago_Pago' });
    const due = monthFirst(addDays(todayIn('Pacific/Kiritimati'), -1));
    const inKiritimati = await createInvoice(ahead.key, { due_date: due });
    const inPagoPago = await createInvoice(behind.key, { due_date: due });
    // Act
    await runWakeSweep(new Date());
    const behindAtFirst = await overdueEvents(behind.account.companyId);
    const stillIndexed = await inIndex(inPagoPago.reference_code);
    const twoDaysLater = new Date(Date.now() + 2 * DAY_MS);
    await Promise.all([runWakeSweep(twoDaysLater), runWakeSweep(twoDaysLater)]);
    // Assess
    const aheadEvents = await overdueEvents(ahead.account.companyId);
    expect(aheadEvents.map((event) => event.data.reference_code)).toEqual([inKiritimati.reference_code]);
    expect(behindAtFirst).toEqual([]);
    expect(stillIndexed).toBe(true);
    const behindEvents = await overdueEvents(behind.account.companyId);
    expect(behindEvents.map((event) => event.data.reference_code)).toEqual([inPagoPago.reference_code]);
    expect(behindEvents[0].data.payment_status).toBe('overdue');
  });

  it('a late run still notifies once an invoice that has been overdue for years', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key, { due_date: '01/01/1970' });
    // Act
    const first = await runWakeSweep(new Date());
    await runWakeSweep(new Date());
    // Assess
    expect(first.notified).toBeGreaterThanOrEqual(1);
    const events = await overdueEvents(account.companyId);
    expect(events.map((event) => event.data.reference_code)).toEqual([invoice.reference_code]);
  });

  it('never refuses a concurrent payment, and never sends a state a concurrent payment already changed', async () => {
    // Prepare: overdue invoices, each paid in full while sweeps run.
    const { account, key } = await newAccount();
    const invoices = [];
    for (let i = 0; i < 6; i++) invoices.push(await createInvoice(key, { due_date: PAST_DUE, items }));
    // Act
    const payments = invoices.map((invoice) =>
      call('add-payment', {
        key,
        body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'POS' },
      }),
    );
    const [results] = await Promise.all([Promise.all(payments), runWakeSweep(new Date()), runWakeSweep(new Date())]);
    await runWakeSweep(new Date());
    // Assess: every payment committed; an event, if any, shows the invoice before its payment.
    expect(results.map((result) => result.status)).toEqual(invoices.map(() => 201));
    const events = await overdueEvents(account.companyId);
    expect(new Set(events.map((event) => event.data.reference_code)).size).toBe(events.length);
    for (const event of events) expect(event.data).toMatchObject({ amount_paid: '0.00', payment_status: 'overdue' });
    for (const invoice of invoices) expect(await inIndex(invoice.reference_code)).toBe(false);
  });

  it('an invoice re-opened with its index keys put back (as a reversal does) is notified once if it never was, never twice', async () => {
    // Prepare: one invoice settled before the sweep saw it, one notified; then both re-opened with their keys back.
    const { account, key } = await newAccount();
    const settled = await createInvoice(key, { due_date: PAST_DUE, items });
    await pay(key, settled.reference_code, '10.00');
    const notified = await createInvoice(key, { due_date: PAST_DUE, items });
    await runWakeSweep(new Date());
    const reopen = (referenceCode: string) =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: keys.invoiceHeader(referenceCode),
          UpdateExpression:
            'SET amount_due = :due, amount_paid = :zero, payment_status = :unpaid, GSI2PK = :pk, GSI2SK = :sk',
          ExpressionAttributeValues: {
            ':due': 1000,
            ':zero': 0,
            ':unpaid': 'unpaid',
            ':pk': wakeIndexKeys.attributes(referenceCode, '2020-01-15').GSI2PK,
            ':sk': wakeIndexKeys.attributes(referenceCode, '2020-01-15').GSI2SK,
          },
        }),
      );
    await reopen(settled.reference_code);
    await reopen(notified.reference_code);
    // Act
    await runWakeSweep(new Date());
    await runWakeSweep(new Date());
    // Assess
    const events = await overdueEvents(account.companyId);
    expect(events.map((event) => event.data.reference_code).sort()).toEqual(
      [settled.reference_code, notified.reference_code].sort(),
    );
    expect(await inIndex(settled.reference_code)).toBe(false);
    expect(await inIndex(notified.reference_code)).toBe(false);
  });
});
