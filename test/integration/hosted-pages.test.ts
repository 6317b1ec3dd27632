/**
 * The hosted invoice page and the PDFs through the invoice function (docs/sending-invoices.md): `hosted_url` on every
 * invoice, `GET /i/{token}` with its headers, content, escaping, 404 and 410 pages, isolation, and the PDFs read back
 * with pdftotext.
 */
import { readFileSync } from 'node:fs';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { migrateHostedLinks } from '../../infra/cli/migrations/hosted-links.ts';
import { FONT_FILES } from '../../shared/render/engine-files.ts';
import { fontPath } from '../../shared/render/pdf-engine.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, createInvoice, newAccount, todayMonthFirst, uniqueEmail } from '../support/api.ts';
import { pdfText } from '../support/pdf-text.ts';

const tokenOf = (hostedUrl: string) => new URL(hostedUrl).pathname.split('/')[2]!;
const page = (token: string) => call('hosted-invoice-page', { pathParameters: { token } });
const hostedPdf = (token: string) => call('hosted-invoice-pdf', { pathParameters: { token } });
const pdfBytes = (result: { rawBody: string }) => Buffer.from(result.rawBody, 'base64');

const PROFILE = {
  email: 'billing@acme.ng',
  phone: '+234 801 234 5678',
  address: '12 Marina Road\nLagos',
  taxId: 'TIN-12345678',
  bankName: 'Zenith Bank',
  accountName: 'Acme Trading Ltd',
  accountNumber: '1012345678',
};

describe('hosted_url', () => {
  it('every invoice view carries an absolute hosted_url with a 144-bit token, unique per invoice', async () => {
    const { key } = await newAccount();
    const [first, second] = [await createInvoice(key), await createInvoice(key)];
    for (const invoice of [first, second]) {
      expect(invoice.hosted_url).toMatch(/^http:\/\/localhost:3000\/i\/[A-Za-z0-9_-]{24}$/);
      expect(invoice.hosted_url).not.toContain(invoice.reference_code);
    }
    expect(first.hosted_url).not.toBe(second.hosted_url);
    const read = await call('get-invoice', { key, pathParameters: { reference_code: first.reference_code } });
    expect(read.body.data.hosted_url).toBe(first.hosted_url);
    const listed = await call('invoice-history', { key, body: { period: 'today' } });
    expect(listed.body.data.invoices.map((i: { hosted_url: string }) => i.hosted_url).sort()).toEqual(
      [first.hosted_url, second.hosted_url].sort(),
    );
  });
});

