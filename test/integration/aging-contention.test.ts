/**
 * Aging and statements under concurrent writes (docs/data-design.md "Receivables"): after payments, reversals and voids
 * race, the buckets equal a recomputation from the listed invoices, every client's rows and statement agree with its
 * invoices, and nothing is counted twice. DynamoDB Local runs transactions one at a time and never reports a conflict,
 * so the spreading of a contended due date over more rows is shown by injecting conflicts.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { dayOf } from '../support/days.ts';

afterEach(() => {
  dynamoHooks.clear();
});

// Each call has 30 s of invocation time, as the other race tests: a busy machine must not turn a commit into a 504.
const BUDGET_MS = 30_000;

const kobo = (money: string) => Math.round(Number(money) * 100);

const pay = (key: string, reference_code: string, amount: string) =>
  call('add-payment', {
    key,
    body: { reference_code, date: todayMonthFirst(), amount, channel: 'Cash' },
    budgetMs: BUDGET_MS,
  });

const reverse = (key: string, id: number) =>
  call('reverse-payment', { key, pathParameters: { id: String(id) }, body: { reason: 'race' }, budgetMs: BUDGET_MS });

const invoiceFor = (key: string, clientId: number, amount: string, due: number) =>
  createInvoice(key, {
    client: undefined,
    client_id: clientId,
    due_date: dayOf(due).monthFirst,
    items: [{ item: 'Goods', description: 'A line', unit_cost: amount, quantity: 1 }],
  });

async function listOpenInvoices(key: string) {
  const invoices: Record<string, any>[] = [];
  let cursor: string | undefined;
  do {
    const page = await call('aging-report', { key, body: { invoices: true, limit: 3, ...(cursor ? { cursor } : {}) } });
    invoices.push(...page.body.data.invoices);
    cursor = page.body.data.next_cursor ?? undefined;
  } while (cursor);
  return invoices;
}

function bucketOf(days: number) {
  return days === 0 ? 'current' : days <= 30 ? '1_30' : days <= 60 ? '31_60' : days <= 90 ? '61_90' : 'over_90';
}

/** The report's totals against the invoices themselves: listed, and read one by one. */
async function expectAgingToMatchInvoices(key: string, references: string[]) {
  const report = (await call('aging-report', { key, body: {} })).body.data;
  const listed = await listOpenInvoices(key);
  const recomputed: Record<string, number> = { current: 0, '1_30': 0, '31_60': 0, '61_90': 0, over_90: 0 };
  for (const invoice of listed) recomputed[bucketOf(invoice.days_overdue)]! += kobo(invoice.amount_due);
  expect(Object.fromEntries(Object.entries(report.buckets).map(([b, m]) => [b, kobo(m as string)]))).toEqual(
    recomputed,
  );
  let due = 0;
  let open = 0;
  for (const reference_code of references) {
    const invoice = (await call('get-invoice', { key, pathParameters: { reference_code } })).body.data;
    if (invoice.deleted_at === null && kobo(invoice.amount_due) > 0) {
      due += kobo(invoice.amount_due);
      open++;
    }
  }
  expect(kobo(report.total_outstanding)).toBe(due);
  expect(Object.values(report.counts as Record<string, number>).reduce((a, b) => a + b)).toBe(open);
  expect(listed).toHaveLength(open);
  return report;
}

