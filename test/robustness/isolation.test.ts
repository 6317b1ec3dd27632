/**
 * Tenant isolation (docs/api.md "Errors", "Add invoice", "Idempotency", "Payment history and pagination"): for every route and every id a request can carry —
 * reference_code, client_id, history cursor, Idempotency-Key, merchant_ref, client email — a second
 * account gets 404/400 (or its own, independent result) and sees nothing of the first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createInvoice, invoiceBody, newAccount, todayMonthFirst, uniqueEmail } from '../support/api.ts';
import {
  accountState,
  expectErrorEnvelope,
  fullHistory,
  idempotencyRecordExists,
  invoiceHeader,
  NOTHING,
} from './helpers.ts';

interface Tenant {
  key: string;
  companyId: number;
}

let a: Tenant;
let b: Tenant;
let aInvoice: Record<string, any>;
let aPayment: Record<string, any>;
let aCursor: string;
const aEmail = uniqueEmail();
const SECRET_MARKERS = ['Secret Client Ltd', 'Confidential item', 'A-REF-1'];

/** Nothing of account A may appear in what B receives. */
function expectNothingOfA(rawBody: string) {
  for (const marker of [...SECRET_MARKERS, aInvoice.reference_code as string, aEmail])
    expect(rawBody).not.toContain(marker);
}

beforeAll(async () => {
  const first = await newAccount({ name: 'Tenant A' });
  const second = await newAccount({ name: 'Tenant B' });
  a = { key: first.key, companyId: first.account.companyId };
  b = { key: second.key, companyId: second.account.companyId };
  aInvoice = await createInvoice(a.key, {
    client: {
      first_name: 'Ada',
      last_name: 'Obi',
      email: aEmail,
      phone: '+2348012345678',
      company_name: 'Secret Client Ltd',
    },
    items: [{ item: 'Confidential item', description: 'x', unit_cost: '1000.00', quantity: '3' }],
    merchant_ref: 'A-REF-1',
  });
  const payments = [];
  for (let i = 0; i < 3; i++) {
    const paid = await call('add-payment', {
      key: a.key,
      body: { reference_code: aInvoice.reference_code, date: todayMonthFirst(), amount: '100.00', channel: 'Cash' },
      idempotencyKey: `shared-key-${i}`,
    });
    expect(paid.status).toBe(201);
    payments.push(paid.body.data);
  }
  aPayment = payments[0]!;
  const page = await call('payment-history', { key: a.key, body: { period: 'month', limit: 1 } });
  aCursor = page.body.data.next_cursor;
  expect(aCursor).toBeTypeOf('string');
});

