/** The hosted page's HTML (shared/render/invoice-page.ts) and its headers (shared/http/page-responses.ts). */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, pageResponse, pdfFileName, pdfResponse } from '../../shared/http/page-responses.ts';
import type { InvoiceDocument } from '../../shared/render/invoice-document.ts';
import {
  escapeHtml,
  renderInvoicePage,
  renderNotFoundPage,
  renderVoidedPage,
} from '../../shared/render/invoice-page.ts';
import { PAGE_STYLE, PAGE_STYLE_SOURCE } from '../../shared/render/page-style.ts';

function document(text = 'Design'): InvoiceDocument {
  return {
    merchant: { name: `${text} Ltd`, address: [text], contacts: [{ label: 'Phone', value: text }] },
    client: { name: text, company: text, address: [] },
    number: '1042',
    referenceCode: 'AB12CD34EF56GH78IJ90',
    issued: { text: '1 Dec 2030', iso: '2030-12-01' },
    due: { text: '30 Dec 2030', iso: '2030-12-30' },
    currency: 'NGN',
    lines: [{ name: text, description: text, quantity: '1', unitCost: '₦1.00', lineTotal: '₦1.00' }],
    split: [],
    total: '₦1.00',
    amountPaid: '₦0.00',
    amountDue: '₦1.00',
    status: 'unpaid',
    statusLabel: 'Unpaid',
    paymentInstructions: [{ label: 'Bank', value: text }],
    hostedUrl: 'https://pay.example.com/i/TTTTTTTTTTTTTTTTTTTTTTTT',
  };
}

/** Every tag name in the page. */
const tagsOf = (html: string) => [...html.matchAll(/<([a-z][a-z0-9]*)/gi)].map((m) => m[1]!.toLowerCase());
const ALLOWED_TAGS = new Set(
  'html head meta title style body main article section div h1 h2 p dl dt dd span time table thead tbody tr th td a footer'.split(
    ' ',
  ),
);

describe('renderInvoicePage', () => {
  it('escapes every text users typed: no markup of theirs survives, whatever they type', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (typed) => {
        const html = renderInvoicePage(document(typed));
        expect(tagsOf(html).every((tag) => ALLOWED_TAGS.has(tag))).toBe(true);
        expect(html).toContain(escapeHtml(typed));
      }),
    );
    const html = renderInvoicePage(document('<script>alert(1)</script>'));
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('has no script, no style attribute, nothing loaded, and links only to its own PDF', () => {
    const html = renderInvoicePage(document());
    expect(html).not.toMatch(/<script|<link|<img|style="|src=|url\(|@import/i);
    expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'https://pay.example.com/i/TTTTTTTTTTTTTTTTTTTTTTTT/pdf',
    ]);
    expect(html).toContain(`<style>${PAGE_STYLE}</style>`);
  });

  it('leaves out what is not there: no PDF link without a hosted URL, no payment section for a void invoice', () => {
    const html = renderInvoicePage({ ...document(), hostedUrl: null, paymentInstructions: [], status: 'void' });
    expect(html).not.toContain('href=');
    expect(html).not.toContain('How to pay');
  });

  it('the 404 page names no invoice; the 410 page says it was voided', () => {
    expect(renderNotFoundPage()).not.toMatch(/AB12CD34EF56GH78IJ90|1042/);
    const voided = renderVoidedPage({ ...document('<b>x</b>'), status: 'void' });
    expect(voided).toContain('This invoice was voided');
    expect(voided).toContain('&lt;b&gt;x&lt;/b&gt; Ltd');
  });
});

describe('the headers', () => {
  it("CSP: default-src 'none' and exactly the stylesheet's hash", () => {
    const hash = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;
    expect(PAGE_STYLE_SOURCE).toBe(hash);
    expect(contentSecurityPolicy()).toBe(
      `default-src 'none'; style-src ${hash}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
  });

  it('pages and PDFs are never cached, indexed or given a referrer', () => {
    const page = pageResponse(410, '<p>x</p>');
    expect(page.statusCode).toBe(410);
    const pdf = pdfResponse(new Uint8Array([37, 80, 68, 70]), 'AB12');
    for (const headers of [page.headers, pdf.headers])
      expect(headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    expect(pdf).toMatchObject({ isBase64Encoded: true, body: Buffer.from('%PDF').toString('base64') });
    // Nothing loads, nothing runs, no framing; `sandbox`: an opaque origin, so nothing a viewer runs reaches this one.
    expect(pdf.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    expect(pdf.headers['content-disposition']).toBe('inline; filename="invoice-AB12.pdf"');
    expect(pdfFileName('a"b/c\\d')).toBe('invoice-abcd.pdf');
  });
});
