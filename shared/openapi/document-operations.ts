/**
 * The operations of the invoice's page and PDFs (docs/sending-invoices.md), for operations.ts: the keyed PDF, and the
 * hosted page and its PDF, which are opened without an API key and answer HTML pages (page-responses.ts).
 */
import type { OperationSpec } from './operations.ts';

export const DOCUMENT_OPERATIONS = {
  'invoice-pdf': {
    operationId: 'getInvoicePdf',
    summary: 'Get the invoice as a PDF',
    description:
      'The invoice on A4, with the same content as its hosted page (the merchant profile, the client, number and reference ' +
      'code, dates, items, totals, payment status and payment instructions), text selectable. A voided invoice answers ' +
      '200 with a PDF marked VOID. `Content-Disposition: inline; filename="invoice-<reference_code>.pdf"`.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    success: { status: 200, media: 'application/pdf', description: 'The PDF.' },
    idempotent: false,
    errors: ['invalid_api_key', 'internal_error', 'service_unavailable', 'invoice_not_found'],
  },
  'hosted-invoice-page': {
    operationId: 'getHostedInvoicePage',
    summary: 'The hosted invoice page (for the client, no API key)',
    description:
      "The page an invoice's `hosted_url` opens: the invoice as the client should read it, on a phone or printed. No API " +
      'key: the 144-bit random token in the path is the credential. No script, nothing from another origin, everything ' +
      'escaped; `Content-Security-Policy`, `Cache-Control: no-store`, `X-Robots-Tag: noindex`, `Referrer-Policy: ' +
      'no-referrer`. Every answer is an HTML page, errors included (docs/sending-invoices.md).',
    tag: 'Hosted pages',
    parameters: ['HostedToken'],
    success: { status: 200, media: 'text/html', description: 'The invoice page.' },
    idempotent: false,
    errors: [],
    public: true,
  },
  'hosted-invoice-pdf': {
    operationId: 'getHostedInvoicePdf',
    summary: 'The hosted invoice as a PDF (for the client, no API key)',
    description:
      'The PDF of the hosted page (`hosted_url` + `/pdf`), the same as the keyed PDF route. A voided invoice answers 410 ' +
      'with the "voided" page, as the page does. Errors are HTML pages.',
    tag: 'Hosted pages',
    parameters: ['HostedToken'],
    success: { status: 200, media: 'application/pdf', description: 'The PDF.' },
    idempotent: false,
    errors: [],
    public: true,
  },
} satisfies Record<'invoice-pdf' | 'hosted-invoice-page' | 'hosted-invoice-pdf', OperationSpec>;
