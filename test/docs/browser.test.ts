/**
 * The interactive reference in a real headless browser: Debian's Chromium (installed by
 * scripts/ensure-chromium.sh when missing) driven by playwright-core loads `GET /docs` from the local
 * server, which renders the operations from `GET /openapi.json`, using only files this server
 * serves (no CDN). Screenshot: test-artifacts/docs.png.
 */

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsRoutes } from '../../infra/local/docs.ts';
import { WEBHOOK_EVENT_TYPES } from '../../shared/domain/webhook-events.ts';
import { renderOpenApiDocument } from '../../shared/openapi/document.ts';
import { ROUTES } from '../../shared/routes.ts';
import { artifact, launchChromium, type RunningServer, startLocalRuntime } from '../support/browser.ts';

let server: RunningServer | undefined;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  server = await startLocalRuntime({ staticRoutes: docsRoutes(), logger: {} });
  baseUrl = server.baseUrl;
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('GET /docs and GET /openapi.json', () => {
  it('serves the committed OpenAPI document', async () => {
    const response = await fetch(`${baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.text()).toBe(renderOpenApiDocument());
  });

  it('renders every operation of the route table (and the webhooks) in Chromium from local files only', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    const failures: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => failures.push(error.message));
    const response = await page.goto(`${baseUrl}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);

    const operations = page.locator('.opblock');
    // Every route's method (histories also as GET, for pypayant) and every webhook event.
    const expected =
      ROUTES.reduce((count, route) => count + 1 + (route.extraMethods?.length ?? 0), 0) + WEBHOOK_EVENT_TYPES.length;
    await expect.poll(() => operations.count(), { timeout: 20_000 }).toBe(expected);
    const summaries = await page.locator('.opblock-summary').allInnerTexts();
    const normalised = summaries.map((text) => text.replace(/\s+/g, ' '));
    expect(normalised.some((t) => t.includes('POST') && t.includes('/invoices') && t.includes('Add invoice'))).toBe(
      true,
    );
    expect(normalised.some((t) => t.includes('/payments') && t.includes('Add payment') && !t.includes('history'))).toBe(
      true,
    );
    expect(normalised.some((t) => t.includes('/payments/history') && t.includes('Get payments'))).toBe(true);
    expect(normalised.some((t) => t.includes('DELETE') && t.includes('/clients/{id}'))).toBe(true);
    for (const type of WEBHOOK_EVENT_TYPES) expect(normalised.some((t) => t.includes(type))).toBe(true);
    expect(normalised.some((t) => t.includes('GET') && t.includes('/payments/history'))).toBe(true);
    await expect.poll(() => page.locator('.info .title').innerText()).toContain('Invoicing and Payments API');
    expect(await page.getByText('Webhooks', { exact: true }).count(), 'one "Webhooks" heading').toBe(1);

    await page.screenshot({ path: artifact('docs.png'), fullPage: true });

    // "Add invoice" opens with its Idempotency-Key parameter, request body and documented responses.
    await page.locator('.opblock-summary', { hasText: 'Add invoice' }).first().click();
    await expect
      .poll(() => page.locator('.opblock.is-open .responses-table').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    const opened = await page.locator('.opblock.is-open').innerText();
    for (const text of ['Idempotency-Key', 'application/json', '201', '409', 'duplicate_merchant_ref'])
      expect(opened).toContain(text);
    await page.screenshot({ path: artifact('docs-add-invoice.png') });
    expect(failures).toEqual([]);
    expect(requested.filter((url) => !url.startsWith(baseUrl) && !url.startsWith('data:'))).toEqual([]);
    await page.close();
  });
});
