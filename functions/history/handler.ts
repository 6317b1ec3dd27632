/**
 * The history function (docs/api.md "Payment history and pagination", "Aging", "Client statement"; docs/tax.md "Tax
 * report"): every `…/history`
 * listing and every report.
 */
import { createApiFunction } from '../../shared/http/api-function.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { historyResponse, invoiceHistoryResponse, resumePosition } from '../../shared/http/history-page.ts';
import { withLinkCursor } from '../../shared/http/report-page.ts';
import { invoiceHistorySchema, paymentHistorySchema } from '../../shared/schemas/history.ts';
import { invoiceHistory } from '../../shared/services/invoice-history.ts';
import { paymentHistory } from '../../shared/services/payment-history.ts';
import { parseRequest } from '../../shared/validation.ts';
import { agingReportRoute, clientStatementRoute, taxReportRoute } from './report-routes.ts';

const PERIOD_FIELDS = { periodFields: ['period', 'start', 'end'] };

/** POST /payments/history (also GET, with a JSON body, as the pypayant SDK sends it) */
const paymentHistoryRoute: RouteHandler = async ({ context, body, query, path, format }) => {
  const input = parseRequest(paymentHistorySchema, withLinkCursor(body, query), PERIOD_FIELDS);
  const page = await paymentHistory(context, input, resumePosition(context.account, input.cursor));
  return historyResponse(page, context.account, { format, path });
};

/** POST /invoices/history (also GET with a JSON body) */
const invoiceHistoryRoute: RouteHandler = async ({ context, body, query, path, format }) => {
  const input = parseRequest(invoiceHistorySchema, withLinkCursor(body, query), PERIOD_FIELDS);
  const page = await invoiceHistory(context, input, resumePosition(context.account, input.cursor));
  return invoiceHistoryResponse(page, context.account, { format, path });
};

export const handler = createApiFunction('history', {
  'payment-history': paymentHistoryRoute,
  'invoice-history': invoiceHistoryRoute,
  'aging-report': agingReportRoute,
  'client-statement': clientStatementRoute,
  'tax-report': taxReportRoute,
});
