import { createApiHandler } from '#shared/http/handler';
import { countInvoiceCreated } from '#shared/observability';
import { idempotencyKeyOf, writeResponse } from '#shared/http/responses';
import { parseRequest } from '#shared/validation';
import { addInvoiceSchema, withFlatClient } from '#shared/schemas';
import { addInvoice } from '#shared/services/add-invoice';

/** POST /invoices */
export const handler = createApiHandler('add-invoice', async ({ account, body, headers, requestId }) => {
  const input = parseRequest(addInvoiceSchema, withFlatClient(body));
  const idempotencyKey = idempotencyKeyOf(headers);
  const result = await addInvoice({ account, requestId, idempotencyKey }, input);
  if (result.response.status === 201 && !result.replayed) countInvoiceCreated();
  return writeResponse(result);
});
