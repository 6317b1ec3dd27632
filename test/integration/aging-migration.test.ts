/**
 * `data:migrate`'s aging part (infra/cli/migrations/aging.ts): invoices written before the receivables items are
 * counted once in the aging rows, the open-invoice items and the client ledgers, with their whole history; writes on
 * them before the migration add nothing; a header changed during the migration waits for the next run.
 */
import { DeleteCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { countLegacyInvoices } from '../../infra/cli/migrations/aging.ts';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { dayOf } from '../support/days.ts';

afterEach(() => {
  dynamoHooks.clear();
});

/** What the previous version left: headers without `in_aging`, and none of the receivables items. */
async function makeLegacy(companyId: number, clientIds: number[], referenceCodes: string[]) {
  for (const code of referenceCodes)
    await documentClient().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.invoiceHeader(code), UpdateExpression: 'REMOVE in_aging' }),
    );
  const partitions = [
    `AGING#${companyId}`,
    `AGINGCLIENT#${companyId}`,
    `OPENINVOICES#${companyId}`,
    ...clientIds.map((id) => `LEDGER#${companyId}#${id}`),
  ];
  for (const pk of partitions) {
    const items = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': pk },
      }),
    );
    for (const item of items.Items ?? [])
      await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { PK: item.PK, SK: item.SK } }));
  }
}

const pay = (key: string, reference_code: string, amount: string) =>
  call('add-payment', { key, body: { reference_code, date: todayMonthFirst(), amount, channel: 'Cash' } });

const invoiceOf = (key: string, clientId: number, amount: string, due: number) =>
  createInvoice(key, {
    client: undefined,
    client_id: clientId,
    due_date: dayOf(due).monthFirst,
    items: [{ item: 'Goods', description: 'A line', unit_cost: amount, quantity: 1 }],
  });

describe('data:migrate, aging and statements', () => {
  it('counts legacy invoices once with their whole history; writes before the migration add nothing', async () => {
    // Prepare: open, partly paid, paid, voided and reversed invoices, then made legacy
    const { key, account } = await newAccount();
    const open = await createInvoice(key, { due_date: dayOf(-40).monthFirst });
    const clientId = open.client.id;
    const partly = await invoiceOf(key, clientId, '100', -5);
    const paid = await invoiceOf(key, clientId, '200', 0);
    const voided = await invoiceOf(key, clientId, '300', 3);
    const reversed = await invoiceOf(key, clientId, '400', -100);
    await pay(key, partly.reference_code, '30');
    await pay(key, paid.reference_code, '200');
    const mistake = (await pay(key, reversed.reference_code, '400')).body.data.id;
    await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    const all = [open, partly, paid, voided, reversed].map((i) => i.reference_code);
    await makeLegacy(account.companyId, [clientId], all);
    await call('reverse-payment', { key, pathParameters: { id: String(mistake) }, body: { reason: 'legacy' } });
    await pay(key, partly.reference_code, '20'); // on a legacy invoice: no receivables yet
    expect((await call('aging-report', { key, body: {} })).body.data.total_outstanding).toBe('0.00');

    // Act
    const first = await countLegacyInvoices();
    const again = await countLegacyInvoices();

    // Assess: 50,000.00 (40 days) + 50.00 (5 days) + 400.00 (100 days), each once
    expect(first.aging_counted).toBeGreaterThanOrEqual(5);
    expect(again.aging_counted).toBe(0);
    const report = (await call('aging-report', { key, body: {} })).body.data;
    expect(report).toMatchObject({
      total_outstanding: '50450.00',
      buckets: { current: '0.00', '1_30': '50.00', '31_60': '50000.00', '61_90': '0.00', over_90: '400.00' },
      counts: { current: 0, '1_30': 1, '31_60': 1, '61_90': 0, over_90: 1 },
    });
    const listed = (await call('aging-report', { key, body: { invoices: true } })).body.data.invoices;
    expect(listed.map((i: { reference_code: string }) => i.reference_code)).toEqual([
      reversed.reference_code,
      open.reference_code,
      partly.reference_code,
    ]);
    const statement = (
      await call('client-statement', { key, pathParameters: { id: String(clientId) }, body: { period: 'today' } })
    ).body.data;
    expect(statement.closing_balance).toBe('50450.00');
    expect(statement.lines.map((l: { type: string }) => l.type).sort()).toEqual(
      [
        'invoice',
        'invoice',
        'invoice',
        'invoice',
        'invoice',
        'payment',
        'payment',
        'payment',
        'payment',
        'reversal',
        'void',
      ].sort(),
    );
    // and writes after the migration count as for any invoice
    await pay(key, partly.reference_code, '50');
    expect((await call('aging-report', { key, body: {} })).body.data.total_outstanding).toBe('50400.00');
  });

  it('leaves a header changed during the migration for the next run', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    await makeLegacy(account.companyId, [invoice.client.id], [invoice.reference_code]);
    let interfered = false;
    dynamoHooks.add({
      before: async (c) => {
        const items = (c.input.TransactItems ?? []) as { Update?: { Key: { PK: string } } }[];
        if (interfered || c.command !== 'TransactWriteItemsCommand') return;
        if (items[0]?.Update?.Key.PK !== `INVOICE#${invoice.reference_code}`) return;
        interfered = true;
        await pay(key, invoice.reference_code, '1'); // the header's version moves on between scan and transaction
      },
    });
    const first = await countLegacyInvoices();
    dynamoHooks.clear();
    expect(interfered).toBe(true);
    expect(first.aging_changed_meanwhile).toBeGreaterThanOrEqual(1);
    expect((await call('aging-report', { key, body: {} })).body.data.total_outstanding).toBe('0.00');
    await countLegacyInvoices();
    expect((await call('aging-report', { key, body: {} })).body.data.total_outstanding).toBe('49999.00');
  });
});