describe('tenant isolation', () => {
  it('POST /payments with another account’s reference_code → 404 invoice_not_found, like an unknown one; nothing changes', async () => {
    const header = await invoiceHeader(aInvoice.reference_code);
    const foreign = await call('add-payment', {
      key: b.key,
      body: { reference_code: aInvoice.reference_code, date: todayMonthFirst(), amount: '100.00', channel: 'Cash' },
    });
    const unknown = await call('add-payment', {
      key: b.key,
      body: { reference_code: 'ZZZZZZZZZZZZZZZZZZZZ', date: todayMonthFirst(), amount: '100.00', channel: 'Cash' },
    });
    expectErrorEnvelope(foreign, 404);
    expect(foreign.body.code).toBe('invoice_not_found');
    // Indistinguishable from an unknown code (same body except the request id).
    expect({ ...foreign.body, request_id: null }).toEqual({ ...unknown.body, request_id: null });
    expectNothingOfA(foreign.rawBody);
    // Also when the amount would exceed A's balance: no 409 that would reveal the invoice exists.
    const huge = await call('add-payment', {
      key: b.key,
      body: { reference_code: aInvoice.reference_code, date: todayMonthFirst(), amount: '999999.00', channel: 'Cash' },
    });
    expect(huge.body.code).toBe('invoice_not_found');
    expect(await invoiceHeader(aInvoice.reference_code)).toEqual(header);
    expect((await accountState(b.companyId)).payments).toBe(0);
  });

  it('POST /invoices/{reference_code}/credit-notes with another account’s invoice → 404 like an unknown one; nothing written', async () => {
    const header = await invoiceHeader(aInvoice.reference_code);
    const credit = (reference_code: string, amount: string) =>
      call('create-credit-note', {
        key: b.key,
        pathParameters: { reference_code },
        body: { reason: 'Not mine', amount },
        idempotencyKey: `foreign-credit-${reference_code}-${amount}`,
      });
    const foreign = await credit(aInvoice.reference_code, '10.00');
    const unknown = await credit('ZZZZZZZZZZZZZZZZZZZZ', '10.00');
    expectErrorEnvelope(foreign, 404);
    expect(foreign.body.code).toBe('invoice_not_found');
    expect({ ...foreign.body, request_id: null }).toEqual({ ...unknown.body, request_id: null });
    expectNothingOfA(foreign.rawBody);
    // Beyond A's total too: no 409 credit_exceeds_invoice that would reveal the invoice and what is creditable.
    expect((await credit(aInvoice.reference_code, '999999.00')).body.code).toBe('invoice_not_found');
    expect(await invoiceHeader(aInvoice.reference_code)).toEqual(header);
    // A's first credit note is CN-000001: B's refused requests took no number of A's, nor of its own.
    const own = await call('create-credit-note', {
      key: a.key,
      pathParameters: { reference_code: aInvoice.reference_code },
      body: { reason: 'Mine', amount: '1.00' },
    });
    expect(own.body.data.number).toBe('CN-000001');
  });

  it('POST /invoices with another account’s client_id → 404 client_not_found; nothing written', async () => {
    const fresh = await newAccount({ name: 'Tenant C' });
    const result = await call('add-invoice', {
      key: fresh.key,
      body: invoiceBody({ client: undefined, client_id: aInvoice.client_id }),
    });
    expectErrorEnvelope(result, 404);
    expect(result.body.code).toBe('client_not_found');
    const numeric = await call('add-invoice', {
      key: fresh.key,
      body: invoiceBody({ client: undefined, client_id: Number(aInvoice.client_id) }),
    });
    expect(numeric.body.code).toBe('client_not_found');
    expectNothingOfA(result.rawBody);
    expect(await accountState(fresh.account.companyId)).toEqual(NOTHING);
  });

  it('the same client email in another account creates that account’s own client, with its own data', async () => {
    const result = await call('add-invoice', {
      key: b.key,
      body: invoiceBody({
        client: { first_name: 'Bola', last_name: 'Ade', email: aEmail.toUpperCase(), phone: '+2348099999999' },
      }),
    });
    expect(result.status, result.rawBody).toBe(201);
    expect(result.body.data.client).toMatchObject({ company_id: b.companyId, first_name: 'Bola', name: '' });
    expect(result.rawBody).not.toContain('Secret Client Ltd');
  });

  it('the same merchant_ref in another account is accepted (uniqueness is per account, no 409 leak)', async () => {
    const result = await call('add-invoice', { key: b.key, body: invoiceBody({ merchant_ref: 'A-REF-1' }) });
    expect(result.status, result.rawBody).toBe(201);
    expect(result.body.data.merchant_ref).toBe('A-REF-1');
    expect(result.body.data.reference_code).not.toBe(aInvoice.reference_code);
  });

  it('a history cursor of another account → 400 invalid_cursor; the account’s own history shows none of the first account’s payments', async () => {
    const result = await call('payment-history', { key: b.key, body: { period: 'month', cursor: aCursor } });
    expectErrorEnvelope(result, 400);
    expect(result.body.code).toBe('invalid_cursor');
    expectNothingOfA(result.rawBody);
    const own = await fullHistory(b.key, { period: 'month' });
    expect(own.payments).toEqual([]);
    // A's cursor still works for A.
    const mine = await call('payment-history', { key: a.key, body: { period: 'month', cursor: aCursor } });
    expect(mine.status).toBe(200);
    expect(mine.body.data.payments).toHaveLength(2);
  });

  it('an Idempotency-Key used by another account is independent: no replay of the first account’s response', async () => {
    // Same key, same body as A's first payment: B must not get A's stored 201.
    const sameBody = {
      reference_code: aInvoice.reference_code,
      date: todayMonthFirst(),
      amount: '100.00',
      channel: 'Cash',
    };
    const replayAttempt = await call('add-payment', { key: b.key, body: sameBody, idempotencyKey: 'shared-key-0' });
    expect(replayAttempt.headers['idempotent-replayed']).toBeUndefined();
    expectErrorEnvelope(replayAttempt, 404);
    expectNothingOfA(replayAttempt.rawBody);
    expect(replayAttempt.rawBody).not.toContain('Payment successful');

    // Same key, B's own invoice: a fresh payment of B (not a 422 for a "different body").
    const bInvoice = await createInvoice(b.key);
    const own = await call('add-payment', {
      key: b.key,
      body: { reference_code: bInvoice.reference_code, date: todayMonthFirst(), amount: '5.00', channel: 'POS' },
      idempotencyKey: 'shared-key-1',
    });
    expect(own.status, own.rawBody).toBe(201);
    expect(own.headers['idempotent-replayed']).toBeUndefined();
    expect(own.body.data.reference_code).toBe(bInvoice.reference_code);
    expectNothingOfA(own.rawBody);

    // Same key on POST /invoices in both accounts: two independent invoices.
    const invoiceA = await call('add-invoice', {
      key: a.key,
      body: invoiceBody(),
      idempotencyKey: 'shared-invoice-key',
    });
    const invoiceB = await call('add-invoice', {
      key: b.key,
      body: invoiceBody(),
      idempotencyKey: 'shared-invoice-key',
    });
    expect([invoiceA.status, invoiceB.status]).toEqual([201, 201]);
    expect(invoiceB.headers['idempotent-replayed']).toBeUndefined();
    expect(invoiceB.body.data.company_id).toBe(String(b.companyId));

    // A's keys still replay A's own results.
    const aReplay = await call('add-payment', { key: a.key, body: sameBody, idempotencyKey: 'shared-key-0' });
    expect(aReplay.headers['idempotent-replayed']).toBe('true');
    expect(aReplay.body.data.id).toBe(aPayment.id);
    expect(await idempotencyRecordExists(b.companyId, 'add-payment', 'shared-key-0')).toBe(true); // B's own stored 404
  });

  it('history of the second account lists only its own payments, each with its own invoice and client', async () => {
    const { payments } = await fullHistory(b.key, { period: 'month' });
    expect(payments.length).toBeGreaterThan(0);
    for (const payment of payments) {
      expect(payment.company_id).toBe(String(b.companyId));
      expect(payment.invoice.company_id).toBe(String(b.companyId));
      expect(payment.client.company_id).toBe(b.companyId);
      expectNothingOfA(JSON.stringify(payment));
    }
    const aHistory = await fullHistory(a.key, { period: 'month' });
    expect(aHistory.payments.every((p) => p.company_id === String(a.companyId))).toBe(true);
    expect(aHistory.payments).toHaveLength(3);
  });

  it('every route that names an invoice answers another account’s like an unknown one (404), and changes nothing', async () => {
    const header = await invoiceHeader(aInvoice.reference_code);
    const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
    for (const route of ['get-invoice', 'delete-invoice', 'get-payment'] as const) {
      const foreign = await call(route, { key: b.key, ...byCode(aInvoice.reference_code) });
      const unknown = await call(route, { key: b.key, ...byCode('ZZZZZZZZZZZZZZZZZZZZ') });
      expectErrorEnvelope(foreign, 404);
      expect(foreign.body.code, route).toBe('invoice_not_found');
      expect({ ...foreign.body, request_id: null }).toEqual({ ...unknown.body, request_id: null });
      expectNothingOfA(foreign.rawBody);
    }
    expect(await invoiceHeader(aInvoice.reference_code)).toEqual(header);
  });

  it('payment ids are per account: reversing the first account’s payment id from an account without it is 404, and changes nothing', async () => {
    const fresh = await newAccount({ name: 'Tenant R' });
    const header = await invoiceHeader(aInvoice.reference_code);
    const reversal = (id: string) =>
      call('reverse-payment', { key: fresh.key, pathParameters: { id }, body: { reason: 'not mine' } });
    const foreign = await reversal(String(aPayment.id));
    const unknown = await reversal('999999');
    expectErrorEnvelope(foreign, 404);
    expect(foreign.body.code).toBe('payment_not_found');
    expect({ ...foreign.body, request_id: null }).toEqual({ ...unknown.body, request_id: null });
    expectNothingOfA(foreign.rawBody);
    expect(await invoiceHeader(aInvoice.reference_code)).toEqual(header);
    const history = await fullHistory(a.key, { period: 'month' });
    expect(history.payments.every((p) => p.status === 'success')).toBe(true);
  });

  it('invoice history and the client list of the second account show none of the first; their cursors do not cross', async () => {
    const invoices = await call('invoice-history', { key: b.key, body: { period: 'month' } });
    expect(invoices.status).toBe(200);
    // B has its own invoice with merchant_ref A-REF-1 (an earlier test): only A's own data must be absent.
    for (const marker of ['Secret Client Ltd', 'Confidential item', aInvoice.reference_code, aEmail])
      expect(invoices.rawBody).not.toContain(marker);
    for (const invoice of invoices.body.data.invoices) expect(invoice.company_id).toBe(String(b.companyId));
    const clients = await call('list-clients', { key: b.key });
    expectNothingOfA(clients.rawBody);
    for (const client of clients.body.data.clients) expect(client.company_id).toBe(b.companyId);
    await createInvoice(a.key);
    const aInvoices = await call('invoice-history', { key: a.key, body: { period: 'month', limit: 1 } });
    const stolen = await call('invoice-history', {
      key: b.key,
      body: { period: 'month', cursor: aInvoices.body.data.next_cursor },
    });
    expect(stolen.body.code).toBe('invalid_cursor');
  });

  it('client ids are per account: the second account reading, changing or deleting the first’s client id reaches only its own (or 404)', async () => {
    const fresh = await newAccount({ name: 'Tenant D' });
    const id = String(aInvoice.client_id);
    for (const [route, extra] of [
      ['get-client', {}],
      ['update-client', { body: { first_name: 'Mallory' } }],
      ['delete-client', {}],
    ] as const) {
      const result = await call(route, { key: fresh.key, pathParameters: { id }, ...extra });
      expectErrorEnvelope(result, 404);
      expect(result.body.code, route).toBe('client_not_found');
      expectNothingOfA(result.rawBody);
    }
    const stillThere = await call('get-client', { key: a.key, pathParameters: { id } });
    expect(stillThere.body.data).toMatchObject({ first_name: 'Ada', deleted_at: null });
  });
});
