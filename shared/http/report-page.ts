/**
 * The answers of the aging report and the client statement, in JSON or CSV (docs/api.md "Aging", "Client statement",
 * "CSV"), and the aging listing's cursor: its wire form carries the listing (client rows or open invoices, the client
 * and bucket asked for) and its position, signed like every cursor (shared/http/cursor.ts).
 */
import { AGING_BUCKETS, type AgingBucket } from '../domain/aging.ts';
import { invalidCursor } from '../domain/refusal.ts';
import type { StatementView, TaxReportView } from '../representation/report-views.ts';
import type { AgingPage, AgingPosition } from '../services/aging-report.ts';
import type { Account } from '../store/accounts.ts';
import { csvResponse, csvText } from './csv.ts';
import {
  CLIENT_AGING_COLUMNS,
  OPEN_INVOICE_COLUMNS,
  STATEMENT_COLUMNS,
  TAX_REPORT_COLUMNS,
  taxReportLines,
} from './csv-tables.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { type HttpResponse, jsonResponse, successBody } from './envelope.ts';
import type { AnswerFormat } from './handler.ts';
import { namedPdfResponse } from './page-responses.ts';

/** What a response is for: the format asked for, and the path a `Link` to the next page names. */
export interface Answer {
  /** `pdf` only on a route that offers it (shared/routes.ts); elsewhere it is never asked for. */
  format: AnswerFormat;
  path: string;
}

/**
 * The body with the `cursor` of the query string when it has none of its own: following a CSV page's `Link` (the same
 * request, to `…?cursor=…`) reads the next page.
 */
export function withLinkCursor(body: unknown, query: Record<string, string | undefined>): unknown {
  const cursor = query.cursor;
  if (cursor === undefined || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  return fields.cursor === undefined || fields.cursor === null || fields.cursor === '' ? { ...fields, cursor } : body;
}

const optionalId = (value: number | undefined) => (value === undefined ? '' : String(value));

/**
 * The aging cursor: the listing (client rows or open invoices, the client and bucket asked for) and its position — a
 * client row's (outstanding, client id), or the open-invoice listing's position as the store gave it (opaque here).
 */
function agingCursor(account: Account, position: AgingPosition): string {
  const client = optionalId(position.clientId);
  if (position.kind === 'clients') {
    const { outstandingKobo, clientId } = position.after;
    const after = { outstanding: String(outstandingKobo), id: String(clientId) };
    return encodeCursor(account.cursorSecret, { listing: { aging: 'clients', client }, after });
  }
  const listing = { aging: 'invoices', client, bucket: position.bucket ?? '' };
  return encodeCursor(account.cursorSecret, { listing, after: position.after });
}

const INTEGER = /^-?\d{1,15}$/;
const isBucket = (value: string): value is AgingBucket => AGING_BUCKETS.some((bucket) => bucket === value);

/**
 * The aging position a cursor carries; 400 `invalid_cursor` when it is forged or another listing's (the service then
 * checks it is this very listing, of this account: shared/services/aging-report.ts).
 */
export function agingResume(account: Account, cursor: string | undefined): AgingPosition | undefined {
  if (cursor === undefined) return undefined;
  const state = decodeCursor(account.cursorSecret, cursor);
  const listing = state?.listing;
  if (!state || state.period !== undefined || !listing) throw invalidCursor();
  if (listing.client !== '' && !INTEGER.test(listing.client ?? '')) throw invalidCursor();
  const clientId = listing.client === '' ? undefined : Number(listing.client);
  const { after } = state;
  if (listing.aging === 'clients' && INTEGER.test(after.outstanding ?? '') && INTEGER.test(after.id ?? ''))
    return {
      kind: 'clients',
      clientId,
      after: { outstandingKobo: Number(after.outstanding), clientId: Number(after.id) },
    };
  const bucket = listing.bucket ?? '';
  if (listing.aging === 'invoices' && (bucket === '' || isBucket(bucket)))
    return { kind: 'invoices', clientId, bucket: bucket === '' ? undefined : bucket, after };
  throw invalidCursor();
}

/** `POST /reports/aging`: the totals and a page of client rows or open invoices. */
export function agingResponse(page: AgingPage, account: Account, answer: Answer): HttpResponse {
  const nextCursor = page.next ? agingCursor(account, page.next) : null;
  if (answer.format === 'csv') {
    const text = page.invoicesJson
      ? csvText(
          OPEN_INVOICE_COLUMNS,
          page.invoicesJson.map((json) => JSON.parse(json)),
        )
      : csvText(CLIENT_AGING_COLUMNS, page.clients ?? []);
    return csvResponse(text, nextCursor ? { cursor: nextCursor, path: answer.path } : undefined);
  }
  const head = JSON.stringify(page.summary);
  // The invoices were serialised once by the service (their sizes decided where the page ends): spliced in as they are.
  const listing = page.invoicesJson
    ? `"invoices":[${page.invoicesJson.join(',')}]`
    : `"clients":${JSON.stringify(page.clients ?? [])}`;
  const response = jsonResponse(200, null);
  response.body = `{"status":"success","data":${head.slice(0, -1)},${listing},"next_cursor":${JSON.stringify(nextCursor)}}}`;
  return response;
}

/** `POST /clients/{id}/statement` with `Accept: application/pdf`: the statement's PDF (docs/receivables.md "One client: the statement"). */
export const statementPdfResponse = (pdf: Uint8Array, fileName: string): HttpResponse =>
  namedPdfResponse(pdf, fileName);

/** `POST /clients/{id}/statement`: one answer, never paged. */
export function statementResponse(view: StatementView, answer: Answer): HttpResponse {
  if (answer.format === 'csv') return csvResponse(csvText(STATEMENT_COLUMNS, view.lines), undefined);
  return jsonResponse(200, successBody(view));
}

/** `POST /reports/tax`: one answer, never paged (docs/tax.md "Tax report"). */
export function taxReportResponse(view: TaxReportView, answer: Answer): HttpResponse {
  if (answer.format === 'csv') return csvResponse(csvText(TAX_REPORT_COLUMNS, taxReportLines(view)), undefined);
  return jsonResponse(200, successBody(view));
}
