/** The payment function (docs/api.md "Add payment", "Reversing a payment"): record, read the latest, reverse. */
import { createApiFunction } from '../../shared/http/api-function.ts';
import { outcomeResponse, withIdempotencyKey, writeResponse } from '../../shared/http/envelope.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { countPaymentRecorded } from '../../shared/observability.ts';
import { isFailure } from '../../shared/outcome.ts';
import { addPaymentSchema, reversePaymentSchema, toReversalRequest } from '../../shared/schemas/payment.ts';
import { addPayment } from '../../shared/services/add-payment.ts';
import { getLatestPayment } from '../../shared/services/read-invoice.ts';
import { reversePayment } from '../../shared/services/reverse-payment.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /payments */
const addPaymentRoute: RouteHandler = async ({ context, body, headers }) => {
  const input = parseRequest(addPaymentSchema, body);
  const result = await addPayment(withIdempotencyKey(context, headers), input);
  if (!isFailure(result.response) && !result.replayed) countPaymentRecorded(input.amount, context.account.currency);
  return writeResponse(result);
};

/** GET /payments/{reference_code} (the invoice's code): its most recent payment */
const getPaymentRoute: RouteHandler = async ({ context, pathParameters }) =>
  outcomeResponse(await getLatestPayment(context, pathParameters.reference_code ?? ''));

/** POST /payments/{id}/reversal */
const reversePaymentRoute: RouteHandler = async ({ context, body, headers, pathParameters }) => {
  const request = toReversalRequest(parseRequest(reversePaymentSchema, body), Number(pathParameters.id));
  return writeResponse(await reversePayment(withIdempotencyKey(context, headers), request));
};

export const handler = createApiFunction('payments', {
  'add-payment': addPaymentRoute,
  'get-payment': getPaymentRoute,
  'reverse-payment': reversePaymentRoute,
});
