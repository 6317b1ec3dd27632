/** docs/api.md "Reversing a payment": POST /payments/{id}/reversal through API Gateway-shaped events on DynamoDB Local. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

// Each call has 30 s of invocation time (10 s by default), as in test/robustness/contention.test.ts: under the
// 60-request race a busy machine must not turn a commit into an unconfirmed one (504).
const BUDGET_MS = 30_000;

const pay = (key: string, reference_code: string, amount: string, channel = 'Cash') =>
  call('add-payment', { key, body: { reference_code, date: todayMonthFirst(), amount, channel }, budgetMs: BUDGET_MS });

const reverse = (key: string, id: number | string, reason = 'Keyed 50,000.00 instead of 5,000.00', headers = {}) =>
  call('reverse-payment', { key, pathParameters: { id: String(id) }, body: { reason }, headers, budgetMs: BUDGET_MS });

const latest = (key: string, reference_code: string) =>
  call('get-payment', { key, pathParameters: { reference_code } });

const history = (key: string) => call('payment-history', { key, body: { period: 'today' } });

describe('POST /payments/{id}/reversal', () => {
  it('reverses a payment: 200 with it reversed and its invoice restored; history still lists it; it can be paid again', async () => {
    // Prepare
    const { key } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: 'Bags', description: 'Jute', unit_cost: '5000', quantity: 10 }],
    });
    const mistake = await pay(key, invoice.reference_code, '50,000.00');
    expect(mistake.body.data.invoice.payment_status).toBe('paid');

    // Act
    const reversal = await reverse(key, mistake.body.data.id);

    // Assess
    expect(reversal.status).toBe(200);
    expect(reversal.body.message).toBe('Payment reversed successfully.');
    const data = reversal.body.data;
    expect(data).toMatchObject({
      id: mistake.body.data.id,
      amount: '50000.00',
      status: 'reversed',
      reversal_reason: 'Keyed 50,000.00 instead of 5,000.00',
    });
    expect(data.reversed_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(data.invoice).toMatchObject({
      amount_paid: '0.00',
      amount_due: '50000.00',
      payment_status: 'unpaid',
      paid_at: null,
    });
    const listed = await history(key);
    expect(listed.body.data.payments.map((p: { status: string }) => p.status)).toEqual(['reversed']);
    expect(listed.body.data.payments[0].reversal_reason).toBe('Keyed 50,000.00 instead of 5,000.00');
    expect((await pay(key, invoice.reference_code, '5,000.00')).status).toBe(201);
    const full = await pay(key, invoice.reference_code, '45,000.00');
    expect(full.body.data.invoice).toMatchObject({ amount_paid: '50000.00', payment_status: 'paid' });
    expect((await pay(key, invoice.reference_code, '0.01')).body.code).toBe('invoice_already_paid');
  });

  it('answers 409 payment_already_reversed the second time, and 404 payment_not_found for unknown, malformed and foreign ids', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const invoice = await createInvoice(key);
    const payment = await pay(key, invoice.reference_code, '10.00');
    expect((await reverse(key, payment.body.data.id)).status).toBe(200);
    const again = await reverse(key, payment.body.data.id);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('payment_already_reversed');
    for (const [who, id] of [
      [key, 999_999],
      [key, 'abc'],
      [key, '0'],
      [other.key, payment.body.data.id],
    ] as const) {
      const result = await reverse(who, id);
      expect(result.status, String(id)).toBe(404);
      expect(result.body.code).toBe('payment_not_found');
    }
  });

  it('validates the reason (1–500 characters) before anything else', async () => {
    const { key } = await newAccount();
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 5 }]) {
      const result = await call('reverse-payment', { key, pathParameters: { id: '1' }, body });
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.errors[0].field).toBe('reason');
    }
    const longest = await reverse(key, 1, 'x'.repeat(500));
    expect(longest.body.code).toBe('payment_not_found');
  });

  it('makes the newest non-reversed payment the latest again (GET /payments/{reference_code})', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const first = (await pay(key, invoice.reference_code, '1.00')).body.data;
    const second = (await pay(key, invoice.reference_code, '2.00')).body.data;
    const third = (await pay(key, invoice.reference_code, '3.00')).body.data;
    await reverse(key, second.id);
    expect((await latest(key, invoice.reference_code)).body.data.id).toBe(third.id);
    await reverse(key, third.id);
    const now = (await latest(key, invoice.reference_code)).body.data;
    expect(now.id).toBe(first.id);
    expect(now.invoice).toMatchObject({ amount_paid: '1.00', payments_count: 1 });
    await reverse(key, first.id);
    expect((await latest(key, invoice.reference_code)).body.code).toBe('payment_not_found');
    const fourth = (await pay(key, invoice.reference_code, '4.00')).body.data;
    await reverse(key, fourth.id);
    expect((await latest(key, invoice.reference_code)).body.code).toBe('payment_not_found');
  });

  it('is idempotent with an Idempotency-Key: the same answer replayed; another reason with the same key is 422', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const payment = (await pay(key, invoice.reference_code, '10.00')).body.data;
    const headers = { 'Idempotency-Key': 'reverse-once' };
    const first = await reverse(key, payment.id, 'wrong invoice', headers);
    const replay = await reverse(key, payment.id, 'wrong invoice', headers);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.rawBody).toBe(first.rawBody);
    expect((await reverse(key, payment.id, 'another reason', headers)).status).toBe(422);
  });

  it('writes one payment.reversed event whose data is the response data', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    const payment = (await pay(key, invoice.reference_code, '10.00')).body.data;
    const reversal = await reverse(key, payment.id);
    await reverse(key, payment.id);
    const events = (await listDeliveries(account.companyId)).filter((line) => line.type === 'payment.reversed');
    expect(events).toHaveLength(1);
    const stored = await getEvent(events[0]!.event_id);
    expect(JSON.parse(stored!.body).data).toEqual(reversal.body.data);
  });
});

describe('reversals under concurrency', () => {
  it('keeps amount_paid = Σ non-reversed payments ≤ total while 60 payments and reversals race on one invoice', {
    timeout: 120_000,
  }, async () => {
    // Prepare: 20 payments of 1.00 on an invoice of 30.00
    const { key } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: 'Seat', description: 'Day', unit_cost: '1', quantity: 30 }],
    });
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push((await pay(key, invoice.reference_code, '1.00')).body.data.id);

    // Act: reverse each of the 20 twice, and try 20 more payments of 1.00, all at once
    const results = await Promise.all([
      ...ids.flatMap((id) => [reverse(key, id), reverse(key, id)]),
      ...ids.map(() => pay(key, invoice.reference_code, '1.00')),
    ]);

    // Assess: every answer is an outcome or a retryable 503 (nothing written); the invoice agrees with its payments
    for (const r of results) {
      expect([200, 201, 409, 503], r.rawBody).toContain(r.status);
      if (r.status === 503) expect(r.headers['retry-after']).toBeDefined();
    }
    const reversedIds = results
      .slice(0, 40)
      .filter((r) => r.status === 200)
      .map((r) => r.body.data.id);
    expect(new Set(reversedIds).size).toBe(reversedIds.length);
    const payments = (await call('payment-history', { key, body: { period: 'today', limit: 500 } })).body.data.payments;
    const reversedListed = payments
      .filter((p: { status: string }) => p.status === 'reversed')
      .map((p: { id: number }) => p.id);
    expect(reversedListed.sort()).toEqual([...reversedIds].sort());
    const standing = payments.filter((p: { status: string }) => p.status === 'success');
    const recorded = results.slice(40).filter((r) => r.status === 201).length;
    expect(standing).toHaveLength(20 - reversedIds.length + recorded);
    const sum = standing.reduce(
      (total: number, p: { amount: string }) => total + Math.round(Number(p.amount) * 100),
      0,
    );
    const read = (await call('get-invoice', { key, pathParameters: { reference_code: invoice.reference_code } })).body
      .data;
    expect(Math.round(Number(read.amount_paid) * 100)).toBe(sum);
    expect(sum).toBeLessThanOrEqual(3000);
    expect(reversedIds.length).toBeGreaterThan(0);
  });
});

describe('a reversal whose read straddles another reversal of the same payment (issue 26)', () => {
  // DynamoDB's BatchGetItem is consistent per item only: a transaction that commits while it runs can be seen in one
  // item and not in the next. The hook hands the second reversal exactly that reading — the invoice as restored by the
  // first reversal, the payment as it was before it — whenever a batch read returns the payment.
  async function reverseOnATornRead(headers: Record<string, string>) {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    const paid = await pay(key, invoice.reference_code, '10.00');
    const id = paid.body.data.id as number;
    const paymentKey = keys.payment(account.companyId, id);
    const before = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: paymentKey, ConsistentRead: true }),
    );
    expect((await reverse(key, id)).status).toBe(200);
    const remove = dynamoHooks.add({
      after: (c, output) => {
        if (c.command !== 'BatchGetItemCommand') return;
        const items = (output.Responses as Record<string, Record<string, unknown>[]>)[tableName()] ?? [];
        for (const [i, item] of items.entries()) if (item.PK === paymentKey.PK) items[i] = before.Item!;
      },
    });
    try {
      return { result: await reverse(key, id, 'Keyed twice', headers), key, reference_code: invoice.reference_code };
    } finally {
      remove();
    }
  }

  it.each([
    ['without an Idempotency-Key', {}],
    ['with an Idempotency-Key', { 'Idempotency-Key': 'torn-read' }],
  ])('%s: 409 payment_already_reversed, never 500; the invoice stays restored', async (_label, headers) => {
    const { result, key, reference_code } = await reverseOnATornRead(headers);
    expect([result.status, result.body.code], result.rawBody).toEqual([409, 'payment_already_reversed']);
    const read = await call('get-invoice', { key, pathParameters: { reference_code } });
    expect(read.body.data).toMatchObject({ amount_paid: '0.00', payment_status: 'unpaid' });
  });
});
