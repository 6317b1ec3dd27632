/** docs/api.md "Invoices: read, list, delete": get, delete (void) and "send" an invoice, and the invoice's latest payment. */
import { describe, expect, it } from 'vitest';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
const pay = (key: string, reference_code: string, amount = '10.00') =>
  call('add-payment', { key, body: { reference_code, date: todayMonthFirst(), amount, channel: 'Cash' } });

describe('GET /invoices/{reference_code}', () => {
  it('answers 200 with the invoice in its current state, the same shape add invoice answers', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    expect((await pay(key, invoice.reference_code, '100.00')).status).toBe(201);
    const result = await call('get-invoice', { key, ...byCode(invoice.reference_code) });
    expect(result.status).toBe(200);
    expect(result.body.status).toBe('success');
    expect(result.body.data).toEqual({
      ...invoice,
      amount_paid: '100.00',
      amount_due: (Number(invoice.total) - 100).toFixed(2),
      payment_status: 'partially_paid',
      updated_at: expect.any(String),
    });
  });

  it('answers 404 invoice_not_found for an unknown code, a malformed one, and another account’s invoice', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const theirs = await createInvoice(other.key);
    for (const code of ['NoSuchInvoice0000000', 'bad code!', theirs.reference_code]) {
      const result = await call('get-invoice', { key, ...byCode(code) });
      expect(result.status, code).toBe(404);
      expect(result.body.code).toBe('invoice_not_found');
    }
  });
});

describe('DELETE /invoices/{reference_code}', () => {
  it('voids an unpaid invoice: 200 with deleted_at on it and its items; repeating answers the same 200', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const first = await call('delete-invoice', { key, ...byCode(invoice.reference_code) });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Invoice deleted successfully.');
    const deletedAt = first.body.data.deleted_at;
    expect(deletedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(first.body.data.items.every((item: { deleted_at: string }) => item.deleted_at === deletedAt)).toBe(true);
    const again = await call('delete-invoice', { key, ...byCode(invoice.reference_code) });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const read = await call('get-invoice', { key, ...byCode(invoice.reference_code) });
    expect(read.body.data.deleted_at).toBe(deletedAt);
  });

  it('refuses an invoice with a payment (409 invoice_has_payments) and a payment on a voided one (409 invoice_deleted)', async () => {
    const { key } = await newAccount();
    const paid = await createInvoice(key);
    expect((await pay(key, paid.reference_code)).status).toBe(201);
    const refused = await call('delete-invoice', { key, ...byCode(paid.reference_code) });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invoice_has_payments');

    const voided = await createInvoice(key);
    expect((await call('delete-invoice', { key, ...byCode(voided.reference_code) })).status).toBe(200);
    const payment = await pay(key, voided.reference_code);
    expect(payment.status).toBe(409);
    expect(payment.body.code).toBe('invoice_deleted');
  });

  it('keeps the merchant_ref of a voided invoice taken', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, { merchant_ref: 'ORDER-77' });
    expect((await call('delete-invoice', { key, ...byCode(invoice.reference_code) })).status).toBe(200);
    const again = await call('add-invoice', { key, body: { ...invoiceBodyLike(invoice), merchant_ref: 'ORDER-77' } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('duplicate_merchant_ref');
  });

  it('answers 404 for another account’s invoice and leaves it untouched', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const theirs = await createInvoice(other.key);
    const result = await call('delete-invoice', { key, ...byCode(theirs.reference_code) });
    expect(result.status).toBe(404);
    expect(result.body.code).toBe('invoice_not_found');
    const read = await call('get-invoice', { key: other.key, ...byCode(theirs.reference_code) });
    expect(read.body.data.deleted_at).toBeNull();
  });

  it('races a payment: exactly one of a concurrent DELETE and POST /payments wins, never both', async () => {
    const { key } = await newAccount();
    for (let round = 0; round < 6; round++) {
      const invoice = await createInvoice(key);
      const [deleted, paid] = await Promise.all([
        call('delete-invoice', { key, ...byCode(invoice.reference_code) }),
        pay(key, invoice.reference_code),
      ]);
      const outcomes = [deleted.status, paid.status].sort();
      expect([
        [200, 409],
        [201, 409],
      ]).toContainEqual(outcomes);
      const state = (await call('get-invoice', { key, ...byCode(invoice.reference_code) })).body.data;
      if (deleted.status === 200) {
        expect(paid.body.code).toBe('invoice_deleted');
        expect(state).toMatchObject({ amount_paid: '0.00', deleted_at: expect.any(String) });
      } else {
        expect(deleted.body.code).toBe('invoice_has_payments');
        expect(state).toMatchObject({ amount_paid: '10.00', deleted_at: null });
      }
    }
  });
});

describe('GET /payments/{reference_code}', () => {
  it('answers the most recent payment with its client and invoice, and invoice.payments_count', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    expect((await pay(key, invoice.reference_code, '1.00')).status).toBe(201);
    const latest = await pay(key, invoice.reference_code, '2.00');
    const result = await call('get-payment', { key, ...byCode(invoice.reference_code) });
    expect(result.status).toBe(200);
    const { payments_count, ...invoiceNow } = result.body.data.invoice;
    expect(payments_count).toBe(2);
    expect({ ...result.body.data, invoice: invoiceNow }).toEqual(latest.body.data);
  });

  it('answers 404 payment_not_found when none yet, invoice_not_found for unknown or another account’s', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const invoice = await createInvoice(key);
    const none = await call('get-payment', { key, ...byCode(invoice.reference_code) });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('payment_not_found');
    const theirs = await createInvoice(other.key);
    expect((await pay(other.key, theirs.reference_code)).status).toBe(201);
    for (const code of [theirs.reference_code, 'NoSuchInvoice0000000']) {
      const result = await call('get-payment', { key, ...byCode(code) });
      expect(result.status).toBe(404);
      expect(result.body.code).toBe('invoice_not_found');
    }
  });
});

function invoiceBodyLike(invoice: Record<string, any>) {
  return {
    client_id: invoice.client_id,
    due_date: '12/30/2030',
    fee_bearer: 'client',
    items: [{ item: 'Again', description: 'Same ref', unit_cost: '1.00', quantity: '1' }],
  };
}
