/**
 * The listings' responses: the history bodies, assembled from items that were serialised once by the service (their
 * byte sizes decided where the page ends) — the same bytes `JSON.stringify(successBody(page))` would produce — and
 * each listing's cursor in and out (its wire form is shared/http/cursor.ts).
 */
import { invalidCursor } from '../domain/refusal.ts';
import { summaryView } from '../representation/views.ts';
import type { HistoryPosition } from '../services/history-listing.ts';
import type { InvoiceHistoryPage } from '../services/invoice-history.ts';
import type { HistoryPage } from '../services/payment-history.ts';
import type { ClientListPage } from '../services/read-clients.ts';
import type { SeriesListPage } from '../services/recurring-invoices.ts';
import type { Account } from '../store/accounts.ts';
import { csvResponse, csvText } from './csv.ts';
import { INVOICE_COLUMNS, PAYMENT_COLUMNS } from './csv-tables.ts';
import { decodeCursor, encodeCursor, historyPositionOf } from './cursor.ts';
import { type HttpResponse, jsonResponse, successBody } from './envelope.ts';
import type { Answer } from './report-page.ts';

/** The history position a cursor carries; 400 `invalid_cursor` when it is forged, stale or not a history's. */
export function resumePosition(account: Account, cursor: string | undefined): HistoryPosition | undefined {
  if (cursor === undefined) return undefined;
  const state = decodeCursor(account.cursorSecret, cursor);
  const position = state && historyPositionOf(state);
  if (!position) throw invalidCursor();
  return position;
}

export function historyBody(page: HistoryPage, nextCursor: string | null, currency: string): string {
  const text = JSON.stringify;
  return (
    `{"status":"success","data":{"period":${text(page.period)},"start":${text(page.start)},"end":${text(page.end)},` +
    `"payments":[${page.paymentsJson.join(',')}],"next_cursor":${text(nextCursor)},` +
    `"summary":${text(summaryView(page.summary, currency))}}}`
  );
}

export function historyResponse(page: HistoryPage, account: Account, answer?: Answer): HttpResponse {
  const nextCursor = page.next ? encodeCursor(account.cursorSecret, page.next) : null;
  if (answer?.format === 'csv') {
    const rows = page.paymentsJson.map((json) => JSON.parse(json));
    return csvResponse(
      csvText(PAYMENT_COLUMNS, rows),
      nextCursor ? { cursor: nextCursor, path: answer.path } : undefined,
    );
  }
  const response = jsonResponse(200, null);
  response.body = historyBody(page, nextCursor, account.currency);
  return response;
}

/** Invoice history's body: `{period,start,end,invoices,next_cursor}` around invoices serialised once by the service. */
export function invoiceHistoryResponse(page: InvoiceHistoryPage, account: Account, answer?: Answer): HttpResponse {
  const text = JSON.stringify;
  const nextCursor = page.next ? encodeCursor(account.cursorSecret, page.next) : null;
  if (answer?.format === 'csv') {
    const rows = page.invoicesJson.map((json) => JSON.parse(json));
    return csvResponse(
      csvText(INVOICE_COLUMNS, rows),
      nextCursor ? { cursor: nextCursor, path: answer.path } : undefined,
    );
  }
  const response = jsonResponse(200, null);
  response.body =
    `{"status":"success","data":{"period":${text(page.period)},"start":${text(page.start)},"end":${text(page.end)},` +
    `"invoices":[${page.invoicesJson.join(',')}],"next_cursor":${text(nextCursor)}}}`;
  return response;
}

/** `GET /clients`: `{clients,next_cursor}`; the cursor carries only the position. */
export function clientListResponse(page: ClientListPage, account: Account): HttpResponse {
  const nextCursor = page.next ? encodeCursor(account.cursorSecret, { after: page.next }) : null;
  return jsonResponse(200, successBody({ clients: page.clients, next_cursor: nextCursor }));
}

/** `GET /recurring-invoices`: `{recurring_invoices,next_cursor}`; the cursor carries only the position. */
export function recurringListResponse(page: SeriesListPage, account: Account): HttpResponse {
  const nextCursor = page.next ? encodeCursor(account.cursorSecret, { after: page.next }) : null;
  return jsonResponse(200, successBody({ recurring_invoices: page.series, next_cursor: nextCursor }));
}

/** A client list's position from a cursor; 400 `invalid_cursor` when forged or another listing's. */
export function clientListPosition(account: Account, cursor: string | undefined): Record<string, string> | undefined {
  if (cursor === undefined) return undefined;
  const state = decodeCursor(account.cursorSecret, cursor);
  if (!state || state.period !== undefined || state.listing !== undefined) throw invalidCursor();
  return state.after;
}