describe('aging and statements under concurrent payments, reversals and voids', () => {
  it('buckets equal the recomputation from the listed invoices; each client’s statement closes at its outstanding', {
    timeout: 240_000,
  }, async () => {
    // Prepare: 3 clients, 6 invoices over 2 due dates (and each client's first invoice), 6 payments to reverse
    const { key } = await newAccount();
    const clients = [];
    for (let i = 0; i < 3; i++)
      clients.push((await createInvoice(key, { due_date: dayOf(-i * 40).monthFirst })).client);
    const invoices = [];
    for (const [i, client] of clients.entries())
      for (const [j, due] of [-35, -95].entries())
        invoices.push(await invoiceFor(key, client.id, `${(i + 1) * 100 + j}`, due));
    const first = [];
    for (const invoice of invoices) first.push((await pay(key, invoice.reference_code, '10')).body.data.id);
    const voidable = await invoiceFor(key, clients[0].id, '77', -5);

    // Act: each of the 6 payments reversed twice, 18 more payments, a void racing a payment: 32 writes at once
    // (sized for a shared 2-core machine: larger races there can outlast a commit's 8 s confirmation, a 504)
    const results = await Promise.all([
      ...first.flatMap((id) => [reverse(key, id), reverse(key, id)]),
      ...invoices.flatMap((invoice) => ['1', '2.50', '40'].map((amount) => pay(key, invoice.reference_code, amount))),
      call('delete-invoice', { key, pathParameters: { reference_code: voidable.reference_code }, budgetMs: BUDGET_MS }),
      pay(key, voidable.reference_code, '77'),
    ]);

    // Assess
    for (const result of results) expect([200, 201, 409, 503], result.rawBody).toContain(result.status);
    const references = [...invoices, voidable].map((i) => i.reference_code);
    const firstOfEach = (await call('invoice-history', { key, body: { period: 'today', limit: 500 } })).body.data
      .invoices;
    const all = firstOfEach.map((i: { reference_code: string }) => i.reference_code);
    expect(all).toEqual(expect.arrayContaining(references));
    const report = await expectAgingToMatchInvoices(key, all);
    const rows = (await call('aging-report', { key, body: {} })).body.data.clients;
    expect(rows.reduce((sum: number, c: { total_outstanding: string }) => sum + kobo(c.total_outstanding), 0)).toBe(
      kobo(report.total_outstanding),
    );
    for (const client of clients) {
      const statement = (
        await call('client-statement', { key, pathParameters: { id: String(client.id) }, body: { period: 'today' } })
      ).body.data;
      const own = rows.find((c: { client_id: number }) => c.client_id === client.id);
      expect(statement.closing_balance).toBe(own?.total_outstanding ?? '0.00');
      expect(statement.opening_balance).toBe('0.00');
      const net = statement.lines.reduce(
        (s: number, l: Record<string, string>) => s + kobo(l.debit!) - kobo(l.credit!),
        0,
      );
      expect(net).toBe(kobo(statement.closing_balance));
    }
  });

  it('spreads a contended due date over more rows after a conflict, and still counts every write once', {
    timeout: 120_000,
  }, async () => {
    // Prepare: conflicts injected on every other transaction that adds to an aging row's shard 0
    const { key, account } = await newAccount();
    const client = (await createInvoice(key, { due_date: dayOf(-3).monthFirst })).client;
    let seen = 0;
    dynamoHooks.add({
      before: (c) => {
        if (c.command !== 'TransactWriteItemsCommand') return;
        const items = c.input.TransactItems as { Update?: { Key: { PK: string; SK: string } } }[];
        const onShardZero = items.findIndex(
          (item) => /^AGING#/.test(item.Update?.Key.PK ?? '') && item.Update!.Key.SK.endsWith('#0'),
        );
        if (onShardZero < 0 || seen++ % 2 === 1) return;
        const reasons = items.map((_, i) => ({ Code: i === onShardZero ? 'TransactionConflict' : 'None' }));
        throw Object.assign(new Error('injected conflict'), {
          name: 'TransactionCanceledException',
          $fault: 'client',
          CancellationReasons: reasons,
        });
      },
    });

    // Act: 8 invoices of the same due date, each paid in part, concurrently
    const made = await Promise.all(Array.from({ length: 8 }, () => invoiceFor(key, client.id, '100', -3)));
    await Promise.all(made.map((invoice) => pay(key, invoice.reference_code, '30')));
    dynamoHooks.clear();

    // Assess: more than one row for the due date, and the totals exact
    const rows = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': `AGING#${account.companyId}` },
        ConsistentRead: true,
      }),
    );
    const shards = new Set((rows.Items ?? []).map((item) => String(item.SK).split('#')[1]));
    expect(shards.size).toBeGreaterThan(1);
    const all = (await call('invoice-history', { key, body: { period: 'today', limit: 500 } })).body.data.invoices;
    const report = await expectAgingToMatchInvoices(
      key,
      all.map((i: { reference_code: string }) => i.reference_code),
    );
    expect(made.every((i) => all.some((a: { reference_code: string }) => a.reference_code === i.reference_code))).toBe(
      true,
    );
    expect(report.buckets['1_30']).toBe('50560.00'); // 8 × 70.00 + the first invoice's 50,000.00
  });
});