describe('GET /i/{token}', () => {
  it('answers the page with a strict CSP, no caching, no indexing and no referrer', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const result = await page(tokenOf(invoice.hosted_url));
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = result.headers['content-security-policy']!;
    expect(csp.split('; ')[0]).toBe("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|script-src|https?:/);
    expect(result.headers['cache-control']).toBe('no-store');
    expect(result.headers['x-robots-tag']).toMatch(/noindex/);
    expect(result.headers['referrer-policy']).toBe('no-referrer');
    expect(result.rawBody).not.toMatch(/<script|<link|<img|<iframe|src=|url\(/i);
  });

  it('shows the profile, client, number, reference, dates, items, totals, status and payment instructions', async () => {
    const { key, account } = await newAccount({ name: 'Acme Trading Ltd' });
    await updateAccount(account.companyId, { profile: PROFILE });
    const invoice = await createInvoice(key, {
      client: { first_name: 'Ada', last_name: 'Obi', email: `ada${Date.now()}@example.com`, phone: '+2348012345678' },
      items: [
        { item: 'Website design', description: '5 pages', unit_cost: '50000.00', quantity: '1' },
        { item: 'Hosting', description: 'Monthly', unit_cost: '1250.50', quantity: '12' },
      ],
      due_date: '12/30/2030',
    });
    await call('add-payment', {
      key,
      body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10000', channel: 'Cash' },
    });
    const html = (await page(tokenOf(invoice.hosted_url))).rawBody;
    for (const text of [
      'Acme Trading Ltd',
      '12 Marina Road',
      '+234 801 234 5678',
      'billing@acme.ng',
      'TIN-12345678',
      'Ada Obi',
      `<dd>${invoice.number}</dd>`,
      invoice.reference_code,
      '30 Dec 2030',
      'Website design',
      '5 pages',
      'Hosting',
      '₦50,000.00',
      '₦1,250.50',
      '₦15,006.00',
      '₦65,006.00',
      '₦10,000.00',
      '₦55,006.00',
      'Partially paid',
      'Zenith Bank',
      '1012345678',
      `${invoice.hosted_url}/pdf`,
    ])
      expect(html, text).toContain(text);
  });

  it('leaves unset profile fields out, never blank or "undefined"', async () => {
    const { key } = await newAccount({ name: 'Bare Ltd' });
    const invoice = await createInvoice(key);
    const html = (await page(tokenOf(invoice.hosted_url))).rawBody;
    expect(html).toContain('Bare Ltd');
    expect(html).not.toMatch(/undefined|null|NaN|<dd><\/dd>|<p class="muted"><\/p>/);
    for (const label of ['Phone', 'E-mail', 'Tax ID', 'How to pay', 'Bank', 'Account number'])
      expect(html).not.toContain(label);
  });

  it('escapes what users typed: an item named <script> is text', async () => {
    const { key, account } = await newAccount({ name: '<b>Bold</b> & Co' });
    await updateAccount(account.companyId, { profile: { address: '"><img src=x onerror=alert(1)>' } });
    const invoice = await createInvoice(key, {
      items: [{ item: '<script>alert(1)</script>', description: "it's <i>fine</i>", unit_cost: '10', quantity: '1' }],
    });
    const html = (await page(tokenOf(invoice.hosted_url))).rawBody;
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;b&gt;Bold&lt;/b&gt; &amp; Co');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('it&#39;s &lt;i&gt;fine&lt;/i&gt;');
    expect(html).not.toMatch(/<script|<img|<i>|<b>/);
  });

  it('shows overdue and paid as payment_status says today', async () => {
    const { key } = await newAccount();
    const overdue = await createInvoice(key, { due_date: '01/15/2021' });
    expect((await page(tokenOf(overdue.hosted_url))).rawBody).toContain('status-overdue">Overdue<');
    const paid = await createInvoice(key);
    await call('add-payment', {
      key,
      body: { reference_code: paid.reference_code, date: todayMonthFirst(), amount: paid.total, channel: 'POS' },
    });
    expect((await page(tokenOf(paid.hosted_url))).rawBody).toContain('status-paid">Paid<');
  });

  it('never shows keys, internal ids, or another invoice or account', async () => {
    const mine = await newAccount({ name: 'Mine Ltd' });
    const theirs = await newAccount({ name: 'Theirs Ltd' });
    const invoice = await createInvoice(mine.key, {
      items: [{ item: 'Mine only', description: 'd', unit_cost: '5', quantity: '1' }],
    });
    const sibling = await createInvoice(mine.key, {
      items: [{ item: 'Sibling item', description: 'd', unit_cost: '7', quantity: '1' }],
    });
    const foreign = await createInvoice(theirs.key, {
      items: [{ item: 'Their item', description: 'd', unit_cost: '9', quantity: '1' }],
    });
    const html = (await page(tokenOf(invoice.hosted_url))).rawBody;
    for (const secret of [
      mine.key,
      theirs.key,
      'sk_',
      sibling.reference_code,
      foreign.reference_code,
      'Sibling item',
      'Their item',
      'Theirs Ltd',
      tokenOf(sibling.hosted_url),
    ])
      expect(html).not.toContain(secret);
    for (const field of ['company_id', 'client_id', invoice.client.email, invoice.client.phone])
      expect(html).not.toContain(field);
    // Each token shows its own invoice only.
    expect((await page(tokenOf(foreign.hosted_url))).rawBody).toContain('Their item');
    expect((await page(tokenOf(foreign.hosted_url))).rawBody).not.toContain('Mine only');
  });

  it('an unknown or malformed token is a 404 page; a voided invoice a 410 page', async () => {
    for (const token of ['A'.repeat(24), 'short', `${'B'.repeat(24)}x`, '../../etc/passwd', 'ZZZZZZZZZZZZZZZZZZZZ']) {
      const result = await page(token);
      expect(result.status, token).toBe(404);
      expect(result.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(result.headers['content-security-policy']).toMatch(/^default-src 'none'/);
      expect(result.rawBody).toContain('Invoice not found');
    }
    const { key } = await newAccount({ name: 'Voiding Ltd' });
    const invoice = await createInvoice(key);
    await call('delete-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    const gone = await page(tokenOf(invoice.hosted_url));
    expect(gone.status).toBe(410);
    expect(gone.rawBody).toContain('This invoice was voided');
    expect(gone.rawBody).toContain(invoice.reference_code);
    expect(gone.headers['cache-control']).toBe('no-store');
    expect((await hostedPdf(tokenOf(invoice.hosted_url))).status).toBe(410);
  });
});

describe('the PDFs', () => {
  it('GET /i/{token}/pdf: an A4 PDF whose text has the number, every item and the ₦ amounts; 20 items ≤ 100 KB', async () => {
    const { key, account } = await newAccount({ name: 'Twenty Items Ltd' });
    await updateAccount(account.companyId, { profile: PROFILE });
    const items = Array.from({ length: 20 }, (_, i) => ({
      item: `Service line ${i + 1}`,
      description: `Work package ${i + 1}: analysis, design and delivery`,
      unit_cost: `${1500 + i * 250}.00`,
      quantity: String(i + 1),
    }));
    const invoice = await createInvoice(key, { items });
    const result = await hostedPdf(tokenOf(invoice.hosted_url));
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('application/pdf');
    expect(result.headers['content-disposition']).toBe(`inline; filename="invoice-${invoice.reference_code}.pdf"`);
    expect(result.headers['cache-control']).toBe('no-store');
    expect(result.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    const pdf = pdfBytes(result);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.length).toBeLessThanOrEqual(100 * 1024);
    const text = pdfText(pdf);
    expect(text).toContain(`Invoice ${invoice.number}`);
    expect(text).toContain(invoice.reference_code);
    expect(text).toContain('Zenith Bank');
    for (const [i, item] of items.entries()) {
      expect(text).toContain(item.item);
      const unit = 1500 + i * 250;
      expect(text).toContain(`₦${unit.toLocaleString('en-US')}.00`);
      expect(text).toContain(`₦${(unit * (i + 1)).toLocaleString('en-US')}.00`);
    }
    expect(text).toContain(`₦${Number(invoice.total).toLocaleString('en-US')}.00`);
  });

  it('GET /invoices/{reference_code}/pdf: with the key; another account → 404 envelope; voided → 200 marked VOID', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: '<script>alert(1)</script>', description: 'Escaped', unit_cost: '1500', quantity: '2' }],
    });
    const byCode = { pathParameters: { reference_code: invoice.reference_code } };
    const result = await call('invoice-pdf', { key, ...byCode });
    expect(result.status).toBe(200);
    expect(result.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    const text = pdfText(pdfBytes(result));
    expect(text).toContain('<script>alert(1)</script>');
    expect(text).toContain('₦3,000.00');
    expect(text).not.toContain('VOID');
    const foreign = await call('invoice-pdf', { key: other.key, ...byCode });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('invoice_not_found');
    expect((await call('invoice-pdf', byCode)).status).toBe(401);
    await call('delete-invoice', { key, ...byCode });
    const voided = await call('invoice-pdf', { key, ...byCode });
    expect(voided.status).toBe(200);
    expect(pdfText(pdfBytes(voided))).toMatch(/VOID/);
  });
});

