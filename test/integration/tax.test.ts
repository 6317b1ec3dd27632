/**
 * VAT and withholding tax through the API (docs/tax.md): the split of exclusive, inclusive, zero-rated, exempt and
 * discounted lines, totals unchanged with VAT off, the rate an invoice keeps, and withholding tax settling an invoice,
 * in the payment, the summary and the statement.
 */
import { describe, expect, it } from 'vitest';
import { clearAuthCache } from '../../shared/http/auth.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { accountWith, serviceLine } from '../support/accounts.ts';
import { call, createInvoice, invoiceBody, newAccount, todayMonthFirst } from '../support/api.ts';

const pay = (key: string, reference_code: string, amount: string, extra: Record<string, unknown> = {}) =>
  call('add-payment', {
    key,
    body: { reference_code, date: todayMonthFirst(), amount, channel: 'BankTransfer', ...extra },
  });

describe('VAT on add invoice', () => {
  it('off (the default): the total is Σ quantity × unit cost, no tax, and a discount still reduces its line', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [serviceLine('100.00'), { ...serviceLine('50.00', { discount: '5.00' }), quantity: '2' }],
    });
    expect(invoice).toMatchObject({
      vat_mode: 'off',
      subtotal: '200.00',
      discount_total: '5.00',
      tax_total: '0.00',
      taxes: [],
      total: '195.00',
      amount_due: '195.00',
    });
    expect(invoice.items[1]).toMatchObject({ discount: '5.00', tax: 'standard', net: '95.00' });
  });

  it('exclusive: VAT per rate on the sum of the nets, rounded once (not per line); zero-rated and exempt listed', async () => {
    const { key } = await accountWith({ vatMode: 'exclusive', vatRateUnits: 75_000 });
    const invoice = await createInvoice(key, {
      items: [
        serviceLine('0.10'),
        serviceLine('0.10'),
        serviceLine('0.10'),
        serviceLine('100.00', { tax: 'zero' }),
        serviceLine('60.00', { tax: 'exempt', discount: '10.00' }),
      ],
    });
    // Rounded per line, 3 × 0.0075 would be 0.03; 7.5 % of 0.30 is 0.0225 → 0.02.
    expect(invoice).toMatchObject({
      vat_mode: 'exclusive',
      subtotal: '160.30',
      discount_total: '10.00',
      tax_total: '0.02',
      total: '150.32',
      taxes: [
        { name: 'VAT', category: 'standard', rate: '7.5', taxable: '0.30', amount: '0.02' },
        { name: 'VAT', category: 'zero', rate: '0', taxable: '100.00', amount: '0.00' },
        { name: 'VAT', category: 'exempt', rate: '0', taxable: '50.00', amount: '0.00' },
      ],
    });
    expect(invoice.items.map((item: { tax: string; net: string }) => [item.tax, item.net])).toEqual([
      ['standard', '0.10'],
      ['standard', '0.10'],
      ['standard', '0.10'],
      ['zero', '100.00'],
      ['exempt', '50.00'],
    ]);
  });

  it('inclusive: VAT taken out of the gross, the total unchanged', async () => {
    const { key } = await accountWith({ vatMode: 'inclusive', vatRateUnits: 75_000 });
    const invoice = await createInvoice(key, { items: [serviceLine('107.50')] });
    expect(invoice).toMatchObject({
      vat_mode: 'inclusive',
      subtotal: '100.00',
      tax_total: '7.50',
      total: '107.50',
      taxes: [{ category: 'standard', rate: '7.5', taxable: '100.00', amount: '7.50' }],
    });
    expect(invoice.items[0]).toMatchObject({ net: '100.00' });
  });

  it('keeps the rate of its creation: a later change applies to later invoices only', async () => {
    const { key, account } = await accountWith({ vatMode: 'exclusive', vatRateUnits: 75_000 });
    const before = await createInvoice(key, { items: [serviceLine('1000.00')] });
    await updateAccount(account.companyId, { vatRateUnits: 100_000 });
    clearAuthCache();
    const after = await createInvoice(key, { items: [serviceLine('1000.00')] });
    const reread = await call('get-invoice', { key, pathParameters: { reference_code: before.reference_code } });
    expect(reread.body.data).toMatchObject({ total: '1075.00', tax_total: '75.00' });
    expect(after).toMatchObject({ total: '1100.00', taxes: [{ rate: '10', amount: '100.00' }] });
  });

  it('refuses a discount above its line and an unknown category (400), writing nothing', async () => {
    const { key } = await newAccount();
    const discount = await call('add-invoice', {
      key,
      body: invoiceBody({ items: [serviceLine('10.00', { discount: '10.01' })] }),
    });
    const category = await call('add-invoice', {
      key,
      body: invoiceBody({ items: [serviceLine('10.00', { tax: 'reduced' })] }),
    });
    expect(discount.status).toBe(400);
    expect(discount.body.errors[0]).toMatchObject({ field: 'items.0.discount', code: 'invalid_amount' });
    expect(category.status).toBe(400);
    expect(category.body.errors[0]).toMatchObject({ field: 'items.0.tax' });
    expect((await createInvoice(key)).number).toBe('INV-000001');
  });

  it('shows the split on the hosted page', async () => {
    const { key } = await accountWith({ vatMode: 'exclusive', vatRateUnits: 75_000 });
    const invoice = await createInvoice(key, { items: [serviceLine('1000.00', { discount: '100.00' })] });
    const token = new URL(invoice.hosted_url).pathname.split('/')[2]!;
    const page = await call('hosted-invoice-page', { pathParameters: { token } });
    for (const text of ['Subtotal', '₦1,000.00', 'Discount', 'VAT 7.5% on ₦900.00', '₦67.50', '₦967.50'])
      expect(page.rawBody).toContain(text);
  });
});

