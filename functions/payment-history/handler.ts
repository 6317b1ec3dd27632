import { createApiHandler } from '#shared/http/handler';
import { jsonResponse, successBody } from '#shared/http/envelope';
import { parseRequest } from '#shared/validation';
import { paymentHistorySchema } from '#shared/schemas';
import { paymentHistory } from '#shared/services/payment-history';

/** POST /payments/history */
export const handler = createApiHandler('payment-history', async ({ account, body }) => {
  const input = parseRequest(paymentHistorySchema, body, { periodFields: ['period', 'start', 'end'] });
  return jsonResponse(200, successBody(await paymentHistory(account, input)));
});
