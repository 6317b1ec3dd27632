import { describe, expect, it } from 'vitest';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

describe('smoke', () => {
  it('creates an invoice, pays it, lists it', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const pay = await call('add-payment', {
      key,
      body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '50,000.00', channel: 'Cash' },
    });

    expect(pay.status).toBe(201);
    const history = await call('payment-history', { key, body: { period: 'today' } });

    expect(history.status).toBe(200);
    expect(history.body.data.payments).toHaveLength(1);
  });
});
