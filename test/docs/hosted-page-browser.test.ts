/**
 * The hosted invoice page as a client's browser shows it (docs/sending-invoices.md): Debian's Chromium, driven by
 * playwright-core, opens `GET /i/{token}` from the local server at 360 px and 1280 px and printed. It must load
 * nothing from another origin, log no error (a CSP violation is one), run no script (an item named <script> is
 * text), fit a phone without sideways scrolling, and print without its links. Screenshots of the page and of the
 * PDF's first page go to test-artifacts/ (docs/images/ holds copies for the guide).
 */

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentRestorer } from '../../infra/tools/environment.ts';
import { resetConfig } from '../../shared/config.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { artifact, launchChromium, type RunningServer, startLocalRuntime } from '../support/browser.ts';
import { firstPageAsPng, pdfText } from '../support/pdf-text.ts';

let server: RunningServer | undefined;
let baseUrl: string;
let browser: Browser;
let invoice: Record<string, any>;

async function createShowcaseInvoice() {
  const { key, account } = await newAccount({ name: 'Adebayo & Sons Trading Ltd' });
  await updateAccount(account.companyId, {
    profile: {
      email: 'billing@adebayo-sons.ng',
      phone: '+234 803 555 0142',
      address: '14 Awolowo Road, Ikoyi\nLagos 101233',
      taxId: '20948811-0001',
      bankName: 'Zenith Bank',
      accountName: 'Adebayo & Sons Trading Ltd',
      accountNumber: '1014523687',
    },
  });
  const created = await createInvoice(key, {
    client: {
      first_name: 'Chiamaka',
      last_name: 'Okafor',
      email: `chiamaka${Date.now()}@example.com`,
      phone: '+2348012345678',
      company_name: 'Okafor Logistics',
    },
    due_date: '12/31/2030',
    items: [
      {
        item: 'Warehouse shelving (steel, 5 tier)',
        description: 'Installed, Apapa depot',
        unit_cost: '185000.00',
        quantity: '4',
      },
      { item: 'Forklift servicing', description: 'Quarterly, parts included', unit_cost: '62500.50', quantity: '1' },
      { item: 'Delivery', description: 'Lagos to Ibadan, two trips', unit_cost: '45000', quantity: '2' },
      {
        item: '<script>alert(1)</script>',
        description: 'An item name a user typed: shown as text',
        unit_cost: '1000',
        quantity: '1',
      },
    ],
  });
  await call('add-payment', {
    key,
    body: {
      reference_code: created.reference_code,
      date: todayMonthFirst(),
      amount: '250000',
      channel: 'BankTransfer',
    },
  });
  return created;
}

const restoreEnvironment = environmentRestorer(['PUBLIC_BASE_URL']);

beforeAll(async () => {
  server = await startLocalRuntime({ logger: {} });
  baseUrl = server.baseUrl;
  // hosted_url points at this server, as under npm start.
  process.env.PUBLIC_BASE_URL = baseUrl;
  resetConfig();
  invoice = await createShowcaseInvoice();
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  restoreEnvironment();
});

