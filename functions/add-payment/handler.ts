import { createApiHandler } from '../../shared/http/handler.ts';
import { idempotencyKeyOf, writeResponse } from '../../shared/http/responses.ts';
import { paymentAnswers } from '../../shared/http/write-answers.ts';
import { countPaymentRecorded } from '../../shared/observability.ts';
import { addPaymentSchema } from '../../shared/schemas.ts';
import { addPayment } from '../../shared/services/add-payment.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /payments */
export const handler = createApiHandler('add-payment', async ({ account, body, headers, requestId }) => {
  const input = parseRequest(addPaymentSchema, body);
  const idempotencyKey = idempotencyKeyOf(headers);
  const result = await addPayment({ account, requestId, idempotencyKey }, input, paymentAnswers);
  if (result.response.status === 201 && !result.replayed) countPaymentRecorded(input.amount, account.currency);
  return writeResponse(result);
});
