/**
 * The history response, assembled from payments that were serialised once by the service (their byte
 * sizes decided where the page ends): the same bytes `JSON.stringify(successBody(page))` would produce.
 */
import type { HistoryPage } from '../services/payment-history.ts';
import { type HttpResponse, jsonResponse } from './envelope.ts';

export function historyBody(page: HistoryPage): string {
  const text = JSON.stringify;
  return (
    `{"status":"success","data":{"period":${text(page.period)},"start":${text(page.start)},"end":${text(page.end)},` +
    `"payments":[${page.paymentsJson.join(',')}],"next_cursor":${text(page.next_cursor)}}}`
  );
}

export function historyResponse(page: HistoryPage): HttpResponse {
  const response = jsonResponse(200, null);
  response.body = historyBody(page);
  return response;
}
