/**
 * Helpers shared by the robustness suite: scaling (STRESS=1 → `npm run stress`), the error
 * envelope (docs/api.md "Envelopes") check, and direct reads of an account's state in DynamoDB (to prove "nothing was written").
 */
import { createHash } from 'node:crypto';
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import { ERROR_STATUS } from '../../shared/http/errors.ts';
import type { RouteName } from '../../shared/routes.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { clientIndexKeys, invoiceIndexKeys, keys, paymentIndexKeys } from '../../shared/store/keys.ts';
import { TABLE } from '../../shared/store/table.ts';
import { type CallResult, call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

/** `npm run stress` sets STRESS=1: the same tests with more clients, operations and fuzz runs. */
export const STRESS = process.env.STRESS === '1' || process.env.STRESS === 'true';
export const scale = (normal: number, stress: number): number => (STRESS ? stress : normal);

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asserts the error envelope (docs/api.md "Envelopes"), a documented code matching the HTTP status, and the per-status headers. */
export function expectErrorEnvelope(result: CallResult, status?: number): void {
  const context = `${result.status} ${result.rawBody.slice(0, 500)}`;
  if (status !== undefined) expect(result.status, context).toBe(status);
  expect(result.status, context).toBeGreaterThanOrEqual(400);
  expect(result.headers['content-type'], context).toMatch(/^application\/json/);
  const body = result.body as Record<string, unknown>;
  expect(body, context).toBeTypeOf('object');
  expect(Object.keys(body).sort(), context).toEqual(['code', 'errors', 'message', 'request_id', 'status']);
  expect(body.status, context).toBe('error');
  expect(Object.keys(ERROR_STATUS), context).toContain(body.code);
  expect(ERROR_STATUS[body.code as keyof typeof ERROR_STATUS], context).toBe(result.status);
  expect(body.message, context).toBeTypeOf('string');
  expect(body.message as string, context).not.toMatch(/[\r\n]/);
  expect(body.message as string, context).not.toMatch(/\bat .*\.ts:\d+|Exception|dynamodb/i);
  expect(body.request_id, context).toBeTypeOf('string');
  expect((body.request_id as string).length, context).toBeGreaterThan(0);
  expect(Array.isArray(body.errors), context).toBe(true);
  for (const error of body.errors as Record<string, unknown>[]) {
    expect(error.code, context).toBeTypeOf('string');
    expect(error.message, context).toBeTypeOf('string');
    expect(error.field === null || typeof error.field === 'string', context).toBe(true);
  }
  if (result.status === 503) expect(Number(result.headers['retry-after']), context).toBeGreaterThanOrEqual(1);
  if (result.status === 401) expect(result.headers['www-authenticate'], context).toBe('Bearer');
}

export interface AccountState {
  /** Business items of the account, counted in its partitions of the table's index GSI1 (every one of them has keys there). */
  invoices: number;
  clients: number;
  payments: number;
  /** Payments of the account in the history index (any date). */
  indexed: number;
}

/**
 * What an account has written: its invoices, clients (not deleted) and payments, counted by one Query each of the
 * account's GSI1 partitions — a Scan of the table all tests share grew too slow to call per fuzz case. Id sequences
 * are deliberately not part of it: ids may be reserved in blocks outside the business transaction, so a sequence may
 * advance without anything being written.
 */
export async function accountState(companyId: number): Promise<AccountState> {
  const [invoices, clients, payments] = await Promise.all([
    countIndexPartition(invoiceIndexKeys.partition(companyId)),
    countIndexPartition(clientIndexKeys.partition(companyId)),
    countIndexPartition(paymentIndexKeys.partition(companyId)),
  ]);
  return { invoices, clients, payments, indexed: payments };
}

async function countIndexPartition(partition: string): Promise<number> {
  const index = TABLE.listingIndex;
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': index.partitionKey },
        ExpressionAttributeValues: { ':pk': partition },
        Select: 'COUNT',
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

export const NOTHING = { invoices: 0, clients: 0, payments: 0, indexed: 0 } as const;

/** Whether an idempotency record exists for this account, route and client key. */
export async function idempotencyRecordExists(
  companyId: number,
  route: RouteName,
  idempotencyKey: string,
): Promise<boolean> {
  const hash = createHash('sha256').update(idempotencyKey).digest('hex');
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.idempotency(companyId, route, hash), ConsistentRead: true }),
  );
  return result.Item !== undefined;
}

export async function invoiceHeader(referenceCode: string): Promise<Record<string, unknown> | undefined> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.invoiceHeader(referenceCode), ConsistentRead: true }),
  );
  return result.Item;
}

/** Every payment of the account's history for `period`, following `next_cursor` page by page. */
export async function fullHistory(key: string, options: { period?: string; limit?: number } = {}) {
  const payments: Record<string, any>[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const body: Record<string, unknown> = { period: options.period ?? '30', limit: options.limit ?? 100 };
    if (cursor) body.cursor = cursor;
    const result = await call('payment-history', { key, body });
    expect(result.status, result.rawBody).toBe(200);
    payments.push(...result.body.data.payments);
    pages.push(result.body.data.payments.length);
    cursor = result.body.data.next_cursor ?? undefined;
    if (!cursor) return { payments, pages };
  }
  throw new Error('history did not end');
}

/** Kobo from a response money string ("1500.50"). */
export const kobo = (money: string): number => {
  const [whole, fraction = ''] = money.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};

/** A money string with two decimals from kobo. */
export const money = (amountKobo: number): string =>
  `${Math.floor(amountKobo / 100)}.${String(amountKobo % 100).padStart(2, '0')}`;

/** A new account with a 1,000.00 invoice and the body of a 250.00 cash payment on it, dated today. */
export async function accountWithInvoiceToPay() {
  const { key, account } = await newAccount();
  const invoice = await createInvoice(key, {
    items: [{ item: 'Audit', description: 'Yearly', unit_cost: '1000.00', quantity: '1' }],
  });
  const payment = {
    reference_code: invoice.reference_code as string,
    date: todayMonthFirst(),
    amount: '250.00',
    channel: 'Cash',
  };
  return { key, account, invoice, payment };
}