/** Opens the page at `width`, recording every request and every console error. */
async function open(width: number): Promise<{ page: Page; requested: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const requested: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const response = await page.goto(invoice.hosted_url, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  return { page, requested, errors };
}

describe('the hosted invoice page in Chromium', () => {
  it.each([360, 1280])(
    'at %i px: styled by its hashed stylesheet, same origin only, no error, no script',
    async (width) => {
      expect(invoice.hosted_url.startsWith(`${baseUrl}/i/`)).toBe(true);
      const { page, requested, errors } = await open(width);
      // The stylesheet applied (the CSP allowed its hash): the status badge is rounded.
      expect(
        await page.locator('.status').evaluate((el) => (globalThis as any).getComputedStyle(el).borderRadius),
      ).toBe('999px');
      expect(await page.locator('script').count()).toBe(0);
      const text = await page.locator('body').innerText();
      for (const shown of [
        '<script>alert(1)</script>',
        'Adebayo & Sons Trading Ltd',
        'Chiamaka Okafor',
        '₦893,500.50',
        '₦643,500.50',
        'Partially paid',
        'Zenith Bank',
      ])
        expect(text).toContain(shown);
      // It fits: nothing wider than the screen.
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      );
      await page.screenshot({ path: artifact(`hosted-invoice-${width}.png`), fullPage: true });
      expect(errors).toEqual([]);
      expect(requested.filter((url) => new URL(url).origin !== baseUrl)).toEqual([]);
      await page.close();
    },
  );

  it.each([360, 640])(
    'at %i px, the largest amounts fit: nothing wider than the screen or its own box, no two cells overlapping',
    async (width) => {
      const { key } = await newAccount({ name: 'Dangote Cement Supplies' });
      const largest = await createInvoice(key, {
        items: [
          { item: 'Land, Plot 7', description: 'Lekki', unit_cost: '989,999,999,999.99', quantity: '1' },
          { item: 'Cement', description: '50 kg bags', unit_cost: '10,000.00', quantity: '1000000' },
        ],
      });
      const body = { reference_code: largest.reference_code, date: todayMonthFirst(), amount: '500,000,000,000' };
      expect((await call('add-payment', { key, body: { ...body, channel: 'POS' } })).status).toBe(201);
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(largest.hosted_url, { waitUntil: 'load' });
      const problems = await page.evaluate(() => {
        const document = (globalThis as any).document;
        const screen = document.documentElement.clientWidth;
        const found: string[] = [];
        const overlap = (a: any, b: any) =>
          a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
        for (const element of document.querySelectorAll('body *')) {
          const name = `${element.tagName.toLowerCase()}.${element.className}`;
          const box = element.getBoundingClientRect();
          if (box.left < -0.5 || box.right > screen + 0.5) found.push(`${name}: ${box.left}–${box.right} of ${screen}`);
          if (element.clientWidth > 0 && element.scrollWidth > element.clientWidth + 1)
            found.push(`${name}: content ${element.scrollWidth} wide in ${element.clientWidth}`);
        }
        for (const group of document.querySelectorAll('tbody tr, .totals dl > div')) {
          const boxes = [...group.children].map((child: any) => child.getBoundingClientRect());
          for (const [index, a] of boxes.entries())
            for (const b of boxes.slice(index + 1)) if (overlap(a, b)) found.push(`${group.tagName} cells overlap`);
        }
        return found;
      });
      expect(problems).toEqual([]);
      const text = await page.locator('body').innerText();
      for (const amount of ['₦989,999,999,999.99', '₦10,000,000,000.00', '₦999,999,999,999.99', '₦499,999,999,999.99'])
        expect(text).toContain(amount);
      await page.screenshot({
        path: artifact(`hosted-invoice-largest-${width}.png`),
        fullPage: true,
      });
      await page.close();
    },
  );

  it('printed: the links and the footer are hidden, the invoice is not', async () => {
    const { page } = await open(1280);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.actions').isVisible()).toBe(false);
    expect(await page.locator('footer').isVisible()).toBe(false);
    expect(await page.locator('table').isVisible()).toBe(true);
    await page.close();
  });

  it('its "Download PDF" link opens the PDF, whose first page reads like the page', async () => {
    const { page } = await open(1280);
    const href = await page.locator('.actions a').getAttribute('href');
    expect(href).toBe(`${invoice.hosted_url}/pdf`);
    const response = await fetch(href!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const pdf = new Uint8Array(await response.arrayBuffer());
    const text = pdfText(pdf);
    for (const shown of [
      'Warehouse shelving',
      '<script>alert(1)</script>',
      '₦740,000.00',
      '₦893,500.50',
      '₦643,500.50',
      invoice.reference_code,
    ])
      expect(text).toContain(shown);
    firstPageAsPng(pdf, artifact('invoice-pdf-page-1.png'));
    await page.close();
  });

  it("shows the PDF in Chromium's viewer under the PDF's Content-Security-Policy (sandbox included)", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const response = await page.goto(`${invoice.hosted_url}/pdf`, { waitUntil: 'load' });
    expect((await response?.allHeaders())?.['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox",
    );
    // Chromium's viewer (an extension in a frame of the tab) shows the document's title once it has loaded the PDF.
    const viewerTitle = async () => {
      const viewer = page.frames().find((frame) => frame.url().startsWith('chrome-extension://'));
      return viewer?.evaluate(
        () =>
          (globalThis as any).document
            .querySelector('pdf-viewer')
            ?.shadowRoot?.querySelector('viewer-toolbar')
            ?.shadowRoot?.querySelector('#title')?.textContent,
      );
    };
    await expect
      .poll(viewerTitle, { timeout: 15_000 })
      .toBe(`Invoice ${invoice.number} from Adebayo & Sons Trading Ltd`);
    await page.screenshot({ path: artifact('invoice-pdf-in-chromium.png') });
    await page.close();
  });
});
