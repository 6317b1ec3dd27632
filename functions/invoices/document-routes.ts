/**
 * The invoice as its client sees it (docs/sending-invoices.md): the hosted page and its PDF (no API key: the token in
 * the path is the key; errors are HTML pages), the keyed PDF and the keyed e-invoice (UBL XML). Parse → read the document → render → respond.
 */
import type { PublicRouteHandler, RouteHandler } from '../../shared/http/handler.ts';
import { pageResponse, pdfResponse, ublResponse } from '../../shared/http/page-responses.ts';
import { renderInvoicePdf, renderUbl } from '../../shared/render/engines.ts';
import { renderVoidedPage } from '../../shared/render/invoice-page.ts';
import { accountInvoiceDocument, hostedInvoiceDocument } from '../../shared/services/invoice-document.ts';
import { accountInvoiceUbl } from '../../shared/services/invoice-ubl.ts';
import { invoicePageResponse } from './payment-routes.ts';

/** GET /i/{token}: the page; 410 with a "voided" page for a voided invoice, 404 page for an unknown token. */
export const hostedPageRoute: PublicRouteHandler = async ({ pathParameters }) => {
  const document = await hostedInvoiceDocument(pathParameters.token ?? '');
  if (document.status === 'void') return pageResponse(410, renderVoidedPage(document));
  return invoicePageResponse(200, document);
};

/** GET /i/{token}/pdf: the PDF; a voided invoice answers 410 as its page does. */
export const hostedPdfRoute: PublicRouteHandler = async ({ pathParameters }) => {
  const document = await hostedInvoiceDocument(pathParameters.token ?? '');
  if (document.status === 'void') return pageResponse(410, renderVoidedPage(document));
  return pdfResponse(await renderInvoicePdf(document), document.referenceCode);
};

/** GET /invoices/{reference_code}/pdf (API key): the PDF; a voided invoice's is marked VOID. */
export const invoicePdfRoute: RouteHandler = async ({ context, pathParameters }) => {
  const document = await accountInvoiceDocument(context, pathParameters.reference_code ?? '');
  return pdfResponse(await renderInvoicePdf(document), document.referenceCode);
};

/** GET /invoices/{reference_code}/ubl (API key): the e-invoice; the UBL engine loads on the first one rendered. */
export const invoiceUblRoute: RouteHandler = async ({ context, pathParameters }) => {
  const referenceCode = pathParameters.reference_code ?? '';
  return ublResponse(await renderUbl(await accountInvoiceUbl(context, referenceCode)), referenceCode);
};
