/** docs/api.md "Idempotency": the Idempotency-Key header on POST /invoices and POST /payments. */

import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, createInvoice, invoiceBody, newAccount, todayMonthFirst } from '../support/api.ts';

const paymentBody = (reference_code: string, amount: unknown = '1500') => ({
  reference_code,
  date: todayMonthFirst(),
  amount,
  channel: 'Cash',
});
const historyCount = async (key: string) =>
  (await call('payment-history', { key, body: { period: 'today' } })).body.data.payments.length;

describe('Idempotency-Key', () => {
  it('replays the first response exactly, with Idempotent-Replayed, and writes once', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const first = await call('add-payment', {
      key,
      idempotencyKey: 'pay-1',
      body: paymentBody(invoice.reference_code),
    });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await call('add-payment', {
      key,
      idempotencyKey: 'pay-1',
      body: paymentBody(invoice.reference_code),
    });
    expect(replay.status).toBe(201);
    expect(replay.rawBody).toBe(first.rawBody);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await historyCount(key)).toBe(1);
  });

  it('fingerprints the normalised request: 1500, "1500" and "1,500.00" are the same; unknown fields do not count', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const first = await call('add-payment', {
      key,
      idempotencyKey: 'same',
      body: paymentBody(invoice.reference_code, 1500),
    });
    for (const amount of ['1500', '1,500.00', ' 1500.0 ']) {
      const replay = await call('add-payment', {
        key,
        idempotencyKey: 'same',
        body: { ...paymentBody(invoice.reference_code, amount), note: 'ignored' },
      });
      expect(replay.status, String(amount)).toBe(201);
      expect(replay.rawBody).toBe(first.rawBody);
    }
    expect(await historyCount(key)).toBe(1);
  });

  it('answers 422 for the same key with a different request, writing nothing', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    await call('add-payment', { key, idempotencyKey: 'k', body: paymentBody(invoice.reference_code, '10') });
    const reused = await call('add-payment', {
      key,
      idempotencyKey: 'k',
      body: paymentBody(invoice.reference_code, '11'),
    });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe('idempotency_key_reused');
    expect(await historyCount(key)).toBe(1);
  });

  it('validates the body before the key, and the key format (1–255 printable ASCII)', async () => {
    const { key } = await newAccount();
    const badBody = await call('add-payment', { key, idempotencyKey: 'x'.repeat(300), body: { amount: 'abc' } });
    expect(badBody.status).toBe(400);
    expect(badBody.body.code).toBe('validation_failed');
    const invoice = await createInvoice(key);
    for (const idempotencyKey of ['x'.repeat(256), 'ключ', 'tab\there', '']) {
      const result = await call('add-payment', { key, idempotencyKey, body: paymentBody(invoice.reference_code) });
      expect(result.status, JSON.stringify(idempotencyKey)).toBe(400);
      expect(result.body.code).toBe('invalid_idempotency_key');
    }
    expect(
      (await call('add-payment', { key, idempotencyKey: 'x'.repeat(255), body: paymentBody(invoice.reference_code) }))
        .status,
    ).toBe(201);
    expect(await historyCount(key)).toBe(1);
  });

  it('does not store 400 responses: the key stays free for a corrected request', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    expect(
      (await call('add-payment', { key, idempotencyKey: 'fix-me', body: paymentBody(invoice.reference_code, '-1') }))
        .status,
    ).toBe(400);
    expect(
      (await call('add-payment', { key, idempotencyKey: 'fix-me', body: paymentBody(invoice.reference_code, '1') }))
        .status,
    ).toBe(201);
  });

  it('stores and replays 404 and 409 outcomes', async () => {
    const { key } = await newAccount();
    const missing = await call('add-payment', { key, idempotencyKey: 'nf', body: paymentBody('ZZZZZZZZZZZZZZZZZZZZ') });
    expect(missing.status).toBe(404);
    const missingAgain = await call('add-payment', {
      key,
      idempotencyKey: 'nf',
      body: paymentBody('ZZZZZZZZZZZZZZZZZZZZ'),
    });
    expect(missingAgain.rawBody).toBe(missing.rawBody);
    expect(missingAgain.headers['idempotent-replayed']).toBe('true');

    const invoice = await createInvoice(key, {
      items: [{ item: 'a', description: 'b', unit_cost: '10', quantity: '1' }],
    });
    const over = await call('add-payment', {
      key,
      idempotencyKey: 'over',
      body: paymentBody(invoice.reference_code, '20'),
    });
    expect(over.status).toBe(409);
    const overAgain = await call('add-payment', {
      key,
      idempotencyKey: 'over',
      body: paymentBody(invoice.reference_code, '20'),
    });
    expect(overAgain.status).toBe(409);
    expect(overAgain.rawBody).toBe(over.rawBody);
  });

  it('stores and replays a 403 on add invoice; replays invoices without a second write', async () => {
    const { key } = await newAccount();
    const body = invoiceBody({ tokenize: 'true' });
    const first = await call('add-invoice', { key, idempotencyKey: 'tok', body });
    expect(first.status).toBe(403);
    const again = await call('add-invoice', { key, idempotencyKey: 'tok', body });
    expect(again.rawBody).toBe(first.rawBody);
    expect(again.headers['idempotent-replayed']).toBe('true');

    const invoiceRequest = invoiceBody();
    const created = await call('add-invoice', { key, idempotencyKey: 'inv', body: invoiceRequest });
    const replayed = await call('add-invoice', { key, idempotencyKey: 'inv', body: invoiceRequest });
    expect(replayed.rawBody).toBe(created.rawBody);
    const next = await createInvoice(key);
    expect(next.id).toBe(created.body.data.id + 1); // no invoice id was consumed by the replay
  });

  it('scopes keys by account and route', async () => {
    const a = await newAccount();
    const b = await newAccount();
    const invoiceA = await createInvoice(a.key);
    const invoiceB = await createInvoice(b.key);
    const payA = await call('add-payment', {
      key: a.key,
      idempotencyKey: 'shared',
      body: paymentBody(invoiceA.reference_code),
    });
    const payB = await call('add-payment', {
      key: b.key,
      idempotencyKey: 'shared',
      body: paymentBody(invoiceB.reference_code),
    });
    expect(payA.status).toBe(201);
    expect(payB.status).toBe(201);
    expect(payB.headers['idempotent-replayed']).toBeUndefined();
    const invoiceWithSameKey = await call('add-invoice', { key: a.key, idempotencyKey: 'shared', body: invoiceBody() });
    expect(invoiceWithSameKey.status).toBe(201);
  });

  it('forgets a key after 24 hours', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key);
    await call('add-payment', { key, idempotencyKey: 'old', body: paymentBody(invoice.reference_code, '1') });
    const recordKey = keys.idempotency(
      account.companyId,
      'add-payment',
      createHash('sha256').update('old').digest('hex'),
    );
    const stored = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: recordKey,
        UpdateExpression: 'SET expires_at = expires_at - :day',
        ExpressionAttributeValues: { ':day': 86_400 },
        ReturnValues: 'ALL_NEW',
      }),
    );
    expect(Number(stored.Attributes?.expires_at)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    const after = await call('add-payment', {
      key,
      idempotencyKey: 'old',
      body: paymentBody(invoice.reference_code, '1'),
    });
    expect(after.status).toBe(201);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(await historyCount(key)).toBe(2);
  });

  it('lets concurrent duplicates through at most once', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        call('add-payment', { key, idempotencyKey: 'burst', body: paymentBody(invoice.reference_code, '5') }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    for (const r of results) {
      expect([201, 409]).toContain(r.status);
      if (r.status === 409) {
        expect(r.body.code).toBe('idempotency_request_in_progress');
        expect(r.headers['retry-after']).toBeDefined();
      }
    }
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
    expect(await historyCount(key)).toBe(1);
  });
});
