import { createApiHandler } from '#shared/http/handler';
import { countPaymentRecorded } from '#shared/observability';
import { idempotencyKeyOf, writeResponse } from '#shared/http/responses';
import { parseRequest } from '#shared/validation';
import { addPaymentSchema } from '#shared/schemas';
import { addPayment } from '#shared/services/add-payment';

/** POST /payments */
export const handler = createApiHandler('add-payment', async ({ account, body, headers, requestId }) => {
  const input = parseRequest(addPaymentSchema, body);
  const idempotencyKey = idempotencyKeyOf(headers);
  const result = await addPayment({ account, requestId, idempotencyKey }, input);
  if (result.response.status === 201 && !result.replayed) countPaymentRecorded(input.amount, account.currency);
  return writeResponse(result);
});