describe('withholding tax on add payment', () => {
  it('credits the invoice the amount and the tax withheld; the payment, summary and statement show it', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, { items: [serviceLine('1000.00')] });
    const paid = await pay(key, invoice.reference_code, '950.00', { wht_amount: '50.00', wht_reference: 'WHT/2026/7' });
    expect(paid.status).toBe(201);
    expect(paid.body.data).toMatchObject({ amount: '950.00', wht_amount: '50.00', wht_reference: 'WHT/2026/7' });
    expect(paid.body.data.invoice).toMatchObject({
      amount_paid: '1000.00',
      amount_due: '0.00',
      payment_status: 'paid',
    });
    const history = await call('payment-history', { key, body: { period: 'today' } });
    expect(history.body.data.summary).toMatchObject({ total: '950.00', wht_total: '50.00' });
    const statement = await call('client-statement', {
      key,
      pathParameters: { id: invoice.client_id },
      body: { period: 'today' },
    });
    const lines = statement.body.data.lines.map((l: { type: string; credit: string }) => [l.type, l.credit]);
    expect(lines).toEqual([
      ['invoice', '0.00'],
      ['payment', '950.00'],
      ['wht', '50.00'],
    ]);
    expect(statement.body.data.closing_balance).toBe('0.00');
  });

  it('refuses more than is due (409) and a reference without tax withheld (400); a reversal restores both', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, { items: [serviceLine('1000.00')] });
    const over = await pay(key, invoice.reference_code, '960.00', { wht_amount: '50.00' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('amount_exceeds_balance');
    const lonely = await pay(key, invoice.reference_code, '100.00', { wht_reference: 'WHT-1' });
    expect(lonely.status).toBe(400);
    expect(lonely.body.errors[0]).toMatchObject({ field: 'wht_reference' });
    const paid = await pay(key, invoice.reference_code, '900.00', { wht_amount: '100.00' });
    const reversed = await call('reverse-payment', {
      key,
      pathParameters: { id: String(paid.body.data.id) },
      body: { reason: 'Bounced transfer' },
    });
    expect(reversed.status).toBe(200);
    const read = await call('get-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(read.body.data).toMatchObject({ amount_paid: '0.00', amount_due: '1000.00', payment_status: 'unpaid' });
    const history = await call('payment-history', { key, body: { period: 'today' } });
    expect(history.body.data.summary).toMatchObject({ total: '0.00', wht_total: '0.00' });
  });
});
