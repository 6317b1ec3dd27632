/**
 * The local Paystack server's money paths in Paystack's shapes (docs/paystack-local.md "API", "Control endpoints"):
 * charge_authorization (success, a forced decline, the declining card), refunds (pending then processed, partial,
 * whole), customers, dedicated accounts, and a transfer into one.
 */
import { describe, expect, it } from 'vitest';
import { paystackFee } from '../../infra/local/paystack/fees.ts';
import { type PaystackClient, payAtCheckout, useTestPaystack } from '../support/local-paystack.ts';
import { until } from '../support/until.ts';

const testPaystack = useTestPaystack();
const client = testPaystack.client;

const CHARGE_FIELDS = [
  'amount',
  'currency',
  'transaction_date',
  'status',
  'reference',
  'domain',
  'metadata',
  'gateway_response',
  'message',
  'channel',
  'ip_address',
  'log',
  'fees',
  'authorization',
  'customer',
  'plan',
  'id',
];

/** A customer who paid with the success card once: its authorization code. */
async function savedCard(c: PaystackClient, email = 'card@example.com'): Promise<string> {
  const { reference } = await payAtCheckout(c, 'success_card', { email });
  return (await c.get(`/transaction/verify/${reference}`)).body.data.authorization.authorization_code;
}

describe('POST /transaction/charge_authorization', () => {
  it('charges a reusable authorization: "Charge attempted", success, Approved, the fee', async () => {
    const c = client();
    const code = await savedCard(c);
    const answer = await c.post('/transaction/charge_authorization', {
      authorization_code: code,
      email: 'card@example.com',
      amount: '760000',
      reference: 'auto-1',
      metadata: JSON.stringify({ invoice: 'INV-9' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: true, message: 'Charge attempted' });
    expect(Object.keys(answer.body.data)).toEqual(CHARGE_FIELDS);
    expect(answer.body.data).toMatchObject({
      status: 'success',
      gateway_response: 'Approved',
      reference: 'auto-1',
      amount: 760_000,
      fees: paystackFee(760_000),
      metadata: { invoice: 'INV-9' },
      authorization: { authorization_code: code, reusable: true, last4: '4081' },
    });
    expect((await c.get('/transaction/verify/auto-1')).body.data.status).toBe('success');
  });

  it('declines the next N charges of an authorization when told to, then charges again', async () => {
    const c = client();
    const code = await savedCard(c);
    expect((await c.post(`/_local/authorizations/${code}/decline`, { count: 2 })).status).toBe(200);
    const charge = () =>
      c.post('/transaction/charge_authorization', {
        authorization_code: code,
        email: 'card@example.com',
        amount: 10_000,
      });
    for (let i = 0; i < 2; i++) {
      const declined = await charge();
      expect(declined.status).toBe(200);
      expect(declined.body.status).toBe(true);
      expect(declined.body.data).toMatchObject({ status: 'failed', gateway_response: 'Declined', fees: null });
    }
    expect((await charge()).body.data.status).toBe('success');
  });

  it("declines the declining card's authorization", async () => {
    const c = client();
    const { reference } = await payAtCheckout(c, 'declining_card', { email: 'broke@example.com' });
    const code = (await c.get(`/transaction/verify/${reference}`)).body.data.authorization.authorization_code;
    const answer = await c.post('/transaction/charge_authorization', {
      authorization_code: code,
      email: 'broke@example.com',
      amount: 10_000,
    });
    expect(answer.body.data).toMatchObject({ status: 'failed', gateway_response: 'Declined' });
  });

  it('refuses an unknown authorization, another email, a used reference (400)', async () => {
    const c = client();
    const code = await savedCard(c);
    const base = { authorization_code: code, email: 'card@example.com', amount: 10_000 };
    const unknown = await c.post('/transaction/charge_authorization', { ...base, authorization_code: 'AUTH_nope' });
    expect(unknown.body).toMatchObject({ status: false, message: 'Invalid Authorization Code' });
    const otherEmail = await c.post('/transaction/charge_authorization', { ...base, email: 'else@example.com' });
    expect(otherEmail.status).toBe(400);
    expect(otherEmail.body.message).toMatch(/^Email does not match Authorization code/);
    await c.post('/transaction/charge_authorization', { ...base, reference: 'once' });
    const again = await c.post('/transaction/charge_authorization', { ...base, reference: 'once' });
    expect(again.body.message).toBe('Duplicate Transaction Reference');
    // Another integration does not know the authorization.
    expect((await client().post('/transaction/charge_authorization', base)).body.message).toBe(
      'Invalid Authorization Code',
    );
  });

  it('gives the same card of the same customer the same authorization', async () => {
    const c = client();
    expect(await savedCard(c)).toBe(await savedCard(c));
  });
});

describe('refunds', () => {
  it('POST /refund queues the whole amount (pending); it is processed soon, and the transaction reversed', async () => {
    const c = client();
    const { reference } = await payAtCheckout(c, 'success_card', { amount: 300_000 });
    const created = await c.post('/refund', { transaction: reference, merchant_note: 'overpaid' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: true, message: 'Refund has been queued for processing' });
    expect(created.body.data).toMatchObject({
      status: 'pending',
      amount: 300_000,
      currency: 'NGN',
      merchant_note: 'overpaid',
      deducted_amount: 0,
      fully_deducted: false,
      transaction: { reference, amount: 300_000 },
    });
    expect(Number.isInteger(created.body.data.id)).toBe(true);
    await until(
      'processed',
      async () => (await c.get(`/refund/${created.body.data.id}`)).body.data.status === 'processed',
    );
    const fetched = (await c.get(`/refund/${created.body.data.id}`)).body;
    expect(fetched).toMatchObject({ status: true, message: 'Refund retrieved' });
    expect(fetched.data).toMatchObject({ transaction_reference: reference, amount: 300_000, refund_type: 'full' });
    expect(Date.parse(fetched.data.refunded_at)).not.toBeNaN();
    expect((await c.get(`/transaction/verify/${reference}`)).body.data.status).toBe('reversed');
  });

  it('refunds part, by transaction id, no more than what is left; then "fully reversed"', async () => {
    const c = client();
    const { reference } = await payAtCheckout(c, 'success_card', { amount: 100_000 });
    const { id } = (await c.get(`/transaction/verify/${reference}`)).body.data;
    expect((await c.post('/refund', { transaction: id, amount: 40_000 })).body.data.amount).toBe(40_000);
    const over = await c.post('/refund', { transaction: reference, amount: 60_001 });
    expect(over.status).toBe(400);
    expect(over.body.status).toBe(false);
    expect((await c.post('/refund', { transaction: reference })).body.data.amount).toBe(60_000);
    const none = await c.post('/refund', { transaction: reference, amount: 1 });
    expect(none.body).toMatchObject({ status: false, message: 'Transaction has been fully reversed' });
  });

  it('refuses a transaction not paid (400), an unknown one and an unknown refund (404)', async () => {
    const c = client();
    const init = await c.post('/transaction/initialize', { email: 'x@example.com', amount: 5000 });
    expect((await c.post('/refund', { transaction: init.body.data.reference })).status).toBe(400);
    expect((await c.post('/refund', { transaction: 'unknown-ref' })).status).toBe(404);
    expect((await c.get('/refund/42')).status).toBe(404);
  });

  it('lists the refunds under GET /_local/refunds', async () => {
    const c = client();
    const { reference } = await payAtCheckout(c, 'success_card');
    const created = (await c.post('/refund', { transaction: reference, amount: 1000 })).body.data;
    const listed = (await c.get('/_local/refunds')).body.data;
    expect(listed.map((r: any) => [r.id, r.amount, r.transaction_reference])).toEqual([[created.id, 1000, reference]]);
  });
});

describe('customers and dedicated accounts', () => {
  const ada = { email: 'Ada@Example.com', first_name: 'Ada', last_name: 'Obi', phone: '+2348012345678' };

  it('POST /customer creates a customer (CUS_ code); the same email gives the same customer', async () => {
    const c = client();
    const first = await c.post('/customer', ada);
    expect(first.body).toMatchObject({ status: true, message: 'Customer created' });
    expect(first.body.data).toMatchObject({
      email: 'ada@example.com',
      customer_code: expect.stringMatching(/^CUS_[a-z0-9]{15}$/),
      id: expect.any(Number),
      identified: false,
    });
    const second = await c.post('/customer', { email: 'ada@example.com' });
    expect(second.body.data.customer_code).toBe(first.body.data.customer_code);
    expect(second.body.data.id).toBe(first.body.data.id);
  });

  it('POST /dedicated_account: a 10-digit account at the preferred bank; a second call answers the same one', async () => {
    const c = client();
    const customer = (await c.post('/customer', ada)).body.data;
    const created = await c.post('/dedicated_account', {
      customer: customer.customer_code,
      preferred_bank: 'titan-paystack',
    });
    expect(created.body).toMatchObject({ status: true, message: 'NUBAN successfully created' });
    expect(created.body.data).toMatchObject({
      bank: { name: 'Titan Paystack', id: 1, slug: 'titan-paystack' },
      account_name: 'PAYSTACK/Ada Obi',
      account_number: expect.stringMatching(/^\d{10}$/),
      assigned: true,
      active: true,
      currency: 'NGN',
      customer: { id: customer.id, customer_code: customer.customer_code, email: 'ada@example.com' },
    });
    const again = await c.post('/dedicated_account', { customer: customer.id, preferred_bank: 'wema-bank' });
    expect(again.body.data.account_number).toBe(created.body.data.account_number);
    const other = (await c.post('/customer', { ...ada, email: 'bola@example.com' })).body.data;
    const second = await c.post('/dedicated_account', { customer: other.customer_code });
    expect(second.body.data.bank.slug).toBe('wema-bank');
    expect(second.body.data.account_number).not.toBe(created.body.data.account_number);
    const fetched = await c.get(`/customer/${customer.customer_code}`);
    expect(fetched.body.data.dedicated_account.account_number).toBe(created.body.data.account_number);
  });

  it('refuses a customer without names and phone, an unknown customer (404), an unknown bank', async () => {
    const c = client();
    const bare = (await c.post('/customer', { email: 'bare@example.com' })).body.data;
    const missing = await c.post('/dedicated_account', { customer: bare.customer_code });
    expect(missing).toMatchObject({ status: 400, body: { status: false } });
    const given = await c.post('/dedicated_account', {
      customer: bare.customer_code,
      first_name: 'B',
      last_name: 'A',
      phone: '080',
    });
    expect(given.status).toBe(200);
    expect((await c.post('/dedicated_account', { customer: 'CUS_unknown' })).status).toBe(404);
    const bank = await c.post('/dedicated_account', { customer: bare.customer_code, preferred_bank: 'no-bank' });
    expect(bank.status).toBe(400);
  });
});

describe('a transfer into a dedicated account', () => {
  async function account(c: PaystackClient) {
    const customer = (
      await c.post('/customer', { email: 'payer@example.com', first_name: 'Chi', last_name: 'Eze', phone: '0803' })
    ).body.data;
    return (await c.post('/dedicated_account', { customer: customer.customer_code, preferred_bank: 'test-bank' })).body
      .data;
  }

  it("POST /_local/transfers: a dedicated_nuban success for the account's customer, with sender and receiver", async () => {
    const c = client();
    const dva = await account(c);
    const received = await fetch(`${testPaystack.server().url}/_local/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        account_number: dva.account_number,
        amount: 1_250_000,
        sender_name: 'RANDALL HORTON',
        sender_bank: 'First City Monument Bank',
        sender_account_number: '4130000011',
        narration: 'INV-0042 rent',
      }),
    });
    expect(received.status).toBe(200);
    const { reference } = ((await received.json()) as any).data;
    const { data } = (await c.get(`/transaction/verify/${reference}`)).body;
    expect(data).toMatchObject({
      status: 'success',
      channel: 'dedicated_nuban',
      amount: 1_250_000,
      currency: 'NGN',
      fees: paystackFee(1_250_000),
      customer: { customer_code: dva.customer.customer_code, email: 'payer@example.com' },
    });
    expect(data.authorization).toMatchObject({
      channel: 'dedicated_nuban',
      card_type: 'transfer',
      brand: 'Managed Account',
      reusable: false,
      sender_name: 'RANDALL HORTON',
      sender_bank: 'First City Monument Bank',
      sender_bank_account_number: 'XXXXXX0011',
      narration: 'INV-0042 rent',
      receiver_bank_account_number: dva.account_number,
      receiver_bank: 'Test Bank',
    });
  });

  it('takes the /_local/ page form, and lists the account there; an unknown account is refused', async () => {
    const c = client();
    const dva = await account(c);
    const page = await (await fetch(`${testPaystack.server().url}/_local/`)).text();
    expect(page).toContain(dva.account_number);
    const form = (body: Record<string, string>) =>
      fetch(`${testPaystack.server().url}/_local/transfers`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(body).toString(),
        redirect: 'manual',
      });
    const sent = await form({ account_number: dva.account_number, amount: '50000', narration: 'by form' });
    expect(sent.status).toBe(303);
    expect(decodeURIComponent(sent.headers.get('location')!)).toMatch(/^\/_local\/\?notice=Transfer received: /);
    const listed = (await c.get('/_local/transactions')).body.data;
    expect(listed.map((t: any) => [t.channel, t.amount])).toEqual([['dedicated_nuban', 50_000]]);
    const refused = await form({ account_number: '0000000000', amount: '50000' });
    expect(decodeURIComponent(refused.headers.get('location')!)).toContain('Transfer refused');
    const json = await fetch(`${testPaystack.server().url}/_local/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_number: '0000000000', amount: 1 }),
    });
    expect(json.status).toBe(404);
  });
});
