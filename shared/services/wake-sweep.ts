/**
 * The wake sweep (docs/webhooks.md "The wake sweep", docs/receivables.md "Reminders"): wakes what the wake index
 * (store/wake-index.ts) says something may be due for by now. It reads only the index, up to the latest calendar date
 * anywhere (UTC+14), so its cost follows the items with something due, never the table, and hands each page's hits to
 * the handler of what they wake: invoices (services/reminders.ts: `invoice.overdue` and reminders), recurring series
 * (services/recurring-sweep.ts: each period's invoice) and automatic collections (services/collection-sweep.ts: a
 * charge of a saved card). Deployed, a
 * scheduled function runs it (functions/wake-sweep/handler.ts); `npm start` runs the same code at start and every
 * OVERDUE_SWEEP_MS. A new kind of thing to wake (a recurring series, a card-collection attempt): its key's shape in
 * `WAKE_KINDS` (store/wake-index.ts) and its handler in `WAKE_HANDLERS` below.
 */
import { type CalendarDate, fromEpochSeconds, toIsoDate } from '../domain/dates.ts';
import { logger } from '../observability.ts';
import { type Account, getAccount } from '../store/accounts.ts';
import { dueToWake, WAKE_INDEX_SHARDS, type WakeHit, type WakeKind, type WakeRun } from '../store/wake-index.ts';
import { wakeCollections } from './collection-sweep.ts';
import { wakeSeries } from './recurring-sweep.ts';
import { wakeInvoices } from './reminders.ts';

/** UTC+14 (Line Islands) is the furthest ahead any time zone is: no account's today is later than that date. */
const LATEST_OFFSET_SECONDS = 14 * 3600;

export interface SweepReport {
  /** Index entries read. */
  examined: number;
  /** `invoice.overdue` events written. */
  notified: number;
  /** Reminders queued (`invoice.reminder_sent` events written). */
  reminded: number;
  /** Charges of saved cards started (automatic collection: services/collection-sweep.ts). */
  charges: number;
  /** Entries of invoices no longer open, taken out of the index. */
  closed: number;
  /** Recurring series' periods whose invoices were created (services/recurring-sweep.ts). */
  issued: number;
}

/** What the sweep does with a page of one kind's hits; it returns what it did, to count. */
export type WakeHandler = (hits: WakeHit[], run: WakeRun) => Promise<Partial<Omit<SweepReport, 'examined'>>>;

const WAKE_HANDLERS: Record<WakeKind, WakeHandler> = {
  invoice: wakeInvoices,
  recurring: wakeSeries,
  cardCollection: wakeCollections,
};

/** The latest calendar date anywhere at `now`: every wake date up to it may have come in some time zone. */
export const latestToday = (now: Date): CalendarDate =>
  fromEpochSeconds(Math.floor(now.getTime() / 1000) + LATEST_OFFSET_SECONDS);

/** One sweep deciding on `now`'s calendar dates; `writtenAt` is the real time of its writes (the current time). */
export async function runWakeSweep(now: Date, writtenAt: () => Date = () => new Date()): Promise<SweepReport> {
  const accounts = new Map<number, Promise<Account | undefined>>();
  const account = (companyId: number) => {
    let read = accounts.get(companyId);
    if (!read) accounts.set(companyId, (read = getAccount(companyId)));
    return read;
  };
  const run: WakeRun = { now, writtenAt, account };
  const report: SweepReport = { examined: 0, notified: 0, reminded: 0, charges: 0, closed: 0, issued: 0 };
  const through = toIsoDate(latestToday(now));
  // The shards are swept side by side: a day on which many items wake takes a 16th of the time.
  const shards = Array.from({ length: WAKE_INDEX_SHARDS }, (_, shard) => shard);
  await Promise.all(
    shards.map(async (shard) => {
      for await (const hits of dueToWake(shard, through)) {
        report.examined += hits.length;
        await sweepPage(hits, run, report);
      }
    }),
  );
  return report;
}

async function sweepPage(hits: WakeHit[], run: WakeRun, report: SweepReport): Promise<void> {
  for (const kind of Object.keys(WAKE_HANDLERS) as WakeKind[]) {
    const ofKind = hits.filter((hit) => hit.kind === kind);
    if (ofKind.length === 0) continue;
    const done = await WAKE_HANDLERS[kind](ofKind, run);
    for (const count of ['notified', 'reminded', 'charges', 'closed', 'issued'] as const)
      report[count] += done[count] ?? 0;
  }
  const unknown = hits.filter((hit) => hit.kind === undefined);
  if (unknown.length > 0)
    logger.warn('Wake index entries of no kind this code knows; left alone', { count: unknown.length });
}
