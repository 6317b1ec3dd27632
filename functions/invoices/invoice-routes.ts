/** Invoice routes: parse → call the service → respond (docs/api.md, SPEC §5 and §13). */
import { todayForOverdue } from '../../shared/clock.ts';
import { jsonResponse, successBody } from '../../shared/http/envelope.ts';
import { ApiError } from '../../shared/http/errors.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { idempotencyKeyOf, writeResponse } from '../../shared/http/responses.ts';
import { invoiceView } from '../../shared/http/views.ts';
import { invoiceAnswers, invoiceDeletionAnswers } from '../../shared/http/write-answers.ts';
import { countInvoiceCreated } from '../../shared/observability.ts';
import { isFailure } from '../../shared/outcome.ts';
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
  if (!isFailure(result.response) && !result.replayed) countInvoiceCreated();
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

/** GET /invoices/send/{reference_code}: e-mailing invoices is not offered (SPEC §13), said plainly after authentication. */
export const sendInvoiceRoute: RouteHandler = async () => {
  throw new ApiError(
    'not_implemented',
    'Sending invoices by e-mail is not offered by this service. Share the invoice with your client yourself.',
  );
};
