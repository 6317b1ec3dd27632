/**
 * Helpers for the tests of getting paid online (docs/getting-paid-online.md): the local Paystack server started in the
 * test file with the service pointed at it (PAYSTACK_BASE_URL) and a temporary DATA_DIR (the local sealing key), an
 * account connected to it, the pay button pressed and the checkout paid, a signed webhook sent through the route, and a
 * transfer into a virtual account.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { LocalPaystack } from '../../infra/local/paystack/server.ts';
import { environmentRestorer } from '../../infra/tools/environment.ts';
import { transferIntoVirtualAccount as transferInto } from '../../infra/tools/virtual-account-transfer.ts';
import { resetConfig } from '../../shared/config.ts';
import { connectPaystack, readPaystackConnection } from '../../shared/store/paystack-connections.ts';
import { type CallOptions, type CallResult, call, createInvoice, newAccount } from './api.ts';
import {
  newSecretKey,
  type PaystackClient,
  paystackClient,
  startTestPaystack,
  temporaryDataDir,
} from './local-paystack.ts';

export interface PaystackFixture {
  readonly paystack: LocalPaystack;
  readonly url: string;
}

/** Starts the local Paystack server for this file and points the service at it (and at a temporary DATA_DIR). */
export function usePaystack(): PaystackFixture {
  const data = temporaryDataDir();
  const fixture = { paystack: undefined as unknown as LocalPaystack, url: '' };
  const restoreEnvironment = environmentRestorer(['PAYSTACK_BASE_URL', 'DATA_DIR']);
  beforeAll(async () => {
    fixture.paystack = await startTestPaystack(data.dir);
    fixture.url = fixture.paystack.url;
    process.env.PAYSTACK_BASE_URL = fixture.url;
    process.env.DATA_DIR = data.dir;
    resetConfig();
  });
  afterAll(async () => {
    await fixture.paystack.stop();
    data.remove();
    restoreEnvironment();
  });
  return fixture;
}

/** A new account connected to the local Paystack with its own test key (its own integration there). */
export async function connectedAccount(fixture: PaystackFixture, options: { tokenizationEnabled?: boolean } = {}) {
  const { account, key } = await newAccount({ name: 'Acme Trading', ...options });
  const secretKey = newSecretKey();
  await connectPaystack(account.companyId, secretKey);
  const connection = await readPaystackConnection(account.companyId);
  return {
    account,
    key,
    secretKey,
    hookId: connection.hookId!,
    paystack: paystackClient(() => fixture.url, secretKey),
  };
}

export const tokenOf = (hostedUrl: string): string => new URL(hostedUrl).pathname.split('/')[2]!;

/** An invoice of ₦1,000.00 (fee borne by the client unless said otherwise), and its page's token. */
export async function invoiceToPay(key: string, overrides: Record<string, unknown> = {}) {
  const invoice = await createInvoice(key, {
    items: [{ item: 'Consulting', description: 'One hour', unit_cost: '1000.00', quantity: '1' }],
    ...overrides,
  });
  return { invoice, token: tokenOf(invoice.hosted_url) };
}

export const page = (token: string) => call('hosted-invoice-page', { pathParameters: { token } });

/** Presses the pay button: the form posts an empty form-encoded body. */
export const pressPay = (token: string, options: CallOptions = {}) =>
  call('hosted-invoice-pay', {
    ...options,
    pathParameters: { token },
    body: '',
    contentType: 'application/x-www-form-urlencoded',
    base64: true,
  });

/** The return from the checkout, as Paystack's redirect names the reference. */
export const returnFrom = (token: string, reference: string, options: CallOptions = {}) =>
  call('hosted-invoice-paid', { ...options, pathParameters: { token }, query: { trxref: reference, reference } });

/** Pays at the local checkout with one of its buttons; the callback URL it redirects to (or null). */
export async function payAtCheckout(location: string, choice: string): Promise<string | null> {
  const response = await fetch(location, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `choice=${choice}`,
    redirect: 'manual',
  });
  await response.text();
  return response.headers.get('location');
}

/** The reference the checkout URL's transaction was initialized with (read back from the local server). */
export async function referenceOfCheckout(fixture: PaystackFixture, secretKey: string): Promise<string> {
  const transactions = (await paystackClient(() => fixture.url, secretKey).get('/_local/transactions')).body.data;
  return transactions.at(-1).reference;
}

/** Presses pay and pays with `choice`: the reference, and the redirect back to the service. */
export async function payInvoice(fixture: PaystackFixture, secretKey: string, token: string, choice = 'success_card') {
  const pressed = await pressPay(token);
  if (pressed.status !== 303) throw new Error(`pay answered ${pressed.status}: ${pressed.rawBody.slice(0, 500)}`);
  const callback = await payAtCheckout(pressed.headers.location!, choice);
  return { reference: await referenceOfCheckout(fixture, secretKey), callback };
}

/** Paystack's `charge.success` of a transaction, as the local server's verify shows it: the body its webhook carries. */
export async function chargeSuccessEvent(paystack: PaystackClient, reference: string): Promise<string> {
  const transactions = (await paystack.get('/_local/transactions')).body.data;
  const data = transactions.find((tx: { reference: string }) => tx.reference === reference);
  return JSON.stringify({ event: 'charge.success', data });
}

export const sign = (body: string | Buffer, secretKey: string): string =>
  createHmac('sha512', secretKey).update(body).digest('hex');

/** Sends a webhook to the route as Paystack would: the exact body and, unless said otherwise, its signature. */
export function sendWebhook(
  hookId: string,
  body: string,
  signature: string | undefined,
  options: CallOptions = {},
): Promise<CallResult> {
  return call('paystack-event', {
    ...options,
    pathParameters: { hook_id: hookId },
    body,
    headers: signature === undefined ? {} : { 'x-paystack-signature': signature },
  });
}

/** A transfer of `amountKobo` into a virtual account at the local Paystack, its webhook stored by the route and recorded. */
export const transferIntoVirtualAccount = (
  fixture: PaystackFixture,
  connected: { hookId: string; secretKey: string },
  accountNumber: string,
  amountKobo: number,
) =>
  transferInto({
    paystackUrl: fixture.url,
    hookId: connected.hookId,
    secretKey: connected.secretKey,
    accountNumber,
    amountKobo,
    deliver: (hookId, body, signature) => sendWebhook(hookId, body, signature),
  });
