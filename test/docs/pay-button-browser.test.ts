/**
 * Paying an invoice online as a client does it (docs/getting-paid-online.md), in Debian's Chromium driven by
 * playwright-core: the hosted page from the local runtime's server, its "Pay ₦…" button (a plain form: the browser
 * holds its post and the redirect to the checkout to the page's CSP `form-action`), the local Paystack server's
 * checkout, the success card, and the return to "Payment received". No console error (a CSP violation is one), no
 * script. Screenshots of the button, the checkout and the receipt go to test-artifacts/ (docs/images/ holds copies for
 * the guide).
 */

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalPaystack } from '../../infra/local/paystack/server.ts';
import { environmentRestorer } from '../../infra/tools/environment.ts';
import { resetConfig } from '../../shared/config.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { connectPaystack } from '../../shared/store/paystack-connections.ts';
import { call, createInvoice, newAccount } from '../support/api.ts';
import { artifact, launchChromium, type RunningServer, startLocalRuntime } from '../support/browser.ts';
import { newSecretKey, startTestPaystack, temporaryDataDir } from '../support/local-paystack.ts';

const data = temporaryDataDir();
let server: RunningServer | undefined;
let paystack: LocalPaystack;
let baseUrl: string;
let browser: Browser;
const restoreEnvironment = environmentRestorer(['PUBLIC_BASE_URL', 'PAYSTACK_BASE_URL', 'DATA_DIR']);

beforeAll(async () => {
  server = await startLocalRuntime({ logger: {} });
  baseUrl = server.baseUrl;
  paystack = await startTestPaystack(data.dir);
  // As under npm start: hosted_url on this server, the service pointed at the local Paystack server.
  Object.assign(process.env, { PUBLIC_BASE_URL: baseUrl, PAYSTACK_BASE_URL: paystack.url, DATA_DIR: data.dir });
  resetConfig();
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await paystack?.stop();
  data.remove();
  restoreEnvironment();
});

describe('the pay button in Chromium', () => {
  it('reaches the checkout, pays with the success card and lands on the receipt', async () => {
    const { key, account } = await newAccount({ name: 'Adebayo & Sons Trading Ltd' });
    await updateAccount(account.companyId, {
      profile: { bankName: 'Zenith Bank', accountName: 'Adebayo & Sons Trading Ltd', accountNumber: '1014523687' },
    });
    await connectPaystack(account.companyId, newSecretKey());
    const invoice = await createInvoice(key, {
      items: [{ item: 'Forklift servicing', description: 'Quarterly', unit_cost: '62500.50', quantity: '1' }],
    });
    const page = await browser.newPage({ viewport: { width: 360, height: 900 } });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(invoice.hosted_url);
    const button = page.getByRole('button', { name: /^Pay ₦/ });
    expect(await button.textContent()).toBe('Pay ₦63,553.81');
    await page.screenshot({ path: artifact('pay-button-360.png'), fullPage: true });

    await Promise.all([page.waitForURL(`${paystack.url}/checkout/**`), button.click()]);
    expect(await page.textContent('body')).toContain('NGN 63,553.81');
    await page.screenshot({ path: artifact('paystack-checkout-360.png'), fullPage: true });

    await Promise.all([
      page.waitForURL(`${invoice.hosted_url}/paid?**`),
      page.getByRole('button', { name: /success card/ }).click(),
    ]);
    const receipt = await page.textContent('body');
    expect(receipt).toContain('Payment received');
    expect(receipt).toContain('PAID on');
    expect(await page.locator('form').count()).toBe(0);
    await page.screenshot({ path: artifact('payment-received-360.png'), fullPage: true });
    expect(errors).toEqual([]);

    const latest = await call('get-payment', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(latest.body.data).toMatchObject({ channel: 'Card', amount: '62500.50', amount_charged: '63553.81' });
    await page.close();
  });
});
