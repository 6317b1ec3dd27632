/** The payment function (SPEC §13, §14): record a payment, read an invoice's latest payment, reverse a payment. */
import { todayForOverdue } from '../../shared/clock.ts';
import { createApiFunction } from '../../shared/http/api-function.ts';
import { jsonResponse, successBody } from '../../shared/http/envelope.ts';
import type { RouteHandler } from '../../shared/http/handler.ts';
import { idempotencyKeyOf, writeResponse } from '../../shared/http/responses.ts';
import { paymentView } from '../../shared/http/views.ts';
import { paymentAnswers, paymentReversalAnswers } from '../../shared/http/write-answers.ts';
import { countPaymentRecorded } from '../../shared/observability.ts';
import { isFailure } from '../../shared/outcome.ts';
import { addPaymentSchema, reversePaymentSchema, toReversalRequest } from '../../shared/schemas/payment.ts';
import { addPayment } from '../../shared/services/add-payment.ts';
import { getLatestPayment } from '../../shared/services/read-invoice.ts';
import { reversePayment } from '../../shared/services/reverse-payment.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /payments */
const addPaymentRoute: RouteHandler = async ({ account, body, headers, requestId }) => {
  const input = parseRequest(addPaymentSchema, body);
  const idempotencyKey = idempotencyKeyOf(headers);
  const result = await addPayment({ account, requestId, idempotencyKey }, input, paymentAnswers);
  if (!isFailure(result.response) && !result.replayed) countPaymentRecorded(input.amount, account.currency);
  return writeResponse(result);
};

/** GET /payments/{reference_code} (the invoice's code): its most recent payment */
const getPaymentRoute: RouteHandler = async ({ account, pathParameters }) => {
  const { payment, invoice } = await getLatestPayment(account, pathParameters.reference_code ?? '');
  const today = todayForOverdue(account.timeZone);
  return jsonResponse(200, successBody(paymentView(payment, invoice, { today, paymentsCount: true })));
};

/** POST /payments/{id}/reversal */
const reversePaymentRoute: RouteHandler = async ({ account, body, headers, pathParameters, requestId }) => {
  const request = toReversalRequest(parseRequest(reversePaymentSchema, body), pathParameters.id);
  const idempotencyKey = idempotencyKeyOf(headers);
  return writeResponse(await reversePayment({ account, requestId, idempotencyKey }, request, paymentReversalAnswers));
};

export const handler = createApiFunction('payments', {
  'add-payment': addPaymentRoute,
  'get-payment': getPaymentRoute,
  'reverse-payment': reversePaymentRoute,
});
