/**
 * Aging (docs/api.md "Aging"), pure: days past due on the account's `as_of` date, the five buckets, and the totals of
 * a set of outstanding-by-due-date rows — the account's, one client's, or every client's (largest first). The rows
 * are kept per due date because a bucket moves every day while a due date does not (docs/data-design.md
 * "Receivables").
 */
import { addDays, type CalendarDate, daysInclusive, fromIsoDate, toIsoDate } from './dates.ts';

export const AGING_BUCKETS = ['current', '1_30', '31_60', '61_90', 'over_90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

/** Days past due on `asOf`: 0 up to and including the due date itself. */
export function daysOverdue(dueDate: CalendarDate, asOf: CalendarDate): number {
  return Math.max(0, daysInclusive(dueDate, asOf) - 1);
}

/** The bucket of an invoice `days` past due: `current` is not yet due (the due date included). */
export function bucketOf(days: number): AgingBucket {
  if (days <= 0) return 'current';
  if (days <= 30) return '1_30';
  if (days <= 60) return '31_60';
  if (days <= 90) return '61_90';
  return 'over_90';
}

/** The bucket's due dates on `asOf` (inclusive; a missing end is unbounded): what a listing of one bucket reads. */
export function bucketDueDates(bucket: AgingBucket, asOf: CalendarDate): { from?: CalendarDate; to?: CalendarDate } {
  const daysAgo = (days: number) => addDays(asOf, -days);
  switch (bucket) {
    case 'current':
      return { from: asOf };
    case '1_30':
      return { from: daysAgo(30), to: daysAgo(1) };
    case '31_60':
      return { from: daysAgo(60), to: daysAgo(31) };
    case '61_90':
      return { from: daysAgo(90), to: daysAgo(61) };
    case 'over_90':
      return { to: daysAgo(91) };
  }
}

/** What is outstanding on invoices of one due date (YYYY-MM-DD); the store keeps it in a few rows per date. */
export interface AgingRow {
  dueDate: string;
  outstandingKobo: number;
  openCount: number;
}

export interface ClientAgingRow extends AgingRow {
  clientId: number;
}

export interface AgingTotals {
  /** Σ of the buckets, so they sum to it exactly whatever was read. */
  totalKobo: number;
  buckets: Record<AgingBucket, number>;
  counts: Record<AgingBucket, number>;
}

const zeroes = (): Record<AgingBucket, number> => ({ current: 0, '1_30': 0, '31_60': 0, '61_90': 0, over_90: 0 });

export const noAging = (): AgingTotals => ({ totalKobo: 0, buckets: zeroes(), counts: zeroes() });

/** Adds `rows` to `totals`, bucketed on `asOf` (rows of one due date may come in any number, in any order). */
function addRows(totals: AgingTotals, rows: readonly AgingRow[], asOf: CalendarDate): AgingTotals {
  const bucketOfDay = new Map<string, AgingBucket>();
  for (const row of rows) {
    let bucket = bucketOfDay.get(row.dueDate);
    if (bucket === undefined) {
      bucket = bucketOf(daysOverdue(fromIsoDate(row.dueDate), asOf));
      bucketOfDay.set(row.dueDate, bucket);
    }
    totals.buckets[bucket] += row.outstandingKobo;
    totals.counts[bucket] += row.openCount;
    totals.totalKobo += row.outstandingKobo;
  }
  return totals;
}

/** The totals of `rows` on `asOf`. */
export const agingTotals = (rows: readonly AgingRow[], asOf: CalendarDate): AgingTotals =>
  addRows(noAging(), rows, asOf);

export interface ClientAging {
  clientId: number;
  totals: AgingTotals;
  /** The client's credit not yet applied to an invoice (money held for it, not owed by it). */
  unappliedCreditKobo: number;
}

/** Where a page of client rows ends: the last row's outstanding and client id (the order's two keys). */
export interface ClientRowsPosition {
  outstandingKobo: number;
  clientId: number;
}

/** Largest outstanding first; equal amounts by client id, so the order is total and a position is unambiguous. */
const clientOrder = (a: ClientRowsPosition, b: ClientRowsPosition): number =>
  b.outstandingKobo - a.outstandingKobo || a.clientId - b.clientId;

/**
 * Every client with something open or some unapplied credit (`credits`: clientId → kobo), largest outstanding first
 * (clients whose rows sum to nothing and who hold no credit are left out).
 */
export function agingByClient(
  rows: readonly ClientAgingRow[],
  asOf: CalendarDate,
  credits: ReadonlyMap<number, number> = new Map(),
): ClientAging[] {
  const byClient = new Map<number, ClientAgingRow[]>();
  for (const row of rows) (byClient.get(row.clientId) ?? byClient.set(row.clientId, []).get(row.clientId)!).push(row);
  for (const [clientId, credit] of credits) if (credit > 0 && !byClient.has(clientId)) byClient.set(clientId, []);
  const clients: ClientAging[] = [];
  for (const [clientId, own] of byClient) {
    const totals = agingTotals(own, asOf);
    const open = AGING_BUCKETS.reduce((sum, bucket) => sum + totals.counts[bucket], 0);
    const unappliedCreditKobo = Math.max(0, credits.get(clientId) ?? 0);
    if (totals.totalKobo !== 0 || open !== 0 || unappliedCreditKobo > 0)
      clients.push({ clientId, totals, unappliedCreditKobo });
  }
  return clients.sort((a, b) => clientOrder(positionOf(a), positionOf(b)));
}

const positionOf = (client: ClientAging): ClientRowsPosition => ({
  outstandingKobo: client.totals.totalKobo,
  clientId: client.clientId,
});

/** One page of `sorted` (agingByClient's order) after `position`, and the position of its last row when more follow. */
export function clientPage(
  sorted: readonly ClientAging[],
  limit: number,
  position: ClientRowsPosition | undefined,
): { clients: ClientAging[]; next: ClientRowsPosition | undefined } {
  const rest = position ? sorted.filter((client) => clientOrder(positionOf(client), position) > 0) : sorted;
  const clients = rest.slice(0, limit);
  const last = clients.at(-1);
  return { clients, next: rest.length > limit && last ? positionOf(last) : undefined };
}

/** Σ of the clients' unapplied credit (kobo). */
export const totalUnappliedCredit = (credits: ReadonlyMap<number, number>): number =>
  [...credits.values()].reduce((sum, credit) => sum + Math.max(0, credit), 0);

/** The earliest and latest due date (YYYY-MM-DD) of the rows with an open invoice, or undefined when none is open. */
export function openDueDateSpan(rows: readonly AgingRow[]): { from: string; to: string } | undefined {
  const open = new Map<string, number>();
  for (const row of rows) open.set(row.dueDate, (open.get(row.dueDate) ?? 0) + row.openCount);
  const days = [...open].filter(([, count]) => count > 0).map(([day]) => day);
  if (days.length === 0) return undefined;
  days.sort();
  return { from: days[0]!, to: days.at(-1)! };
}

/** YYYY-MM-DD bounds of a bucket, for a range read (unbounded ends left undefined). */
export function bucketDueDateBounds(bucket: AgingBucket, asOf: CalendarDate): { from?: string; to?: string } {
  const { from, to } = bucketDueDates(bucket, asOf);
  return { ...(from ? { from: toIsoDate(from) } : {}), ...(to ? { to: toIsoDate(to) } : {}) };
}
