import { createApiHandler } from '#shared/http/handler';
import { outcomeResponse } from '#shared/http/envelope';
import { success } from '#shared/outcome';
import { parseRequest } from '#shared/validation';
import { paymentHistorySchema } from '#shared/schemas';
import { paymentHistory } from '#shared/services/payment-history';

/** POST /payments/history */
export const handler = createApiHandler('payment-history', async ({ account, body }) => {
  const input = parseRequest(paymentHistorySchema, body, { periodFields: ['period', 'start', 'end'] });
  return outcomeResponse(success(200, await paymentHistory(account, input)));
});