describe('the largest amounts in the PDF', () => {
  it.each([
    ['NGN', '₦'],
    ['GHS', 'GH₵'],
  ])(
    '%s: every amount up to 999,999,999,999.99, and a quantity of 1,000,000, is one unbroken string',
    async (currency, sign) => {
      const { key } = await newAccount({ currency });
      const invoice = await createInvoice(key, {
        items: [
          { item: 'Land', description: 'Plot 7', unit_cost: '989,999,999,999.99', quantity: '1' },
          { item: 'Cement', description: 'Bags', unit_cost: '10,000.00', quantity: '1000000' },
        ],
      });
      expect(invoice.total).toBe('999999999999.99');
      const paid = await call('add-payment', {
        key,
        body: {
          reference_code: invoice.reference_code,
          date: todayMonthFirst(),
          amount: '500,000,000,000',
          channel: 'POS',
        },
      });
      expect(paid.status).toBe(201);
      const result = await call('invoice-pdf', { key, pathParameters: { reference_code: invoice.reference_code } });
      // Each word pdftotext finds: a number broken across lines (or columns) would be two.
      const words = pdfText(pdfBytes(result)).split(/\s+/);
      for (const amount of [
        '989,999,999,999.99',
        '10,000.00',
        '10,000,000,000.00',
        '999,999,999,999.99',
        '500,000,000,000.00',
        '499,999,999,999.99',
      ])
        expect(words, amount).toContain(`${sign}${amount}`);
      expect(words).toContain('1000000');
    },
  );
});

