/**
 * Getting paid online (docs/getting-paid-online.md): the pay button's form and the return from Paystack's checkout
 * (for people: HTML answers, errors included), and Paystack's webhook (JSON). Parse → call a service → respond.
 */
import { outcomeResponse } from '../../shared/http/envelope.ts';
import type { ProviderRouteHandler, PublicRouteHandler } from '../../shared/http/handler.ts';
import {
  checkoutRedirect,
  pageResponse,
  pageWithImagesResponse,
  payablePageResponse,
} from '../../shared/http/page-responses.ts';
import type { InvoiceDocument } from '../../shared/render/invoice-document.ts';
import { renderInvoicePage, renderVoidedPage } from '../../shared/render/invoice-page.ts';
import type { PageNotice } from '../../shared/render/invoice-page-payments.ts';
import { providerEventReceived } from '../../shared/representation/online-answers.ts';
import { startCheckout } from '../../shared/services/online-checkout.ts';
import { confirmReturn } from '../../shared/services/online-return.ts';
import { receiveProviderEvent } from '../../shared/services/provider-events.ts';

/** The invoice page with a notice on top; with the pay button's CSP when the page shows the button. */
export function invoicePageResponse(status: number, document: InvoiceDocument, notice?: PageNotice) {
  const page = renderInvoicePage(document, notice);
  const images = document.merchant.logo ? ['data:'] : [];
  return document.payments?.payOnline
    ? payablePageResponse(status, page, images)
    : pageWithImagesResponse(status, page, images);
}

/** POST /i/{token}/pay: 303 to Paystack's checkout, or the page again with why not (410 for a voided invoice). */
export const hostedPayRoute: PublicRouteHandler = async ({ pathParameters }) => {
  const answer = await startCheckout(pathParameters.token ?? '');
  if (answer.kind === 'checkout') return checkoutRedirect(answer.location);
  if (answer.document.status === 'void') return pageResponse(410, renderVoidedPage(answer.document));
  const notice = answer.notice === undefined ? undefined : { kind: 'message' as const, text: answer.notice };
  return invoicePageResponse(200, answer.document, notice);
};

/**
 * GET /i/{token}/paid?reference=… (Paystack also sends `trxref`): the receipt, or "being confirmed"; a voided
 * invoice's page (410) with what became of the payment (refunded).
 */
export const hostedPaidRoute: PublicRouteHandler = async ({ pathParameters, query }) => {
  const reference = query.reference ?? query.trxref;
  const answer = await confirmReturn(pathParameters.token ?? '', reference);
  if (answer.document.status === 'void') return pageResponse(410, renderVoidedPage(answer.document, answer.notice));
  return invoicePageResponse(200, answer.document, answer.notice);
};

/** POST /paystack/events/{hook_id}: 200 once the signed event is stored; 401 unsigned, 404 unknown hook. */
export const paystackEventRoute: ProviderRouteHandler = async ({ pathParameters, headers, body }) => {
  const { eventId } = await receiveProviderEvent(pathParameters.hook_id ?? '', body, headers['x-paystack-signature']);
  return outcomeResponse(providerEventReceived(eventId));
};
