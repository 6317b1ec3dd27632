/** The history function (docs/api.md "Payment history and pagination"): every `…/history` listing. */
import { createApiFunction } from '../../shared/http/api-function.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { historyResponse, invoiceHistoryResponse, resumePosition } from '../../shared/http/history-page.ts';
import { invoiceHistorySchema, paymentHistorySchema } from '../../shared/schemas/history.ts';
import { invoiceHistory } from '../../shared/services/invoice-history.ts';
import { paymentHistory } from '../../shared/services/payment-history.ts';
import { parseRequest } from '../../shared/validation.ts';

const PERIOD_FIELDS = { periodFields: ['period', 'start', 'end'] };

/** POST /payments/history (also GET, with a JSON body, as the pypayant SDK sends it) */
const paymentHistoryRoute: RouteHandler = async ({ context, body }) => {
  const input = parseRequest(paymentHistorySchema, body, PERIOD_FIELDS);
  const page = await paymentHistory(context, input, resumePosition(context.account, input.cursor));
  return historyResponse(page, context.account);
};

/** POST /invoices/history (also GET with a JSON body) */
const invoiceHistoryRoute: RouteHandler = async ({ context, body }) => {
  const input = parseRequest(invoiceHistorySchema, body, PERIOD_FIELDS);
  const page = await invoiceHistory(context, input, resumePosition(context.account, input.cursor));
  return invoiceHistoryResponse(page, context.account);
};

export const handler = createApiFunction('history', {
  'payment-history': paymentHistoryRoute,
  'invoice-history': invoiceHistoryRoute,
});
