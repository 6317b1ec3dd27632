/**
 * docs/accounts.md "The logo": the merchant's logo on the hosted page (a `data:` URL, and a CSP allowing `data:`
 * images and nothing else), in the invoice's and the statement's PDF, through API Gateway-shaped events on DynamoDB
 * Local. The e-mails' inline logo is shown by test/integration/statement-documents.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkLogo, type Logo } from '../../shared/domain/logo.ts';
import { setAccountLogo } from '../../shared/store/account-logo.ts';
import { call, createInvoice, newAccount } from '../support/api.ts';
import { pdfImages } from '../support/pdf-text.ts';
import { solidPng } from '../support/png.ts';

const tokenOf = (hostedUrl: string) => new URL(hostedUrl).pathname.split('/')[2]!;
const pdfBytes = (result: { rawBody: string }) => Buffer.from(result.rawBody, 'base64');

function pngLogo(width: number, height: number): Logo {
  const checked = checkLogo({ format: 'png', width, height, bytes: solidPng(width, height) });
  if (!checked.ok) throw new Error(checked.message);
  return checked.value;
}

async function invoiceOfAccountWithLogo(logo: Logo | undefined) {
  const { account, key } = await newAccount({ name: 'Logo & Co' });
  if (logo) await setAccountLogo(account.companyId, logo);
  const invoice = await createInvoice(key);
  return { account, key, invoice };
}

describe('the logo on the hosted page', () => {
  it('is an <img> of a data: URL, and the CSP allows data: images only', async () => {
    const logo = pngLogo(120, 40);
    const { invoice } = await invoiceOfAccountWithLogo(logo);

    const page = await call('hosted-invoice-page', { pathParameters: { token: tokenOf(invoice.hosted_url) } });

    expect(page.status).toBe(200);
    const dataUrl = `data:image/png;base64,${Buffer.from(logo.bytes).toString('base64')}`;
    expect(page.rawBody).toContain(`<img class="logo" src="${dataUrl}" alt="Logo &amp; Co" width="120" height="40">`);
    const csp = page.headers['content-security-policy']!;
    expect(csp).toContain('img-src data:;');
    expect(csp).toMatch(/^default-src 'none';/);
  });

  it('is absent, and no image is allowed, for an account without one', async () => {
    const { invoice } = await invoiceOfAccountWithLogo(undefined);
    const page = await call('hosted-invoice-page', { pathParameters: { token: tokenOf(invoice.hosted_url) } });
    expect(page.rawBody).not.toContain('<img');
    expect(page.headers['content-security-policy']).not.toContain('img-src');
  });

  it('goes when removed', async () => {
    const { account, invoice } = await invoiceOfAccountWithLogo(pngLogo(64, 64));
    await setAccountLogo(account.companyId, undefined);
    const page = await call('hosted-invoice-page', { pathParameters: { token: tokenOf(invoice.hosted_url) } });
    expect(page.rawBody).not.toContain('<img');
  });
});

describe('the logo in the PDFs', () => {
  it("is drawn on the invoice's PDF and on the statement's", async () => {
    const { key, invoice } = await invoiceOfAccountWithLogo(pngLogo(300, 100));

    const invoicePdf = await call('invoice-pdf', { key, pathParameters: { reference_code: invoice.reference_code } });
    const statementPdf = await call('client-statement', {
      key,
      pathParameters: { id: String(invoice.client.id) },
      body: { period: 'today' },
      headers: { accept: 'application/pdf' },
    });

    expect(pdfImages(pdfBytes(invoicePdf))).toEqual([{ width: 300, height: 100 }]);
    expect(pdfImages(pdfBytes(statementPdf))).toEqual([{ width: 300, height: 100 }]);
  });

  it('is not drawn for an account without one', async () => {
    const { key, invoice } = await invoiceOfAccountWithLogo(undefined);
    const invoicePdf = await call('invoice-pdf', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(pdfImages(pdfBytes(invoicePdf))).toEqual([]);
  });
});
