/**
 * The local Paystack server's API in Paystack's shapes (docs/paystack-local.md "API", "Checkout"): keys, initialize,
 * verify, the checkout's choices, charge_authorization, customers and dedicated accounts, transfers, refunds, and the
 * state surviving a restart. Each test uses its own secret key, so its own integration.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { paystackFee } from '../../infra/local/paystack/fees.ts';
import {
  newSecretKey,
  type PaystackClient,
  payAtCheckout,
  paystackClient,
  startTestPaystack,
  temporaryDataDir,
  useTestPaystack,
} from '../support/local-paystack.ts';
import { until } from '../support/until.ts';

const testPaystack = useTestPaystack();
const client = testPaystack.client;

/** The fields of `data` that Paystack's verify example has, in its order. */
const VERIFY_FIELDS = [
  'id',
  'domain',
  'status',
  'reference',
  'receipt_number',
  'amount',
  'message',
  'gateway_response',
  'paid_at',
  'created_at',
  'channel',
  'currency',
  'ip_address',
  'metadata',
  'log',
  'fees',
  'fees_split',
  'authorization',
  'customer',
  'plan',
  'split',
  'order_id',
  'paidAt',
  'createdAt',
  'requested_amount',
  'pos_transaction_data',
  'source',
  'fees_breakdown',
  'connect',
  'transaction_date',
  'plan_object',
  'subaccount',
];
const CUSTOMER_FIELDS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'customer_code',
  'phone',
  'metadata',
  'risk_action',
  'international_format_phone',
];

async function initialize(c: PaystackClient, body: Record<string, unknown> = {}) {
  const answer = await c.post('/transaction/initialize', { email: 'ada@example.com', amount: 250_000, ...body });
  expect(answer.status).toBe(200);
  return answer.body.data as { authorization_url: string; access_code: string; reference: string };
}

describe('secret keys', () => {
  it('refuses a missing, malformed or non-secret key with 401 and status false', async () => {
    const none = await fetch(`${testPaystack.server().url}/transaction/verify/x`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ status: false, message: 'No Authorization Header was found' });
    const malformed = await fetch(`${testPaystack.server().url}/transaction/verify/x`, {
      headers: { authorization: 'sk_test_1' },
    });
    expect(malformed.status).toBe(401);
    expect(((await malformed.json()) as any).message).toBe('Format is Authorization Bearer [secret key]');
    for (const key of ['pk_test_abc', 'sk_abc', 'sk_test_', 'sk_staging_abc']) {
      const answer = await client(key).get('/transaction/verify/x');
      expect(answer).toMatchObject({ status: 401, body: { status: false, message: 'Invalid key' } });
    }
  });

  it('keeps each integration to itself: a reference of one is unknown to another', async () => {
    const { reference } = await initialize(client());
    const other = await client().get(`/transaction/verify/${reference}`);
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ status: false, message: 'Transaction reference not found' });
  });

  it('names the domain by the key: sk_live_ is live, sk_test_ is test', async () => {
    const live = client(`sk_live_${Date.now()}`);
    const { reference } = await initialize(live);
    expect((await live.get(`/transaction/verify/${reference}`)).body.data.domain).toBe('live');
  });
});

