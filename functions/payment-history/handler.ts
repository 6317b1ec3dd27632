import { createApiHandler } from '#shared/http/handler';
import { historyResponse } from '#shared/http/history-page';
import { parseRequest } from '#shared/validation';
import { paymentHistorySchema } from '#shared/schemas';
import { paymentHistory } from '#shared/services/payment-history';

/** POST /payments/history (also GET, with a JSON body, as the pypayant SDK sends it) */
export const handler = createApiHandler('payment-history', async ({ account, body }) => {
  const input = parseRequest(paymentHistorySchema, body, { periodFields: ['period', 'start', 'end'] });
  return historyResponse(await paymentHistory(account, input));
});
