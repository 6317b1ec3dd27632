/** Payment dates and add payment (docs/api.md "Dates and time", "Add payment"). */
import { describe, expect, it } from 'vitest';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

const pay = (key: string, reference_code: string, amount: unknown, extra: Record<string, unknown> = {}) =>
  call('add-payment', {
    key,
    body: { reference_code, date: todayMonthFirst(), amount, channel: 'BankTransfer', ...extra },
  });

const oneItem = (unit_cost: string) => ({
  items: [{ item: 'Service', description: 'Monthly', unit_cost, quantity: '1' }],
});

describe('add payment', () => {
  it('returns the Payment shape with client and the updated invoice', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key, oneItem('50,000.00'));
    const result = await pay(key, invoice.reference_code, '20,000.00', { date: '12/21/2016' });
    expect(result.status).toBe(201);
    const data = result.body.data;
    expect(data).toMatchObject({
      company_id: String(account.companyId),
      client_id: invoice.client_id,
      invoice_id: String(invoice.id),
      expense_id: '',
      amount: '20000.00',
      currency: 'NGN',
      transaction_date: '1482278400',
      status: 'success',
      reference_code: invoice.reference_code,
      payment_id: '',
      referrer: '',
      gateway_response: '',
      message: '',
      channel: 'BankTransfer',
      type: 'Invoice',
    });
    expect(Number.isInteger(data.id)).toBe(true);
    expect(data.client).toEqual(invoice.client);
    expect(data.invoice).toMatchObject({
      reference_code: invoice.reference_code,
      status: '0',
      amount_paid: '20000.00',
      amount_due: '30000.00',
      payment_status: 'partially_paid',
      paid_at: null,
    });
    expect(data.invoice.items).toEqual(invoice.items);
    expect(data.invoice).not.toHaveProperty('client');
  });

  it('accumulates partial payments, marks the invoice paid, then refuses further payments', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, oneItem('100.00'));
    expect((await pay(key, invoice.reference_code, 30)).body.data.invoice.amount_due).toBe('70.00');
    const second = await pay(key, invoice.reference_code, '30.00');
    expect(second.status).toBe(201); // same amount twice: two instalments
    const last = await pay(key, invoice.reference_code, '40');
    expect(last.body.data.invoice).toMatchObject({
      amount_paid: '100.00',
      amount_due: '0.00',
      payment_status: 'paid',
      paid_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    const again = await pay(key, invoice.reference_code, '0.01');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invoice_already_paid');
  });

  it('refuses an overpayment with 409 amount_exceeds_balance carrying amount_due', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, oneItem('100.00'));
    await pay(key, invoice.reference_code, '60');
    const result = await pay(key, invoice.reference_code, '40.01');
    expect(result.status).toBe(409);
    expect(result.body.code).toBe('amount_exceeds_balance');
    expect(result.body.errors[0]).toMatchObject({ amount_due: '40.00', field: 'amount' });
    const history = await call('payment-history', { key, body: { period: 'today' } });
    expect(history.body.data.payments).toHaveLength(1);
  });

  it('answers 404 invoice_not_found for unknown and foreign reference codes alike', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const invoice = await createInvoice(owner.key);
    const foreign = await pay(other.key, invoice.reference_code, '1');
    const unknown = await pay(other.key, 'ZZZZZZZZZZZZZZZZZZZZ', '1');
    for (const result of [foreign, unknown]) {
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject({ code: 'invoice_not_found', message: 'Invoice not found' });
    }
    expect({ ...foreign.body, request_id: null }).toEqual({ ...unknown.body, request_id: null });
    const owned = await call('payment-history', { key: owner.key, body: { period: 'today' } });
    expect(owned.body.data.payments).toHaveLength(0);
  });

  it('accepts exactly the four channels', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, oneItem('100.00'));
    for (const channel of ['Cash', 'BankTransfer', 'POS', 'Cheque'])
      expect((await pay(key, invoice.reference_code, '1', { channel })).status).toBe(201);
    for (const channel of ['Card', 'cash', 'pos', '', 1]) {
      const result = await pay(key, invoice.reference_code, '1', { channel });
      expect(result.status, String(channel)).toBe(400);
      expect(result.body.errors[0].field).toBe('channel');
    }
  });

  it('requires an amount above zero in the accepted formats', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, oneItem('100000.00'));
    for (const amount of ['0', 0, '0.00', '-5', '10.005', 'abc', '1e2', true, null]) {
      const result = await pay(key, invoice.reference_code, amount);
      expect(result.status, String(amount)).toBe(400);
      expect(result.body.errors[0]).toMatchObject({
        field: 'amount',
        code: amount === null ? 'required' : 'invalid_amount',
      });
    }
    for (const amount of ['0', '-5', -5])
      expect((await pay(key, invoice.reference_code, amount)).body.errors[0].message, String(amount)).toMatch(
        /must be greater than zero/,
      );
    expect((await pay(key, invoice.reference_code, '50,000.00')).body.data.amount).toBe('50000.00');
    expect((await pay(key, invoice.reference_code, 1500.5)).body.data.amount).toBe('1500.50');
  });

  it('rejects payment dates after today (account time zone), accepts past dates before the invoice existed', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, oneItem('100.00'));
    const tomorrow = new Date(Date.now() + 2 * 86_400_000);
    const future = `${tomorrow.getUTCMonth() + 1}/${tomorrow.getUTCDate()}/${tomorrow.getUTCFullYear()}`;
    const result = await pay(key, invoice.reference_code, '1', { date: future });
    expect(result.status).toBe(400);
    expect(result.body.errors[0]).toMatchObject({ code: 'invalid_date', field: 'date' });
    expect((await pay(key, invoice.reference_code, '1', { date: '1/2/1999' })).body.data.transaction_date).toBe(
      String(Date.UTC(1999, 0, 2) / 1000),
    );
    expect((await pay(key, invoice.reference_code, '1', { date: '02/30/2020' })).status).toBe(400);
  });

  it('uses the account currency', async () => {
    const { key } = await newAccount({ currency: 'USD' });
    const invoice = await createInvoice(key, oneItem('10.00'));
    expect(invoice.currency).toBe('USD');
    expect((await pay(key, invoice.reference_code, '1')).body.data.currency).toBe('USD');
  });
});
