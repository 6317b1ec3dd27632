/** The history function (SPEC §8, §13): every `…/history` listing. */
import { createApiFunction } from '../../shared/http/api-function.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import {
  historyOptions,
  historyResponse,
  invoiceHistoryOptions,
  invoiceHistoryResponse,
} from '../../shared/http/history-page.ts';
import { invoiceHistorySchema, paymentHistorySchema } from '../../shared/schemas/history.ts';
import { invoiceHistory } from '../../shared/services/invoice-history.ts';
import { paymentHistory } from '../../shared/services/payment-history.ts';
import { parseRequest } from '../../shared/validation.ts';

const PERIOD_FIELDS = { periodFields: ['period', 'start', 'end'] };

/** POST /payments/history (also GET, with a JSON body, as the pypayant SDK sends it) */
const paymentHistoryRoute: RouteHandler = async ({ account, body }) => {
  const input = parseRequest(paymentHistorySchema, body, PERIOD_FIELDS);
  const page = await paymentHistory(account, input, historyOptions(account, input.cursor));
  return historyResponse(page, account);
};

/** POST /invoices/history (also GET with a JSON body) */
const invoiceHistoryRoute: RouteHandler = async ({ account, body }) => {
  const input = parseRequest(invoiceHistorySchema, body, PERIOD_FIELDS);
  const page = await invoiceHistory(account, input, invoiceHistoryOptions(account, input.cursor));
  return invoiceHistoryResponse(page, account);
};

export const handler = createApiFunction('history', {
  'payment-history': paymentHistoryRoute,
  'invoice-history': invoiceHistoryRoute,
});
