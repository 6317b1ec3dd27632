/**
 * The local Paystack server's checkout in a browser (docs/paystack-local.md "Checkout"): Debian's Chromium, driven by
 * playwright-core, opens an initialized transaction's `authorization_url`, clicks "Pay with success card" and lands on
 * the callback URL (a small local server) with `trxref` and `reference`; verify then says success. The declining card
 * keeps the customer on the checkout with "Declined". No script runs on the page; screenshots go to test-artifacts/.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalPaystack } from '../../infra/local/paystack/server.ts';
import { artifact, launchChromium } from '../support/browser.ts';
import {
  newSecretKey,
  type PaystackClient,
  paystackClient,
  startTestPaystack,
  temporaryDataDir,
} from '../support/local-paystack.ts';

const data = temporaryDataDir();
let paystack: LocalPaystack;
let merchant: Server;
let callbackBase: string;
let browser: Browser;
let client: PaystackClient;

beforeAll(async () => {
  paystack = await startTestPaystack(data.dir);
  client = paystackClient(() => paystack.url, newSecretKey());
  // The merchant's callback page: it shows the query Paystack appended.
  merchant = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://merchant').searchParams;
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>Paid</title><p id="reference">${query.get('reference')}</p>`);
  });
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', () => resolve()));
  callbackBase = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/i/token/paid`;
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  merchant?.closeAllConnections();
  await new Promise<void>((resolve) => (merchant ? merchant.close(() => resolve()) : resolve()));
  await paystack?.stop();
  data.remove();
});

async function initialize(): Promise<{ authorization_url: string; reference: string }> {
  const answer = await client.post('/transaction/initialize', {
    email: 'chiamaka@example.com',
    amount: 101_523,
    callback_url: callbackBase,
  });
  return answer.body.data;
}

describe('the local checkout in Chromium', () => {
  it('pays with the success card and lands on the callback URL with trxref and reference', async () => {
    const { authorization_url: url, reference } = await initialize();
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(url, { waitUntil: 'load' });
    expect(await page.locator('body').innerText()).toContain('Pay NGN 1,015.23');
    expect(await page.locator('body').innerText()).toContain('chiamaka@example.com');
    expect(await page.locator('script').count()).toBe(0);
    await page.screenshot({ path: artifact('paystack-checkout.png'), fullPage: true });
    await Promise.all([
      page.waitForURL((landed) => landed.href.startsWith(callbackBase)),
      page.getByRole('button', { name: /Pay with success card/ }).click(),
    ]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('trxref')).toBe(reference);
    expect(landed.searchParams.get('reference')).toBe(reference);
    expect(await page.locator('#reference').innerText()).toBe(reference);
    expect(errors).toEqual([]);
    const verified = (await client.get(`/transaction/verify/${reference}`)).body.data;
    expect(verified).toMatchObject({ status: 'success', channel: 'card', amount: 101_523, fees: 1_523 });
    await page.close();
  });

  it('shows "Declined" after the declining card, and stays on the checkout', async () => {
    const { authorization_url: url, reference } = await initialize();
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await Promise.all([
      page.waitForURL(/declined=1$/),
      page.getByRole('button', { name: /Pay with declining card/ }).click(),
    ]);
    expect(await page.getByRole('alert').innerText()).toContain('Declined');
    expect(page.url().startsWith(url)).toBe(true);
    expect((await client.get(`/transaction/verify/${reference}`)).body.data.status).toBe('failed');
    await page.close();
  });
});
