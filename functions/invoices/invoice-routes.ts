/** Invoice routes: parse → call the service → respond (docs/api.md "Add invoice", "Invoices: read, list, delete"). */
import { outcomeResponse } from '../../shared/http/envelope.ts';
import { ApiError } from '../../shared/http/errors.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { withIdempotencyKey, writeResponse } from '../../shared/http/responses.ts';
import { countInvoiceCreated } from '../../shared/observability.ts';
import { isFailure } from '../../shared/outcome.ts';
import { addInvoiceSchema, withFlatClient } from '../../shared/schemas/invoice.ts';
import { addInvoice } from '../../shared/services/add-invoice.ts';
import { deleteInvoice } from '../../shared/services/delete-invoice.ts';
import { getInvoice } from '../../shared/services/read-invoice.ts';
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

/**
 * GET /invoices/send/{reference_code}: e-mailing invoices is not offered (docs/api.md "Errors"), said plainly after
 * authentication for an invoice of the account; any other reference is 404 `invoice_not_found`, as on every route
 * that names one.
 */
export const sendInvoiceRoute: RouteHandler = async ({ context, pathParameters }) => {
  await getInvoice(context, pathParameters.reference_code ?? '');
  throw new ApiError(
    'not_implemented',
    'Sending invoices by e-mail is not offered by this service. Share the invoice with your client yourself.',
  );
};
