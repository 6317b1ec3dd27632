/**
 * The OpenAPI answers of the routes that are not JSON (docs/sending-invoices.md): the hosted page (HTML, errors
 * included — the one exception to the JSON error envelope) and the PDFs. document.ts puts them into operations whose
 * spec has `success.media` (operations.ts).
 */
import { PDF_CONTENT_SECURITY_POLICY } from '../http/page-responses.ts';

const SECURITY_HEADERS = {
  'Cache-Control': { description: 'Always `no-store`.', schema: { type: 'string', enum: ['no-store'] } },
  'X-Robots-Tag': { description: 'Never indexed.', schema: { type: 'string' } },
  'Referrer-Policy': { description: 'Always `no-referrer`.', schema: { type: 'string', enum: ['no-referrer'] } },
};

const CSP = {
  'Content-Security-Policy': {
    description:
      "`default-src 'none'` plus only the page's own inline stylesheet, by its hash: no script, nothing from another " +
      "origin. A page with the pay button also allows its form: `form-action 'self'` and Paystack's checkout origin.",
    schema: { type: 'string' },
  },
};

const html = (description: string, extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...CSP, ...SECURITY_HEADERS, ...extraHeaders },
  content: { 'text/html': { schema: { type: 'string' } } },
});

/** A PDF answer. */
export function pdfAnswer(description: string) {
  return {
    description,
    headers: {
      'Content-Disposition': {
        description: '`inline; filename="invoice-<reference_code>.pdf"`',
        schema: { type: 'string', pattern: '^inline; filename="invoice-[A-Za-z0-9]+\\.pdf"$' },
      },
      'Content-Security-Policy': {
        description:
          `Always \`${PDF_CONTENT_SECURITY_POLICY}\`: the PDF loads nothing and is not framed, and ` +
          'whatever a viewer runs of it has an origin of its own.',
        schema: { type: 'string', enum: [PDF_CONTENT_SECURITY_POLICY] },
      },
      ...SECURITY_HEADERS,
    },
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  };
}

/** The e-invoice: UBL XML, a download (docs/e-invoice.md "The API"). */
export function xmlAnswer(description: string) {
  return {
    description,
    headers: {
      'Content-Disposition': {
        description: '`attachment; filename="invoice-<reference_code>.xml"`',
        schema: { type: 'string', pattern: '^attachment; filename="invoice-[A-Za-z0-9]+\\.xml"$' },
      },
      'Content-Security-Policy': {
        description: `Always \`${PDF_CONTENT_SECURITY_POLICY}\`, as a PDF's: a browser that renders the XML runs nothing.`,
        schema: { type: 'string', enum: [PDF_CONTENT_SECURITY_POLICY] },
      },
      ...SECURITY_HEADERS,
    },
    content: { 'application/xml': { schema: { type: 'string' } } },
  };
}

/** A redirect (the pay button's answer: 303 to Paystack's checkout). */
export const redirectAnswer = (description: string) => ({
  description,
  headers: {
    Location: { description: "Paystack's `authorization_url`", schema: { type: 'string', format: 'uri' } },
    ...SECURITY_HEADERS,
  },
});

/** A successful HTML page. */
export const pageAnswer = (description: string) => html(description);

/** The HTML answers every public route may give besides its success: 404, 410, 500 and 503 pages. */
export const PAGE_ERRORS: Record<string, unknown> = {
  '404': html('No invoice has this link (or it is malformed): a "not found" page. It says nothing about any invoice.'),
  '410': html('The invoice was voided: a page saying so, with the merchant and the invoice number and reference code.'),
  '500': html('Internal error: a "cannot be shown right now" page (nothing about the cause; it is logged).'),
  '503': html('Temporarily unavailable: a "cannot be shown right now" page; retry after `Retry-After` seconds.', {
    'Retry-After': { $ref: '#/components/headers/Retry-After' },
  }),
};
