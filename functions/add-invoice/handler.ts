import { createApiHandler } from '../../shared/http/handler.ts';
import { idempotencyKeyOf, writeResponse } from '../../shared/http/responses.ts';
import { invoiceAnswers } from '../../shared/http/write-answers.ts';
import { countInvoiceCreated } from '../../shared/observability.ts';
import { addInvoiceSchema, withFlatClient } from '../../shared/schemas.ts';
import { addInvoice } from '../../shared/services/add-invoice.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /invoices */
export const handler = createApiHandler('add-invoice', async ({ account, body, headers, requestId }) => {
  const input = parseRequest(addInvoiceSchema, withFlatClient(body));
  const idempotencyKey = idempotencyKeyOf(headers);
  const result = await addInvoice({ account, requestId, idempotencyKey }, input, invoiceAnswers);
  if (result.response.status === 201 && !result.replayed) countInvoiceCreated();
  return writeResponse(result);
});