describe('POST /transaction/initialize', () => {
  it("answers authorization_url (this server's checkout), access_code and the reference given", async () => {
    const answer = await client().post('/transaction/initialize', {
      email: 'ada@example.com',
      amount: '101523',
      reference: 'inv-42.attempt=1',
      currency: 'NGN',
      callback_url: 'https://merchant.example/paid',
      metadata: { reference_code: 'ABC', company_id: 7 },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: true,
      message: 'Authorization URL created',
      data: { authorization_url: expect.any(String), access_code: expect.any(String), reference: 'inv-42.attempt=1' },
    });
    expect(answer.body.data.authorization_url).toBe(
      `${testPaystack.server().url}/checkout/${answer.body.data.access_code}`,
    );
  });

  it('generates a reference when none is given, and takes a form-encoded body', async () => {
    const answer = await client().postForm('/transaction/initialize', { email: 'ada@example.com', amount: '5000' });
    expect(answer.status).toBe(200);
    expect(answer.body.data.reference).toMatch(/^[a-z0-9]{10}$/);
  });

  it.each([
    [{ amount: '100.50' }, 'Invalid Amount Sent'],
    [{ amount: 0 }, 'Invalid Amount Sent'],
    [{ amount: -100 }, 'Invalid Amount Sent'],
    [{ amount: undefined }, 'Invalid Amount Sent'],
    [{ email: undefined }, 'Email is not allowed to be empty'],
    [{ email: 'not-an-email' }, 'Invalid Email Address Passed'],
    [{ reference: 'has space' }, 'Invalid character in transaction reference'],
    [{ currency: 'EUR' }, 'Currency not supported by merchant'],
  ])('refuses %j with 400 "%s"', async (change, message) => {
    const answer = await client().post('/transaction/initialize', {
      email: 'ada@example.com',
      amount: 5000,
      ...change,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: false, message });
  });

  it('refuses a reference used before with 400 "Duplicate Transaction Reference", as Paystack words it', async () => {
    const c = client();
    await initialize(c, { reference: 'same-ref' });
    const again = await c.post('/transaction/initialize', {
      email: 'ada@example.com',
      amount: 5000,
      reference: 'same-ref',
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      status: false,
      message: 'Duplicate Transaction Reference',
      meta: { nextStep: 'Try and create the Transaction or Charge with a new reference' },
      type: 'validation_error',
      code: 'duplicate_reference',
    });
  });
});

describe('GET /transaction/verify/:reference', () => {
  it('shows a transaction not yet paid as abandoned, with no fee and no authorization', async () => {
    const c = client();
    const { reference } = await initialize(c, { metadata: JSON.stringify({ invoice: 'INV-1' }) });
    const answer = await c.get(`/transaction/verify/${reference}`);
    expect(answer.body).toMatchObject({ status: true, message: 'Verification successful' });
    expect(Object.keys(answer.body.data)).toEqual(VERIFY_FIELDS);
    expect(answer.body.data).toMatchObject({
      status: 'abandoned',
      gateway_response: 'The transaction was not completed',
      amount: 250_000,
      currency: 'NGN',
      fees: null,
      paid_at: null,
      authorization: {},
      metadata: { invoice: 'INV-1' },
    });
    expect(Object.keys(answer.body.data.customer)).toEqual(CUSTOMER_FIELDS);
    expect(answer.body.data.customer).toMatchObject({
      email: 'ada@example.com',
      customer_code: expect.stringMatching(/^CUS_/),
    });
  });

  it('shows a card payment with its fee (kobo integers), paid_at and a reusable authorization', async () => {
    const c = client();
    const { reference } = await payAtCheckout(c, 'success_card', { amount: 263_960 });
    const { data } = (await c.get(`/transaction/verify/${reference}`)).body;
    expect(data).toMatchObject({ status: 'success', channel: 'card', amount: 263_960, fees: 13_960, metadata: '' });
    expect(Number.isInteger(data.id)).toBe(true);
    expect(Date.parse(data.paid_at)).not.toBeNaN();
    expect(data.authorization).toEqual({
      authorization_code: expect.stringMatching(/^AUTH_[a-z0-9]{10}$/),
      bin: '408408',
      last4: '4081',
      exp_month: '12',
      exp_year: '2030',
      channel: 'card',
      card_type: 'visa ',
      bank: 'TEST BANK',
      country_code: 'NG',
      brand: 'visa',
      reusable: true,
      signature: expect.stringMatching(/^SIG_/),
      account_name: null,
    });
  });

  it('answers an unknown reference with 400 "Transaction reference not found"', async () => {
    const answer = await client().get('/transaction/verify/never-issued');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: false, message: 'Transaction reference not found' });
  });

  it('GET /transaction/:id shows the same transaction; a non-numeric id is 400, an unknown one 404', async () => {
    const c = client();
    const { reference } = await initialize(c);
    const verified = (await c.get(`/transaction/verify/${reference}`)).body.data;
    expect((await c.get(`/transaction/${verified.id}`)).body).toEqual({
      status: true,
      message: 'Transaction retrieved',
      data: verified,
    });
    expect((await c.get('/transaction/abc')).status).toBe(400);
    expect((await c.get('/transaction/1')).status).toBe(404);
  });
});

