/**
 * The limits of docs/api.md "Limits" at their boundaries: the limit itself is accepted, one past it is refused with the
 * documented code, and a refused request writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { call, createInvoice, invoiceBody, newAccount, todayMonthFirst } from '../support/api.ts';
import { accountState, expectErrorEnvelope, idempotencyRecordExists, NOTHING } from './helpers.ts';

/** A JSON body of exactly `bytes` bytes (UTF-8) that is a valid history request. */
function historyBodyOfSize(bytes: number, filler = 'x'): string {
  const head = '{"period":"today","padding":"';
  const tail = '"}';
  const unit = Buffer.byteLength(filler);
  const room = bytes - Buffer.byteLength(head + tail);
  return head + filler.repeat(Math.floor(room / unit)) + 'x'.repeat(room % unit) + tail;
}

/** The documented body limit (docs/api.md "Limits"), not the code's constant: the test checks the code keeps it. */
const DOCUMENTED_BODY_LIMIT = 64 * 1024;

describe('limits (docs/api.md "Limits")', () => {
  it('body: 64 KiB is accepted, 64 KiB + 1 byte is 413 (plain, base64, multi-byte UTF-8, form) and writes nothing', async () => {
    const { key, account } = await newAccount();
    const atLimit = historyBodyOfSize(DOCUMENTED_BODY_LIMIT);
    expect(Buffer.byteLength(atLimit)).toBe(DOCUMENTED_BODY_LIMIT);
    expect((await call('payment-history', { key, body: atLimit })).status).toBe(200);
    expect((await call('payment-history', { key, body: atLimit, base64: true })).status).toBe(200);

    const over = historyBodyOfSize(DOCUMENTED_BODY_LIMIT + 1);
    const overUnicode = historyBodyOfSize(DOCUMENTED_BODY_LIMIT + 1, '€'); // fewer characters than bytes
    expect(overUnicode.length).toBeLessThan(DOCUMENTED_BODY_LIMIT);
    for (const result of [
      await call('payment-history', { key, body: over }),
      await call('payment-history', { key, body: over, base64: true }),
      await call('payment-history', { key, body: overUnicode }),
      await call('add-payment', {
        key,
        body: `padding=${'x'.repeat(DOCUMENTED_BODY_LIMIT)}`,
        contentType: 'application/x-www-form-urlencoded',
      }),
      await call('add-invoice', {
        key,
        body: JSON.stringify(invoiceBody({ padding: 'x'.repeat(DOCUMENTED_BODY_LIMIT) })),
        idempotencyKey: 'too-large',
      }),
    ]) {
      expectErrorEnvelope(result, 413);
      expect(result.body.code).toBe('payload_too_large');
    }
    expect(await accountState(account.companyId)).toEqual(NOTHING);
    expect(await idempotencyRecordExists(account.companyId, 'add-invoice', 'too-large')).toBe(false);
  });

  it('items: 100 are accepted, 101 are 400 too_many, and nothing is written', async () => {
    const { key, account } = await newAccount();
    const item = (i: number) => ({ item: `Item ${i}`, description: 'd', unit_cost: '1.00', quantity: '1' });
    const hundred = await call('add-invoice', {
      key,
      body: invoiceBody({ items: Array.from({ length: 100 }, (_, i) => item(i)) }),
    });
    expect(hundred.status, hundred.rawBody).toBe(201);
    expect(hundred.body.data.items).toHaveLength(100);
    const before = await accountState(account.companyId);

    const tooMany = await call('add-invoice', {
      key,
      body: invoiceBody({ items: Array.from({ length: 101 }, (_, i) => item(i)) }),
      idempotencyKey: 'too-many',
    });
    expectErrorEnvelope(tooMany, 400);
    expect(tooMany.body.code).toBe('validation_failed');
    expect(tooMany.body.errors).toContainEqual(expect.objectContaining({ field: 'items', code: 'too_many' }));
    const wayTooMany = await call('add-invoice', {
      key,
      body: invoiceBody({ items: Array.from({ length: 5000 }, () => 1) }),
    });
    expectErrorEnvelope(wayTooMany, 400);
    expect(wayTooMany.body.errors.length).toBeLessThanOrEqual(5); // one problem reported, not one per element
    expect(await accountState(account.companyId)).toEqual(before);
    expect(await idempotencyRecordExists(account.companyId, 'add-invoice', 'too-many')).toBe(false);
  });

  it('history limit: 500 is accepted, 501 / 0 / -1 / 1.5 / "abc" are 400', async () => {
    const { key } = await newAccount();
    for (const limit of [1, 500, '500']) {
      const result = await call('payment-history', { key, body: { period: 'today', limit } });
      expect(result.status, String(limit)).toBe(200);
    }
    for (const limit of [501, '501', 0, -1, 1.5, 'abc', 1e9, [10], { n: 1 }, true]) {
      const result = await call('payment-history', { key, body: { period: 'today', limit } });
      expectErrorEnvelope(result, 400);
      expect(result.body.errors).toContainEqual(expect.objectContaining({ field: 'limit' }));
    }
  });

  it('strings: 500 characters are accepted, 501 are 400 too_long (item, description, client fields, card_token, recipient_id), and nothing is written', async () => {
    const { key, account } = await newAccount();
    const at = 'a'.repeat(500);
    const over = 'a'.repeat(501);
    const ok = await call('add-invoice', {
      key,
      body: invoiceBody({
        items: [{ item: at, description: at, unit_cost: '1.00', quantity: '1' }],
        card_token: at,
        recipient: 'wallet',
        recipient_id: at,
        metadata: { note: at },
      }),
    });
    expect(ok.status, ok.rawBody).toBe(201);
    const before = await accountState(account.companyId);

    const cases: [string, Record<string, unknown>][] = [
      ['items.0.item', { items: [{ item: over, description: 'd', unit_cost: '1.00', quantity: '1' }] }],
      ['items.0.description', { items: [{ item: 'i', description: over, unit_cost: '1.00', quantity: '1' }] }],
      [
        'client.first_name',
        { client: { first_name: over, last_name: 'Obi', email: 'a@example.com', phone: '+2348012345678' } },
      ],
      [
        'client.address',
        {
          client: {
            first_name: 'Ada',
            last_name: 'Obi',
            email: 'a@example.com',
            phone: '+2348012345678',
            address: over,
          },
        },
      ],
      ['card_token', { card_token: over }],
      ['recipient_id', { recipient: 'wallet', recipient_id: over }],
      ['metadata', { metadata: { note: over } }],
      ['merchant_ref', { merchant_ref: 'm'.repeat(65) }],
    ];
    for (const [field, overrides] of cases) {
      const result = await call('add-invoice', { key, body: invoiceBody(overrides), idempotencyKey: `long-${field}` });
      expectErrorEnvelope(result, 400);
      expect(result.body.errors, field).toContainEqual(expect.objectContaining({ field }));
      expect(await idempotencyRecordExists(account.companyId, 'add-invoice', `long-${field}`)).toBe(false);
    }
    const invoice = await createInvoice(key);
    const longRef = await call('add-payment', {
      key,
      body: { reference_code: 'R'.repeat(501), date: todayMonthFirst(), amount: '1', channel: 'Cash' },
    });
    expectErrorEnvelope(longRef, 400);
    const after = await accountState(account.companyId);
    expect(after.payments).toBe(before.payments);
    expect(after.invoices).toBe(before.invoices + 1); // only createInvoice above
    expect(invoice.reference_code).toHaveLength(20);
  });

  it('Idempotency-Key: 255 printable ASCII characters are accepted, 256 or non-ASCII are 400', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const body = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '1', channel: 'Cash' };
    expect((await call('add-payment', { key, body, idempotencyKey: '~'.repeat(255) })).status).toBe(201);
    for (const idempotencyKey of ['k'.repeat(256), '', 'ключ', 'tab\there']) {
      const result = await call('add-payment', { key, body, idempotencyKey });
      expectErrorEnvelope(result, 400);
      expect(result.body.code).toBe('invalid_idempotency_key');
    }
  });
});
