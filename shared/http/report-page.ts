/**
 * The answers of the aging report and the client statement, in JSON or CSV (docs/api.md "Aging", "Client statement",
 * "CSV"), and the aging listing's cursor: its wire form carries the listing (client rows or open invoices, the client
 * and bucket asked for) and its position, signed like every cursor (shared/http/cursor.ts).
 */
import { AGING_BUCKETS, type AgingBucket } from '../domain/aging.ts';
import { formatDayFirst } from '../domain/dates.ts';
import { invalidCursor } from '../errors.ts';
import type { AgingPage, AgingPosition } from '../services/aging-report.ts';
import type { ClientStatement } from '../services/client-statement.ts';
import type { Account } from '../store/accounts.ts';
import { csvResponse, csvText } from './csv.ts';
import { CLIENT_AGING_COLUMNS, OPEN_INVOICE_COLUMNS, STATEMENT_COLUMNS } from './csv-tables.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { type HttpResponse, jsonResponse, successBody } from './envelope.ts';
import { agingTotalsView, clientAgingView, statementView } from './report-views.ts';

/** What a response is for: the format asked for, and the path a `Link` to the next page names. */
export interface Answer {
  format: 'json' | 'csv';
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

function agingCursor(account: Account, position: AgingPosition): string {
  const listing = { aging: position.kind, client: optionalId(position.clientId) };
  const after =
    position.kind === 'clients'
      ? { ...listing, outstanding: String(position.after.outstandingKobo), id: String(position.after.clientId) }
      : { ...listing, bucket: position.bucket ?? '', PK: position.after.PK!, SK: position.after.SK! };
  return encodeCursor(account.cursorSecret, { after });
}

const INTEGER = /^-?\d{1,15}$/;
const isBucket = (value: string): value is AgingBucket => AGING_BUCKETS.some((bucket) => bucket === value);

/** The aging position a cursor carries; 400 `invalid_cursor` when it is forged or another listing's. */
export function agingResume(account: Account, cursor: string | undefined): AgingPosition | undefined {
  if (cursor === undefined) return undefined;
  const state = decodeCursor(account.cursorSecret, cursor);
  const after = state?.after;
  if (!state || state.period !== undefined || !after) throw invalidCursor();
  if (after.client !== '' && !INTEGER.test(after.client ?? '')) throw invalidCursor();
  const clientId = after.client === '' ? undefined : Number(after.client);
  if (after.aging === 'clients' && INTEGER.test(after.outstanding ?? '') && INTEGER.test(after.id ?? ''))
    return {
      kind: 'clients',
      clientId,
      after: { outstandingKobo: Number(after.outstanding), clientId: Number(after.id) },
    };
  const bucket = after.bucket ?? '';
  if (after.aging === 'invoices' && (bucket === '' || isBucket(bucket)) && after.PK && after.SK)
    return {
      kind: 'invoices',
      clientId,
      bucket: bucket === '' ? undefined : bucket,
      after: { PK: after.PK, SK: after.SK },
    };
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
      : csvText(CLIENT_AGING_COLUMNS, (page.clients ?? []).map(clientAgingView));
    return csvResponse(text, nextCursor ? { cursor: nextCursor, path: answer.path } : undefined);
  }
  const head = JSON.stringify({
    as_of: formatDayFirst(page.asOf),
    currency: account.currency,
    ...agingTotalsView(page.totals),
  });
  // The invoices were serialised once by the service (their sizes decided where the page ends): spliced in as they are.
  const listing = page.invoicesJson
    ? `"invoices":[${page.invoicesJson.join(',')}]`
    : `"clients":${JSON.stringify((page.clients ?? []).map(clientAgingView))}`;
  const response = jsonResponse(200, null);
  response.body = `{"status":"success","data":${head.slice(0, -1)},${listing},"next_cursor":${JSON.stringify(nextCursor)}}}`;
  return response;
}

/** `POST /clients/{id}/statement`. */
export function statementResponse(result: ClientStatement, account: Account, answer: Answer): HttpResponse {
  const view = statementView(result, account.currency);
  if (answer.format === 'csv') return csvResponse(csvText(STATEMENT_COLUMNS, view.lines), undefined);
  return jsonResponse(200, successBody(view));
}
