/**
 * Paying an invoice on its hosted page (docs/getting-paid-online.md "The pay button", "The return", "Receipts"),
 * through the invoice function's routes against DynamoDB Local and the local Paystack server started here: the
 * button and its CSP, the initialize request, the checkout and the return's receipt, and every way the button or the
 * return comes back to the page instead.
 */
import { describe, expect, it } from 'vitest';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import {
  connectedAccount,
  invoiceToPay,
  page,
  payInvoice,
  pressPay,
  returnFrom,
  tokenOf,
  usePaystack,
} from '../support/online-payments.ts';
import { pdfText } from '../support/pdf-text.ts';

const fixture = usePaystack();

describe('the pay button', () => {
  it('an open invoice of a connected account shows "Pay ₦<checkout amount>", a form whose CSP allows only it', async () => {
    const { key } = await connectedAccount(fixture);
    const { token } = await invoiceToPay(key);
    const result = await page(token);
    expect(result.status).toBe(200);
    // ₦1,000.00 due, the client bears Paystack's fee: ₦1,015.23 (docs/decisions.md "The fee and what a payment credits").
    expect(result.rawBody).toContain(`<form class="pay-online" method="post" action="/i/${token}/pay">`);
    expect(result.rawBody).toContain('<button type="submit">Pay ₦1,015.23</button>');
    expect(result.rawBody).not.toMatch(/<script/i);
    const csp = result.headers['content-security-policy']!;
    expect(csp).toContain(`form-action 'self' ${fixture.url}`);
    expect(csp.split('; ').filter((part) => !part.startsWith('form-action'))).not.toContain(fixture.url);
  });

  it("the account bearing the fee: the button asks the amount due; an unconnected account's page has no form", async () => {
    const { key } = await connectedAccount(fixture);
    const { token } = await invoiceToPay(key, { fee_bearer: 'account' });
    expect((await page(token)).rawBody).toContain('Pay ₦1,000.00');
    const unconnected = await newAccount();
    const other = await invoiceToPay(unconnected.key);
    const plain = await page(other.token);
    expect(plain.rawBody).not.toContain('<form');
    expect(plain.headers['content-security-policy']).toContain("form-action 'none'");
  });

  it('POST /i/{token}/pay: a new attempt, initialize with the client, kobo, NGN, reference, callback, metadata; 303', async () => {
    const { key, paystack, account } = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(key);
    const first = await pressPay(token);
    const second = await pressPay(token);
    for (const pressed of [first, second]) {
      expect(pressed.status).toBe(303);
      expect(pressed.headers.location).toMatch(new RegExp(`^${fixture.url}/checkout/`));
    }
    const transactions = (await paystack.get('/_local/transactions')).body.data;
    expect(transactions).toHaveLength(2);
    const [one, two] = transactions;
    expect(one.reference).not.toBe(two.reference);
    expect(one.reference).toMatch(new RegExp(`^${invoice.reference_code}-[0-9A-Z]{26}$`));
    expect([one.amount, one.currency, one.customer.email]).toEqual([101_523, 'NGN', invoice.client.email]);
    expect(one.metadata).toEqual({ reference_code: invoice.reference_code, company_id: account.companyId });
    const checkout = await fetch(first.headers.location!);
    expect(await checkout.text()).toContain('Pay NGN 1,015.23');
  });

  it('paid, voided or unconnected: the page again with a sentence why, never a 5xx', async () => {
    const { key } = await connectedAccount(fixture);
    const paid = await invoiceToPay(key);
    await call('add-payment', {
      key,
      body: { reference_code: paid.invoice.reference_code, date: todayMonthFirst(), amount: '1000', channel: 'Cash' },
    });
    const afterPaid = await pressPay(paid.token);
    expect([afterPaid.status, afterPaid.rawBody.includes('already paid')]).toEqual([200, true]);
    expect(afterPaid.rawBody).not.toContain('<form');
    const voided = await invoiceToPay(key);
    await call('delete-invoice', { key, pathParameters: { reference_code: voided.invoice.reference_code } });
    const afterVoid = await pressPay(voided.token);
    expect([afterVoid.status, afterVoid.rawBody.includes('was voided')]).toEqual([410, true]);
    const unconnected = await newAccount();
    const other = await invoiceToPay(unconnected.key);
    const refused = await pressPay(other.token);
    expect([refused.status, refused.rawBody.includes('cannot be paid online')]).toEqual([200, true]);
  });

  it('Paystack down (503) or silent (> 5 s): "online payment is unavailable", the button still there', async () => {
    const { key, paystack } = await connectedAccount(fixture);
    const { token } = await invoiceToPay(key);
    await paystack.post('/_local/api-mode', { mode: 'unavailable', count: 1 });
    const down = await pressPay(token);
    expect(down.status).toBe(200);
    expect(down.rawBody).toContain(
      'Online payment is unavailable right now. Try again, or pay by the instructions below.',
    );
    expect(down.rawBody).toContain('Pay ₦1,015.23');
    await paystack.post('/_local/api-mode', { mode: 'hang', count: 1 });
    const slow = await pressPay(token);
    expect([slow.status, slow.rawBody.includes('Online payment is unavailable')]).toEqual([200, true]);
  });

  it('an unknown token is the 404 page', async () => {
    const result = await pressPay('AAAAAAAAAAAAAAAAAAAAAAAA');
    expect([result.status, result.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
  });
});

describe('the return', () => {
  it('pays with the success card and lands on "Payment received": the payment recorded from verify', async () => {
    const { key, secretKey } = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(key);
    const { reference, callback } = await payInvoice(fixture, secretKey, token);
    expect(callback).toBe(`${invoice.hosted_url}/paid?trxref=${reference}&reference=${reference}`);
    const result = await returnFrom(token, reference);
    expect(result.status).toBe(200);
    expect(result.rawBody).toContain('Payment received');
    expect(result.rawBody).toMatch(/<dt>Amount<\/dt><dd>₦1,015\.23<\/dd>/);
    expect(result.rawBody).toMatch(/<dt>Channel<\/dt><dd>Card<\/dd>/);
    expect(result.rawBody).toMatch(/<dt>Still due<\/dt><dd>₦0\.00<\/dd>/);
    expect(result.rawBody).toContain('PAID on');
    expect(result.rawBody).not.toContain('<form');
    const latest = await call('get-payment', { key, pathParameters: { reference_code: invoice.reference_code } });
    const payment = latest.body.data;
    expect(payment).toMatchObject({
      amount: '1000.00',
      amount_charged: '1015.23',
      fees: '15.23',
      channel: 'Card',
      referrer: reference,
      status: 'success',
      invoice: { payment_status: 'paid', amount_due: '0.00' },
    });
    expect(payment.payment_id).toMatch(/^\d+$/);
    expect(payment.gateway_response).not.toBe('');
    // The return again, or reloaded: the same receipt, still one payment.
    expect((await returnFrom(token, reference)).rawBody).toContain('Payment received');
    expect(latest.body.data.invoice.payments_count).toBe(1);
  });

  it('abandoned: "not completed", nothing recorded, the button again; another invoice\'s reference names nothing', async () => {
    const { key, secretKey } = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(key);
    const { reference } = await payInvoice(fixture, secretKey, token, 'abandon');
    const result = await returnFrom(token, reference);
    expect(result.rawBody).toContain('The payment was not completed');
    expect(result.rawBody).toContain('Pay ₦1,015.23');
    const other = await invoiceToPay(key);
    expect((await returnFrom(other.token, reference)).rawBody).toContain('does not name a payment of this invoice');
    const read = await call('get-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(read.body.data.amount_paid).toBe('0.00');
  });

  it('"being confirmed" while Paystack cannot be reached; recorded on the next return', async () => {
    const { key, secretKey, paystack } = await connectedAccount(fixture);
    const { token } = await invoiceToPay(key);
    const { reference } = await payInvoice(fixture, secretKey, token);
    await paystack.post('/_local/api-mode', { mode: 'unavailable', count: 1 });
    expect((await returnFrom(token, reference)).rawBody).toContain('Payment being confirmed');
    expect((await returnFrom(token, reference)).rawBody).toContain('Payment received');
  });

  it('receipts: the page and both PDFs list each payment, a reversed one struck through; PAID drops "how to pay"', async () => {
    const { key, secretKey } = await connectedAccount(fixture);
    const invoice = await createInvoice(key, {
      items: [{ item: 'Audit', description: 'Annual', unit_cost: '3000.00', quantity: '1' }],
      fee_bearer: 'account',
    });
    const token = tokenOf(invoice.hosted_url);
    const cash = await call('add-payment', {
      key,
      body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '500', channel: 'Cash' },
    });
    await call('add-payment', {
      key,
      body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '500', channel: 'POS' },
    });
    await call('reverse-payment', {
      key,
      pathParameters: { id: String(cash.body.data.id) },
      body: { reason: 'Twice' },
    });
    const { reference } = await payInvoice(fixture, secretKey, token);
    await returnFrom(token, reference);
    const html = (await page(token)).rawBody;
    expect(html).toMatch(/<li class="receipt reversed"><del>.*Cash.*₦500\.00.*<\/del>/);
    expect(html).toMatch(/<li class="receipt">.*POS.*₦500\.00/);
    expect(html).toMatch(/<li class="receipt">.*Card.*₦2,500\.00/);
    expect(html).not.toContain('How to pay');
    for (const pdf of [
      await call('hosted-invoice-pdf', { pathParameters: { token } }),
      await call('invoice-pdf', { key, pathParameters: { reference_code: invoice.reference_code } }),
    ]) {
      const text = pdfText(Buffer.from(pdf.rawBody, 'base64'));
      expect(text).toMatch(/PAID on \d{1,2} \w{3} \d{4}/);
      expect(text).toMatch(/Cash \(reversed\)\s+₦500\.00/);
      expect(text).toMatch(/Card\s+₦2,500\.00/);
      expect(text).not.toContain('HOW TO PAY');
    }
  });
});
