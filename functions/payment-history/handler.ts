import { createApiHandler } from '../../shared/http/handler.ts';
import { historyOptions, historyResponse } from '../../shared/http/history-page.ts';
import { paymentHistorySchema } from '../../shared/schemas.ts';
import { paymentHistory } from '../../shared/services/payment-history.ts';
import { parseRequest } from '../../shared/validation.ts';

/** POST /payments/history (also GET, with a JSON body, as the pypayant SDK sends it) */
export const handler = createApiHandler('payment-history', async ({ account, body }) => {
  const input = parseRequest(paymentHistorySchema, body, { periodFields: ['period', 'start', 'end'] });
  const page = await paymentHistory(account, input, historyOptions(account, input.cursor));
  return historyResponse(page, account);
});
