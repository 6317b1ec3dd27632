/** Recurring-invoice routes: parse → call the service → respond (docs/recurring-invoices.md). */
import { outcomeResponse, withIdempotencyKey, writeResponse } from '../../shared/http/envelope.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { clientListPosition, recurringListResponse } from '../../shared/http/history-page.ts';
import { withFlatClient } from '../../shared/schemas/invoice.ts';
import { invoiceTemplateOf, listRecurringSchema, recurringInvoiceSchema } from '../../shared/schemas/recurring.ts';
import {
  changeRecurring,
  createRecurring,
  getRecurring,
  listRecurring,
} from '../../shared/services/recurring-invoices.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /recurring-invoices: the add-invoice body (without `due_date`) with `schedule` and `send`. */
export const createRecurringRoute: RouteHandler = async ({ context, body, headers }) => {
  const request = withFlatClient(body);
  const input = parseRequest(recurringInvoiceSchema, request);
  return writeResponse(await createRecurring(withIdempotencyKey(context, headers), input, invoiceTemplateOf(request)));
};

/** GET /recurring-invoices (limit and cursor in the query string) */
export const listRecurringRoute: RouteHandler = async ({ context, query }) => {
  const input = parseRequest(listRecurringSchema, query);
  const page = await listRecurring(context, input, clientListPosition(context.account, input.cursor));
  return recurringListResponse(page, context.account);
};

/** GET /recurring-invoices/{id} */
export const getRecurringRoute: RouteHandler = async ({ context, pathParameters }) =>
  outcomeResponse(await getRecurring(context, pathParameters.id ?? ''));

/** POST /recurring-invoices/{id}/pause|resume|cancel */
const changeRoute =
  (action: 'pause' | 'resume' | 'cancel'): RouteHandler =>
  async ({ context, headers, pathParameters }) =>
    writeResponse(await changeRecurring(withIdempotencyKey(context, headers), pathParameters.id ?? '', action));

export const pauseRecurringRoute = changeRoute('pause');
export const resumeRecurringRoute = changeRoute('resume');
export const cancelRecurringRoute = changeRoute('cancel');
