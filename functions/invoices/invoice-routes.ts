/** Invoice routes: parse → call the service → respond (docs/api.md, SPEC §5 and §13). */
import { todayForOverdue } from '../../shared/clock.ts';
import { ApiError } from '../../shared/errors.ts';
import { jsonResponse, successBody } from '../../shared/http/envelope.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { idempotencyKeyOf, writeResponse } from '../../shared/http/responses.ts';
import { invoiceView } from '../../shared/http/views.ts';
import { invoiceAnswers, invoiceDeletionAnswers } from '../../shared/http/write-answers.ts';
import { countInvoiceCreated } from '../../shared/observability.ts';
import { addInvoiceSchema, withFlatClient } from '../../shared/schemas/invoice.ts';
import { addInvoice } from '../../shared/services/add-invoice.ts';
import { deleteInvoice } from '../../shared/services/delete-invoice.ts';
import { getInvoice } from '../../shared/services/read-invoice.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /invoices */
export const addInvoiceRoute: RouteHandler = async ({ account, body, headers, requestId }) => {
  const input = parseRequest(addInvoiceSchema, withFlatClient(body));
  const idempotencyKey = idempotencyKeyOf(headers);
  const result = await addInvoice({ account, requestId, idempotencyKey }, input, invoiceAnswers);
  if (result.response.status === 201 && !result.replayed) countInvoiceCreated();
  return writeResponse(result);
};

/** GET /invoices/{reference_code} */
export const getInvoiceRoute: RouteHandler = async ({ account, pathParameters }) => {
  const invoice = await getInvoice(account, pathParameters.reference_code ?? '');
  const today = todayForOverdue(account.timeZone);
  return jsonResponse(200, successBody(invoiceView(invoice, { today, withClient: true })));
};

/** DELETE /invoices/{reference_code} */
export const deleteInvoiceRoute: RouteHandler = async ({ account, pathParameters, requestId }) => {
  const context = { account, requestId, idempotencyKey: undefined };
  return writeResponse(await deleteInvoice(context, pathParameters.reference_code ?? '', invoiceDeletionAnswers));
};

/**
 * GET /invoices/send/{reference_code}: e-mailing invoices is not offered (SPEC §13), said plainly after authentication
 * for an invoice of the account; any other reference is 404 `invoice_not_found`, as on every route that names one.
 */
export const sendInvoiceRoute: RouteHandler = async ({ account, pathParameters }) => {
  await getInvoice(account, pathParameters.reference_code ?? '');
  throw new ApiError(
    'not_implemented',
    'Sending invoices by e-mail is not offered by this service. Share the invoice with your client yourself.',
  );
};
