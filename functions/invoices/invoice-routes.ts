/**
 * Invoice routes: parse → call the service → respond (docs/api.md "Add invoice", "Invoices: read, list, delete",
 * "Send an invoice", "Reminders"; docs/tax.md "Credit notes").
 */
import { outcomeResponse, withIdempotencyKey, writeResponse } from '../../shared/http/envelope.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { countInvoiceCreated } from '../../shared/observability.ts';
import { isFailure } from '../../shared/outcome.ts';
import { creditNoteSchema, toCreditNoteRequest } from '../../shared/schemas/credit-note.ts';
import { addInvoiceSchema, withFlatClient } from '../../shared/schemas/invoice.ts';
import { remindersSchema, toRemindersRequest } from '../../shared/schemas/reminders.ts';
import { sendInvoiceSchema, toSendRequest } from '../../shared/schemas/send.ts';
import { addInvoice } from '../../shared/services/add-invoice.ts';
import { createCreditNote } from '../../shared/services/credit-note.ts';
import { deleteInvoice } from '../../shared/services/delete-invoice.ts';
import { getInvoice } from '../../shared/services/read-invoice.ts';
import { changeReminders } from '../../shared/services/reminders.ts';
import { sendInvoice } from '../../shared/services/send-invoice.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /invoices */
export const addInvoiceRoute: RouteHandler = async ({ context, body, headers }) => {
  const input = parseRequest(addInvoiceSchema, withFlatClient(body));
  const result = await addInvoice(withIdempotencyKey(context, headers), input);
  if (!isFailure(result.response) && !result.replayed) countInvoiceCreated();
  return writeResponse(result);
};

/** GET /invoices/{reference_code} */
export const getInvoiceRoute: RouteHandler = async ({ context, pathParameters }) =>
  outcomeResponse(await getInvoice(context, pathParameters.reference_code ?? ''));

/** DELETE /invoices/{reference_code} */
export const deleteInvoiceRoute: RouteHandler = async ({ context, pathParameters }) =>
  writeResponse(await deleteInvoice(context, pathParameters.reference_code ?? ''));

/** GET /invoices/send/{reference_code}: the SDKs' send, to the invoice's client (docs/api.md "Send an invoice"). */
export const sendInvoiceRoute: RouteHandler = async ({ context, headers, pathParameters }) => {
  const request = { referenceCode: pathParameters.reference_code ?? '' };
  return writeResponse(await sendInvoice(withIdempotencyKey(context, headers), request, 'send-invoice'));
};

/** POST /invoices/{reference_code}/send: optional `to`, `cc` and `message`. */
export const emailInvoiceRoute: RouteHandler = async ({ context, body, headers, pathParameters }) => {
  const input = toSendRequest(parseRequest(sendInvoiceSchema, body ?? {}));
  const request = { ...input, referenceCode: pathParameters.reference_code ?? '' };
  return writeResponse(await sendInvoice(withIdempotencyKey(context, headers), request, 'email-invoice'));
};

/** POST /invoices/{reference_code}/reminders: `{"paused":true|false}` (docs/api.md "Reminders"). */
export const invoiceRemindersRoute: RouteHandler = async ({ context, body, headers, pathParameters }) => {
  const input = toRemindersRequest(parseRequest(remindersSchema, body));
  const request = { ...input, referenceCode: pathParameters.reference_code ?? '' };
  return writeResponse(await changeReminders(withIdempotencyKey(context, headers), request));
};

/** POST /invoices/{reference_code}/credit-notes: `{"reason", "items"}` or `{"reason", "amount"}` (docs/tax.md). */
export const createCreditNoteRoute: RouteHandler = async ({ context, body, headers, pathParameters }) => {
  const request = toCreditNoteRequest(parseRequest(creditNoteSchema, body));
  const write = { referenceCode: pathParameters.reference_code ?? '', request };
  return writeResponse(await createCreditNote(withIdempotencyKey(context, headers), write));
};
