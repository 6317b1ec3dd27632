/**
 * The answers of the routes people open (docs/sending-invoices.md): HTML pages and PDFs, with the headers that keep
 * them private and inert — a Content-Security-Policy (a page's allows only its own stylesheet; a PDF's nothing), no
 * caching, no indexing, no referrer. The pages themselves are shared/render/'s.
 */
import { loadConfig } from '../config.ts';
import { PAGE_STYLE_SOURCE } from '../render/page-style.ts';
import type { HttpResponse } from './envelope.ts';

/**
 * `default-src 'none'` plus only what the pages use: their one inline stylesheet, allowed by its hash; and, on a page
 * with the pay button, its form's targets (`formAction`).
 */
export function contentSecurityPolicy(
  styleSources: readonly string[] = [PAGE_STYLE_SOURCE],
  formAction: readonly string[] = ["'none'"],
  imageSources: readonly string[] = [],
): string {
  return [
    "default-src 'none'",
    `style-src ${styleSources.join(' ')}`,
    ...(imageSources.length > 0 ? [`img-src ${imageSources.join(' ')}`] : []),
    "base-uri 'none'",
    `form-action ${formAction.join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * A PDF's policy: it loads nothing and may not be framed, and `sandbox` gives it an opaque origin, so that whatever a
 * viewer runs of it (PDF scripts, forms, or the bytes taken for another type) runs with no access to this origin.
 * Browsers' PDF viewers show it as before (checked in Chromium by test/docs/hosted-page-browser.test.ts).
 */
export const PDF_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** Headers of every hosted answer (page or PDF): private, never cached, never indexed, no referrer sent on. */
const PRIVATE_HEADERS = {
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export function pageResponse(statusCode: number, html: string, headers: Record<string, string> = {}): HttpResponse {
  return {
    statusCode,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(),
      ...PRIVATE_HEADERS,
      ...headers,
    },
    body: html,
  };
}

/**
 * A page with the pay button (docs/getting-paid-online.md "The pay button"): its form posts to the page itself, whose
 * answer leads on to Paystack's checkout — browsers hold that redirect to `form-action` too, so the CSP names the
 * checkout's origin (PAYSTACK_CHECKOUT_ORIGIN) and nothing else.
 */
export function payablePageResponse(
  statusCode: number,
  html: string,
  imageSources: readonly string[] = [],
): HttpResponse {
  const formAction = ["'self'", loadConfig().paystackCheckoutOrigin];
  return pageResponse(statusCode, html, {
    'content-security-policy': contentSecurityPolicy([PAGE_STYLE_SOURCE], formAction, imageSources),
  });
}

/**
 * An invoice's page showing the merchant's logo (docs/accounts.md "The logo"): the logo is a `data:` URL, so the CSP
 * allows `data:` images and nothing else (`img-src data:`); a page without a logo allows no image at all.
 */
export function pageWithImagesResponse(
  statusCode: number,
  html: string,
  imageSources: readonly string[],
): HttpResponse {
  return pageResponse(statusCode, html, {
    'content-security-policy': contentSecurityPolicy([PAGE_STYLE_SOURCE], ["'none'"], imageSources),
  });
}

/** A 303 to Paystack's checkout (its `authorization_url`), with the hosted pages' private headers. */
export function checkoutRedirect(location: string): HttpResponse {
  return { statusCode: 303, headers: { location, ...PRIVATE_HEADERS }, body: '' };
}

/** `Content-Disposition: inline; filename="invoice-<reference_code>.pdf"` (reference codes are alphanumeric). */
export const pdfFileName = (referenceCode: string): string =>
  `invoice-${referenceCode.replace(/[^A-Za-z0-9]/g, '')}.pdf`;

/** An invoice's PDF, base64-encoded as API Gateway's payload 2.0 carries binary bodies. */
export const pdfResponse = (pdf: Uint8Array, referenceCode: string): HttpResponse =>
  namedPdfResponse(pdf, pdfFileName(referenceCode));

/** A PDF named `fileName` (letters, digits, dots and dashes only: it is not quoted further). */
export function namedPdfResponse(pdf: Uint8Array, fileName: string): HttpResponse {
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${fileName.replace(/[^A-Za-z0-9.-]/g, '')}"`,
      'content-security-policy': PDF_CONTENT_SECURITY_POLICY,
      ...PRIVATE_HEADERS,
    },
    body: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('base64'),
    isBase64Encoded: true,
  };
}

/**
 * An invoice's e-invoice (docs/e-invoice.md "The API"): UBL XML, offered as a download named by its reference code,
 * with the hosted answers' private headers and the PDF's inert policy (a browser that renders XML runs nothing).
 */
export const ublResponse = (xml: string, referenceCode: string): HttpResponse =>
  namedUblResponse(xml, `invoice-${referenceCode.replace(/[^A-Za-z0-9]/g, '')}.xml`);

/** UBL XML offered as a download named `fileName` (letters, digits, dots and dashes only: it is not quoted further). */
export function namedUblResponse(xml: string, fileName: string): HttpResponse {
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName.replace(/[^A-Za-z0-9.-]/g, '')}"`,
      'content-security-policy': PDF_CONTENT_SECURITY_POLICY,
      ...PRIVATE_HEADERS,
    },
    body: xml,
  };
}