describe('the PDF text layer: what copy, search and screen readers read is the text drawn', () => {
  /** The text runs pdftotext finds, its -layout columns split apart, each exactly as extracted. */
  const runsOf = (pdf: Uint8Array) =>
    pdfText(pdf)
      .split('\n')
      .flatMap((line) => line.trim().split(/\s{2,}/))
      .filter(Boolean);

  /** An account's invoice and the runs its PDF must have: the merchant, the client, each item and description. */
  async function invoiceOf(merchant: string, client: [string, string], items: [string, string][]) {
    const { key } = await newAccount({ name: merchant });
    const invoice = await createInvoice(key, {
      client: { first_name: client[0], last_name: client[1], email: uniqueEmail(), phone: '+2348012345678' },
      items: items.map(([item, description]) => ({ item, description, unit_cost: '2500', quantity: '1' })),
    });
    const expected = [merchant, client.join(' '), ...items.flat()];
    return { key, invoice, expected };
  }

  it('is exactly the text of each invoice, whatever the process rendered before, across accounts and in any order', async () => {
    // Prepare: Yoruba names (dots below and tones: ọ ẹ ṣ with a grave or acute), and a plain one on another account
    const yoruba = await invoiceOf(
      'Ọlọ́runfẹ́mi Stores',
      ['Ṣọlá', 'Ọládẹ̀jọ'],
      [
        ['ọ̀bẹ̀ ẹ̀fọ́', 'Ẹ̀fọ́ rírò àti ìrẹsì'],
        ['Ṣọ́ọ̀ṣì hall', 'Ilé-iṣẹ́ ọjà Ọ̀yọ́'],
      ],
    );
    const plain = await invoiceOf('Acme Supplies', ['Bola', 'Johnson'], [['Office chairs', 'Steel frame, foam seat']]);
    const keyed = (of: typeof plain) =>
      call('invoice-pdf', { key: of.key, pathParameters: { reference_code: of.invoice.reference_code } });
    const hosted = (of: typeof plain) => hostedPdf(tokenOf(of.invoice.hosted_url));

    // Act and assess: one process, both orders, both routes
    for (const [of, route] of [
      [plain, keyed],
      [yoruba, hosted],
      [plain, hosted],
      [yoruba, keyed],
      [plain, keyed],
    ] as const) {
      const result = await route(of);
      expect(result.status).toBe(200);
      expect(runsOf(pdfBytes(result))).toEqual(expect.arrayContaining(of.expected));
    }
  });

  it('keeps the space after an invisible character (zero-width space, soft hyphen, word joiner, BOM) in the text', async () => {
    const descriptions = ['Rice\u200b 50kg bag', 'Beans\u00ad 20 bags', 'Yam\u2060 tubers x', 'Gari\ufeff white'];
    const { key, invoice } = await invoiceOf(
      'Àdùké Foods',
      ['Bisi', 'Ade'],
      descriptions.map((description) => ['Provisions', description]),
    );
    const result = await call('invoice-pdf', { key, pathParameters: { reference_code: invoice.reference_code } });
    const lines = pdfText(pdfBytes(result), 'raw').split('\n');
    expect(lines).toEqual(expect.arrayContaining(descriptions));
  });

  it('draws a character the font lacks (CJK, emoji) as U+FFFD, never an empty box, and says so in the text', async () => {
    const font = fontkit.create(readFileSync(fontPath(FONT_FILES.regular))) as fontkit.Font;
    const { key, invoice } = await invoiceOf('Wáng Trading', ['王', '芳'], [['👍🏽 Thumbs', 'Tea 茶, café']]);
    const result = await call('invoice-pdf', { key, pathParameters: { reference_code: invoice.reference_code } });
    // -raw: pdftotext's layout mode drops the space between two U+FFFD (it judges spaces by the gaps it sees).
    const lines = pdfText(pdfBytes(result), 'raw').split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['Wáng Trading INVOICE', '\uFFFD \uFFFD', '\uFFFD Thumbs', 'Tea \uFFFD, café']),
    );
    const text = lines.join('\n');
    const missing = Array.from(text).filter(
      (char) => !/\s/.test(char) && !font.hasGlyphForCodePoint(char.codePointAt(0)!),
    );
    expect(missing).toEqual([]);
  });
});

describe('invoices created before hosted pages', () => {
  it('have hosted_url null until data:migrate gives them a link; a second run finds nothing', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const oldToken = tokenOf(invoice.hosted_url);
    // What the previous version wrote: no token on the body, no link item.
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceBody(invoice.reference_code),
        UpdateExpression: 'REMOVE hosted_token',
      }),
    );
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: keys.hostedLink(oldToken) }));
    const byCode = { key, pathParameters: { reference_code: invoice.reference_code } };
    expect((await call('get-invoice', byCode)).body.data.hosted_url).toBeNull();
    expect((await page(oldToken)).status).toBe(404);

    expect(await migrateHostedLinks()).toBeGreaterThanOrEqual(1);
    const migrated = (await call('get-invoice', byCode)).body.data.hosted_url;
    expect(migrated).toMatch(/\/i\/[A-Za-z0-9_-]{24}$/);
    expect(tokenOf(migrated)).not.toBe(oldToken);
    expect((await page(tokenOf(migrated))).rawBody).toContain(invoice.reference_code);

    await migrateHostedLinks();
    expect((await call('get-invoice', byCode)).body.data.hosted_url).toBe(migrated);
  });
});
