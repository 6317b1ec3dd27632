/**
 * The Paystack client (shared/outbound/paystack.ts, docs/getting-paid-online.md "Paystack's API") against the local
 * Paystack-compatible server: every call's request and its answer mapped onto the domain's types, and the three ways
 * a call fails — refused (4xx), unavailable (5xx or unreachable) and no answer within the timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalPaystack } from '../../infra/local/paystack/server.ts';
import { PaystackApi } from '../../shared/outbound/paystack.ts';
import { newSecretKey, paystackClient, startTestPaystack, temporaryDataDir } from '../support/local-paystack.ts';

const data = temporaryDataDir();
let paystack: LocalPaystack;

beforeAll(async () => {
  paystack = await startTestPaystack(data.dir);
});

afterAll(async () => {
  await paystack.stop();
  data.remove();
});

const api = (key: string, timeoutMs?: number) =>
  new PaystackApi(key, { baseUrl: paystack.url, ...(timeoutMs ? { timeoutMs } : {}) });

async function pay(key: string, reference: string, choice: string, amountKobo = 263_960) {
  const started = await api(key).initialize({
    email: 'ada@example.com',
    amountKobo,
    reference,
    callbackUrl: 'http://127.0.0.1:9/i/x/paid',
    metadata: { reference_code: 'REF', company_id: 1 },
  });
  if (!started.ok) throw new Error(JSON.stringify(started.failure));
  await fetch(started.value.authorizationUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `choice=${choice}`,
    redirect: 'manual',
  });
  return started.value;
}

describe('PaystackApi', () => {
  it('initializes in NGN with the reference, callback and metadata; verify maps a card payment', async () => {
    const key = newSecretKey();
    const checkout = await pay(key, 'REF-01JAAAAAAAAAAAAAAAAAAAAAAA', 'success_card');
    expect(checkout.reference).toBe('REF-01JAAAAAAAAAAAAAAAAAAAAAAA');
    expect(checkout.authorizationUrl.startsWith(`${paystack.url}/checkout/`)).toBe(true);
    const seen = (await paystackClient(() => paystack.url, key).get('/_local/transactions')).body.data[0];
    expect([seen.amount, seen.currency, seen.metadata]).toEqual([
      263_960,
      'NGN',
      { reference_code: 'REF', company_id: 1 },
    ]);
    const verified = await api(key).verify(checkout.reference);
    expect(verified).toEqual({
      ok: true,
      value: {
        reference: checkout.reference,
        status: 'success',
        amountKobo: 263_960,
        currency: 'NGN',
        transactionId: String(seen.id),
        channel: 'card',
        gatewayResponse: seen.gateway_response,
        message: seen.message ?? '',
        paidAt: seen.paid_at,
        feesKobo: 13_960,
        authorization: {
          code: seen.authorization.authorization_code,
          reusable: true,
          brand: 'visa',
          last4: '4081',
          expMonth: '12',
          expYear: '2030',
          signature: seen.authorization.signature,
        },
      },
    });
  });

  it('verify of an unpaid checkout is not a success; of a reference never issued, refused', async () => {
    const key = newSecretKey();
    const checkout = await pay(key, 'REF-01JBBBBBBBBBBBBBBBBBBBBBBB', 'abandon');
    const verified = await api(key).verify(checkout.reference);
    expect(verified.ok && verified.value.status).toBe('abandoned');
    expect(await api(key).verify('NOPE-1')).toEqual({
      ok: false,
      failure: { kind: 'refused', httpStatus: 400, message: 'Transaction reference not found' },
    });
    // Another key is another integration: its references are unknown here.
    expect((await api(newSecretKey()).verify(checkout.reference)).ok).toBe(false);
  });

  it('charges a saved card again, refunds, creates a customer and a dedicated account', async () => {
    const key = newSecretKey();
    const first = await pay(key, 'REF-01JCCCCCCCCCCCCCCCCCCCCCCC', 'success_card');
    const verified = await api(key).verify(first.reference);
    const code = verified.ok ? verified.value.authorization!.code : '';
    const charged = await api(key).chargeAuthorization({
      authorizationCode: code,
      email: 'ada@example.com',
      amountKobo: 50_000,
      reference: 'REF-01JDDDDDDDDDDDDDDDDDDDDDDD',
      metadata: { reference_code: 'REF' },
    });
    expect(charged.ok && [charged.value.status, charged.value.amountKobo, charged.value.channel]).toEqual([
      'success',
      50_000,
      'card',
    ]);
    const refund = await api(key).refund({ transaction: first.reference, amountKobo: 1_000 });
    expect(refund.ok && [refund.value.status, refund.value.amountKobo]).toEqual(['pending', 1_000]);
    const customer = await api(key).createCustomer({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Obi',
      phone: '+2348012345678',
    });
    expect(customer.ok && customer.value.customerCode).toMatch(/^CUS_/);
    const account = await api(key).createDedicatedAccount({
      customerCode: customer.ok ? customer.value.customerCode : '',
      preferredBank: 'wema-bank',
    });
    expect(account.ok && [account.value.bankName, account.value.accountNumber.length]).toEqual(['Wema Bank', 10]);
  });

  it('is unavailable when Paystack answers 503, does not answer in time, or cannot be reached', async () => {
    const key = newSecretKey();
    const control = paystackClient(() => paystack.url, key);
    await control.post('/_local/api-mode', { mode: 'unavailable', count: 1 });
    expect(await api(key).verify('X-1')).toEqual({
      ok: false,
      failure: { kind: 'unavailable', detail: 'HTTP 503: Service Unavailable' },
    });
    await control.post('/_local/api-mode', { mode: 'hang', count: 1 });
    expect(await api(key, 200).verify('X-1')).toEqual({
      ok: false,
      failure: { kind: 'unavailable', detail: 'no answer within 200 ms' },
    });
    const nowhere = new PaystackApi(key, { baseUrl: 'http://127.0.0.1:9' });
    const result = await nowhere.verify('X-1');
    expect(!result.ok && result.failure.kind).toBe('unavailable');
  });
});