describe('the checkout page', () => {
  it('shows the amount and the email, and a button for each way to pay', async () => {
    const c = client();
    const { authorization_url: url } = await initialize(c, { amount: 101_523 });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('NGN 1,015.23');
    expect(html).toContain('ada@example.com');
    for (const choice of ['success_card', 'declining_card', 'bank_transfer', 'ussd', 'abandon'])
      expect(html).toContain(`value="${choice}"`);
    expect(html).not.toContain('<script');
  });

  it('offers only the channels the transaction allows', async () => {
    const { authorization_url: url } = await initialize(client(), { channels: ['bank_transfer'] });
    const html = await (await fetch(url)).text();
    expect(html).toContain('value="bank_transfer"');
    expect(html).not.toContain('value="success_card"');
  });

  it('after a payment, redirects (303) to the callback URL with trxref and reference appended', async () => {
    const c = client();
    const { reference, redirect } = await payAtCheckout(c, 'success_card', {
      callback_url: 'https://merchant.example/i/tok/paid?lang=en',
    });
    expect(redirect.status).toBe(303);
    expect(redirect.location).toBe(
      `https://merchant.example/i/tok/paid?lang=en&trxref=${reference}&reference=${reference}`,
    );
  });

  it('after the declining card, stays on the checkout with "Declined"; verify says failed; another card can pay', async () => {
    const c = client();
    const { reference, redirect } = await payAtCheckout(c, 'declining_card', { callback_url: 'https://m.example/cb' });
    expect(redirect.status).toBe(303);
    expect(redirect.location).toMatch(/\/checkout\/[a-z0-9]+\?declined=1$/);
    expect(await (await fetch(`${testPaystack.server().url}${redirect.location}`)).text()).toContain('Declined');
    const failed = (await c.get(`/transaction/verify/${reference}`)).body.data;
    expect(failed).toMatchObject({ status: 'failed', gateway_response: 'Declined', fees: null, paid_at: null });
    expect(failed.authorization).toMatchObject({ last4: '5408', reusable: false });
    const retry = await fetch(`${testPaystack.server().url}${redirect.location!.split('?')[0]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'choice=success_card',
      redirect: 'manual',
    });
    expect(retry.headers.get('location')).toBe(`https://m.example/cb?trxref=${reference}&reference=${reference}`);
    expect((await c.get(`/transaction/verify/${reference}`)).body.data.status).toBe('success');
  });

  it.each([
    ['bank_transfer', 'bank_transfer', 'Approved'],
    ['ussd', 'ussd', 'Payment successful'],
  ])('%s pays with channel %s', async (choice, channel, gatewayResponse) => {
    const c = client();
    const { reference } = await payAtCheckout(c, choice);
    const { data } = (await c.get(`/transaction/verify/${reference}`)).body;
    expect(data).toMatchObject({
      status: 'success',
      channel,
      gateway_response: gatewayResponse,
      fees: paystackFee(500_000),
    });
    expect(data.authorization).toMatchObject({ channel, reusable: false });
  });

  it('abandon returns to the callback (or to metadata.cancel_action) and leaves the transaction abandoned', async () => {
    const c = client();
    const plain = await payAtCheckout(c, 'abandon', { callback_url: 'https://m.example/cb' });
    expect(plain.redirect.location).toBe(`https://m.example/cb?trxref=${plain.reference}&reference=${plain.reference}`);
    expect((await c.get(`/transaction/verify/${plain.reference}`)).body.data.status).toBe('abandoned');
    const cancel = await payAtCheckout(c, 'abandon', {
      callback_url: 'https://m.example/cb',
      metadata: { cancel_action: 'https://m.example/cancelled' },
    });
    expect(cancel.redirect.location).toBe('https://m.example/cancelled');
  });

  it('without a callback URL shows a page; a paid checkout is not paid again', async () => {
    const c = client();
    const initialized = await initialize(c);
    const pay = (choice: string) =>
      fetch(initialized.authorization_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `choice=${choice}`,
        redirect: 'manual',
      });
    const first = await pay('success_card');
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('received');
    const paid = (await c.get(`/transaction/verify/${initialized.reference}`)).body.data;
    expect((await pay('declining_card')).status).toBe(200);
    expect((await c.get(`/transaction/verify/${initialized.reference}`)).body.data).toEqual(paid);
    expect(await (await fetch(initialized.authorization_url)).text()).toContain('received');
  });

  it('answers an unknown checkout with 404', async () => {
    expect((await fetch(`${testPaystack.server().url}/checkout/doesnotexist`)).status).toBe(404);
  });
});

