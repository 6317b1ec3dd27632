/** Invoice routes: parse → call the service → respond (docs/api.md). */
import { todayForOverdue } from '../../shared/clock.ts';
import { loadConfig } from '../../shared/config.ts';
import { ApiError } from '../../shared/errors.ts';
import { jsonResponse, successBody } from '../../shared/http/envelope.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { idempotencyKeyOf, writeResponse } from '../../shared/http/responses.ts';
import { invoiceView } from '../../shared/http/views.ts';
import { invoiceAnswers, invoiceDeletionAnswers, sendAnswers } from '../../shared/http/write-answers.ts';
import { countInvoiceCreated } from '../../shared/observability.ts';
import { addInvoiceSchema, withFlatClient } from '../../shared/schemas/invoice.ts';
import { sendInvoiceSchema, toSendRequest } from '../../shared/schemas/send.ts';
import { addInvoice } from '../../shared/services/add-invoice.ts';
import { deleteInvoice } from '../../shared/services/delete-invoice.ts';
import { getInvoice } from '../../shared/services/read-invoice.ts';
import { sendInvoice } from '../../shared/services/send-invoice.ts';
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

/** GET /invoices/send/{reference_code}: the SDKs' send, to the invoice's client (docs/api.md "Send an invoice"). */
export const sendInvoiceRoute: RouteHandler = async ({ account, headers, pathParameters, requestId }) => {
  const idempotencyKey = idempotencyKeyOf(headers);
  requireMailSender();
  const request = { referenceCode: pathParameters.reference_code ?? '' };
  return writeResponse(await sendInvoice({ account, requestId, idempotencyKey }, request, sendAnswers, 'send-invoice'));
};

/** POST /invoices/{reference_code}/send: optional `to`, `cc` and `message`. */
export const emailInvoiceRoute: RouteHandler = async ({ account, body, headers, pathParameters, requestId }) => {
  const input = toSendRequest(parseRequest(sendInvoiceSchema, body ?? {}));
  const idempotencyKey = idempotencyKeyOf(headers);
  requireMailSender();
  const request = { ...input, referenceCode: pathParameters.reference_code ?? '' };
  return writeResponse(
    await sendInvoice({ account, requestId, idempotencyKey }, request, sendAnswers, 'email-invoice'),
  );
};

/** A stage without a sender cannot e-mail anything: say which setting is missing (501), before any database work. */
function requireMailSender(): void {
  if (loadConfig().mailFrom) return;
  throw new ApiError(
    'mail_not_configured',
    'This stage has no e-mail sender: set the stage setting `mailFrom` (MAIL_FROM) to a verified SES identity (docs/deploying.md "E-mail").',
  );
}
