/**
 * The aging report (docs/api.md "Aging"): the totals from the aging rows (O(distinct due dates)), and a page of either
 * one row per client (largest outstanding first) or the open invoices themselves (oldest due first), each from the
 * receivables items of docs/data-design.md "Receivables"; beside them, each client's unapplied credit and its total,
 * from the account's credit listing (O(clients holding credit)).
 */
import {
  type AgingBucket,
  agingByClient,
  agingTotals,
  bucketDueDateBounds,
  type ClientAging,
  type ClientRowsPosition,
  clientPage,
  daysOverdue,
  openDueDateSpan,
  totalUnappliedCredit,
} from '../domain/aging.ts';
import { fromEpochSeconds } from '../domain/dates.ts';
import { isOpen } from '../domain/overdue.ts';
import { invalidCursor } from '../domain/refusal.ts';
import {
  type AgingSummaryView,
  agingSummaryView,
  type ClientAgingView,
  clientAgingView,
  openInvoiceView,
} from '../representation/report-views.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import type { AgingReportInput } from '../schemas/reports.ts';
import {
  isAccountOpenInvoicePosition,
  queryAgingRows,
  queryClientAgingRows,
  queryOpenInvoices,
} from '../store/aging.ts';
import { batchGet } from '../store/batch.ts';
import { queryUnappliedCredit } from '../store/client-credit.ts';
import { clientFrom, clientKey } from '../store/clients.ts';
import type { RequestContext } from './context.ts';
import { fillInvoicePage } from './invoice-page-fill.ts';
import { clientRecord } from './read-clients.ts';

/** Where the next page starts: after a client row, or after an open invoice, of the same listing. */
export type AgingPosition =
  | { kind: 'clients'; clientId?: number | undefined; after: ClientRowsPosition }
  | {
      kind: 'invoices';
      clientId?: number | undefined;
      bucket?: AgingBucket | undefined;
      after: Record<string, string>;
    };

export interface AgingPage {
  /** As of the account's today for overdue (it moves with CLOCK_OFFSET_MS locally, as overdue does): the totals. */
  summary: AgingSummaryView;
  /** Client rows (the default listing), or… */
  clients?: ClientAgingView[];
  /** …the open invoices, each already serialised (`"invoices": true`): their sizes decided where the page ends. */
  invoicesJson?: string[];
  next: AgingPosition | undefined;
}

/** `resume`: the position a cursor carried, already authenticated by shared/http (shared/http/report-page.ts). */
export async function agingReport(
  context: RequestContext,
  input: AgingReportInput,
  resume: AgingPosition | undefined,
): Promise<AgingPage> {
  const { account, todayForOverdue: asOf } = context;
  const { companyId } = account;
  const clientId = input.client_id;
  const position = checkedResume(context, input, resume);
  if (clientId !== undefined) await clientRecord(context, clientId); // 404 for another account's or an unknown client
  const limit = input.limit ?? DEFAULT_HISTORY_LIMIT;
  const [rows, clientRows, credits] = await Promise.all([
    clientId === undefined ? queryAgingRows(companyId) : undefined,
    clientId !== undefined || input.invoices !== true ? queryClientAgingRows(companyId, clientId) : undefined,
    queryUnappliedCredit(companyId, clientId),
  ]);
  const totals = agingTotals(rows ?? clientRows?.rows ?? [], asOf);
  const summary = agingSummaryView(asOf, account.currency, totals, totalUnappliedCredit(credits));
  if (input.invoices === true) {
    const span = clientRows ? openDueDateSpan(clientRows.rows) : { from: undefined, to: undefined };
    const listing = { clientId, bucket: input.bucket, span, limit, resume: position };
    return { summary, ...(await openInvoices(context, listing)) };
  }
  const sorted = agingByClient(clientRows?.rows ?? [], asOf, credits);
  const after = position?.kind === 'clients' ? position.after : undefined;
  const page = clientPage(sorted, limit, after);
  return {
    summary,
    clients: await withClients(companyId, page.clients),
    next: page.next ? { kind: 'clients', clientId, after: page.next } : undefined,
  };
}

/** The cursor's position, when it belongs to this very listing (same mode, client and bucket); 400 otherwise. */
function checkedResume(context: RequestContext, input: AgingReportInput, resume: AgingPosition | undefined) {
  if (!resume) return undefined;
  const kind = input.invoices === true ? 'invoices' : 'clients';
  const sameListing =
    resume.kind === kind &&
    resume.clientId === input.client_id &&
    (resume.kind === 'clients' ||
      (resume.bucket === input.bucket && isAccountOpenInvoicePosition(resume.after, context.account.companyId)));
  if (!sameListing) throw invalidCursor();
  return resume;
}

async function withClients(companyId: number, page: ClientAging[]) {
  const items = await batchGet(page.map((row) => clientKey(companyId, row.clientId)));
  return page.map((row) => clientAgingView(clientFrom(items, clientKey(companyId, row.clientId)), row));
}

interface OpenInvoiceListing {
  clientId: number | undefined;
  bucket: AgingBucket | undefined;
  /** Due dates to read: the client's oldest and newest open ones (undefined: none open), or unbounded. */
  span: { from: string | undefined; to: string | undefined } | undefined;
  limit: number;
  resume: AgingPosition | undefined;
}

/** The page of open invoices: the bucket's due dates within the span, oldest due first, until the page is full. */
async function openInvoices(context: RequestContext, listing: OpenInvoiceListing) {
  const { account, todayForOverdue: asOf } = context;
  const bucket = listing.bucket ? bucketDueDateBounds(listing.bucket, asOf) : {};
  const from = latest(bucket.from, listing.span?.from);
  const to = earliest(bucket.to, listing.span?.to);
  if (!listing.span || (from !== undefined && to !== undefined && from > to))
    return { invoicesJson: [], next: undefined };
  const after = listing.resume?.kind === 'invoices' ? listing.resume.after : undefined;
  const read = await queryOpenInvoices(account.companyId, { from, to }, listing.limit, {
    after,
    clientId: listing.clientId,
  });
  const { invoicesJson, lastTaken, full } = await fillInvoicePage(
    read.entries.map((entry) => entry.referenceCode),
    (invoice) =>
      JSON.stringify(openInvoiceView(invoice, daysOverdue(fromEpochSeconds(invoice.details.dueDate), asOf), asOf)),
    // An invoice that closed (or is another account's) between the listing and this read is left out.
    (invoice) => invoice.details.companyId === account.companyId && isOpen(invoice.balance),
  );
  const next = full && lastTaken !== undefined ? read.positions[lastTaken] : read.next;
  return {
    invoicesJson,
    next: next
      ? ({ kind: 'invoices', clientId: listing.clientId, bucket: listing.bucket, after: next } as const)
      : undefined,
  };
}

const latest = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined || a > b ? a : b;
const earliest = (a: string | undefined, b: string | undefined) =>
  a === undefined ? b : b === undefined || a < b ? a : b;
