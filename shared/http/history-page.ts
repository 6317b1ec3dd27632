/**
 * The history response, assembled from payments that were serialised once by the service (their byte
 * sizes decided where the page ends): the same bytes `JSON.stringify(successBody(page))` would produce.
 */
import type { Invoice } from '../domain/invoice.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { invalidCursor } from '../errors.ts';
import type { HistoryOptions, HistoryPage } from '../services/payment-history.ts';
import type { Account } from '../store/accounts.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { type HttpResponse, jsonResponse } from './envelope.ts';
import { paymentView } from './views.ts';

/** What the history service needs from HTTP: the position a cursor carries (400 if forged or stale), and the view. */
export function historyOptions(account: Account, cursor: string | undefined): HistoryOptions {
  const resume = cursor === undefined ? undefined : decodeCursor(account.cursorSecret, cursor);
  if (cursor !== undefined && !resume) throw invalidCursor();
  return {
    resume,
    render: (payment: PaymentRecord, invoice: Invoice) => JSON.stringify(paymentView(payment, invoice)),
  };
}

export function historyBody(page: HistoryPage, nextCursor: string | null): string {
  const text = JSON.stringify;
  return (
    `{"status":"success","data":{"period":${text(page.period)},"start":${text(page.start)},"end":${text(page.end)},` +
    `"payments":[${page.paymentsJson.join(',')}],"next_cursor":${text(nextCursor)}}}`
  );
}

export function historyResponse(page: HistoryPage, account: Account): HttpResponse {
  const response = jsonResponse(200, null);
  response.body = historyBody(page, page.next ? encodeCursor(account.cursorSecret, page.next) : null);
  return response;
}