describe('restart', () => {
  it('keeps the state in one file written whole, and answers the same after a restart', async () => {
    const dir = temporaryDataDir();
    let server = await startTestPaystack(dir.dir);
    const key = newSecretKey();
    let c = paystackClient(() => server.url, key);
    const { reference } = await payAtCheckout(c, 'success_card');
    const before = (await c.get(`/transaction/verify/${reference}`)).body;
    await server.stop();
    expect(readdirSync(dir.dir)).toEqual(['paystack-state.json']);
    server = await startTestPaystack(dir.dir, { publicBaseUrl: 'http://paystack.localhost:9999/' });
    c = paystackClient(() => server.url, key);
    expect((await c.get(`/transaction/verify/${reference}`)).body).toEqual(before);
    const next = await initialize(c);
    expect(next.authorization_url.startsWith('http://paystack.localhost:9999/checkout/')).toBe(true);
    const nextId = (await c.get(`/transaction/verify/${next.reference}`)).body.data.id;
    expect(nextId).toBeGreaterThan(before.data.id);
    await server.stop();
    expect(existsSync(`${dir.dir}/paystack-state.json.tmp`)).toBe(false);
    dir.remove();
  });

  it('processes after a restart a refund that was still pending', async () => {
    const dir = temporaryDataDir();
    let server = await startTestPaystack(dir.dir, { refundDelayMs: 60 * 60 * 1000 });
    const key = newSecretKey();
    const { reference } = await payAtCheckout(
      paystackClient(() => server.url, key),
      'success_card',
    );
    const refund = await paystackClient(() => server.url, key).post('/refund', { transaction: reference });
    expect(refund.body.data.status).toBe('pending');
    await server.stop();
    // Its moment, kept in the state file, is an hour away: bring it to now, as if the hour had passed while stopped.
    const file = join(dir.dir, 'paystack-state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    for (const integration of Object.values<any>(state.integrations))
      for (const r of integration.refunds) r.process_at = Date.now();
    writeFileSync(file, JSON.stringify(state));
    server = await startTestPaystack(dir.dir);
    const c = paystackClient(() => server.url, key);
    await until(
      'the refund processed',
      async () => (await c.get(`/refund/${refund.body.data.id}`)).body.data.status === 'processed',
    );
    expect((await c.get(`/transaction/verify/${reference}`)).body.data.status).toBe('reversed');
    await server.stop();
    dir.remove();
  });
});

describe('starting', () => {
  it('refuses a state file it did not write, and a port in use, leaving nothing running', async () => {
    const dir = temporaryDataDir();
    writeFileSync(join(dir.dir, 'paystack-state.json'), 'not json');
    await expect(startTestPaystack(dir.dir)).rejects.toThrow(/is not a state file this server wrote/);
    const other = temporaryDataDir();
    await expect(startTestPaystack(other.dir, { port: testPaystack.server().port })).rejects.toThrow(/EADDRINUSE/);
    dir.remove();
    other.remove();
  });
});

describe('listings for tests', () => {
  it("GET /_local/transactions lists the integration's transactions as verify shows them, and no other's", async () => {
    const c = client();
    const { reference } = await initialize(c);
    const listed = await c.get('/_local/transactions');
    expect(listed.body.data).toEqual([(await c.get(`/transaction/verify/${reference}`)).body.data]);
    expect((await client().get('/_local/transactions')).body.data).toEqual([]);
  });
});
