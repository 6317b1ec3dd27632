/**
 * The overdue sweep (docs/webhooks.md "The overdue sweep", docs/api.md "Overdue"): `invoice.overdue` once per invoice,
 * on its first overdue day. It reads only the overdue index (GSI2: open invoices not yet notified, by due date) up to
 * the latest calendar date anywhere (UTC+14), so its cost follows the invoices falling due, never the table. Each hit
 * is decided in its own account's time zone with the rule every view uses (domain/overdue.ts). Deployed, a scheduled
 * function runs it (functions/overdue-sweep/handler.ts); `npm start` runs the same code at start and every
 * OVERDUE_SWEEP_MS. The event's `data` is the invoice as the API shows it on that date, with `client` and `items`.
 */
import { type CalendarDate, formatTimestamp, fromEpochSeconds, todayIn, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { isOpen, isOverdue } from '../domain/overdue.ts';
import { invoiceOverdueEvents } from '../domain/webhook-events.ts';
import { invoiceView } from '../representation/views.ts';
import { type Account, getAccount } from '../store/accounts.ts';
import { loadInvoices } from '../store/history.ts';
import {
  leaveOverdueIndex,
  notifyOverdue,
  type OpenInvoiceHit,
  OVERDUE_INDEX_SHARDS,
  openInvoicesDueBefore,
} from '../store/overdue.ts';
import { newEventUlid } from '../store/webhooks.ts';

/** UTC+14 (Line Islands) is the furthest ahead any time zone is: no account's today is later than that date. */
const LATEST_OFFSET_SECONDS = 14 * 3600;

interface SweepOptions {
  /** The instant whose calendar dates decide (the clock; `CLOCK_OFFSET_MS` moves it locally: shared/clock.ts). */
  now: Date;
  /** The real time of the writes (event `created_at`, `overdue_notified_at`). */
  writtenAt: () => Date;
}

export interface SweepReport {
  /** Index entries read. */
  examined: number;
  /** `invoice.overdue` events written. */
  notified: number;
  /** Entries of invoices no longer open, taken out of the index. */
  closed: number;
}

/** The latest calendar date anywhere at `now`: every due date before it may be overdue in some time zone. */
export const latestToday = (now: Date): CalendarDate =>
  fromEpochSeconds(Math.floor(now.getTime() / 1000) + LATEST_OFFSET_SECONDS);

/** One sweep deciding on `now`'s calendar dates; `writtenAt` is the real time of its writes (the current time). */
export async function runOverdueSweep(now: Date, writtenAt: () => Date = () => new Date()): Promise<SweepReport> {
  const options: SweepOptions = { now, writtenAt };
  const report: SweepReport = { examined: 0, notified: 0, closed: 0 };
  const accounts = new Map<number, Promise<Account | undefined>>();
  const before = toIsoDate(latestToday(options.now));
  // The shards are swept side by side: a day on which many invoices fall due takes a 16th of the time.
  const shards = Array.from({ length: OVERDUE_INDEX_SHARDS }, (_, shard) => shard);
  await Promise.all(
    shards.map(async (shard) => {
      for await (const hits of openInvoicesDueBefore(shard, before)) {
        report.examined += hits.length;
        await sweepPage(hits, options, accounts, report);
      }
    }),
  );
  return report;
}

async function sweepPage(
  hits: OpenInvoiceHit[],
  options: SweepOptions,
  accounts: Map<number, Promise<Account | undefined>>,
  report: SweepReport,
): Promise<void> {
  const invoices = await loadInvoices(hits.map((hit) => hit.referenceCode));
  for (const hit of hits) {
    const invoice = invoices.get(hit.referenceCode);
    if (!invoice) continue;
    if (!isOpen(invoice.balance)) {
      await leaveOverdueIndex(hit.referenceCode);
      report.closed++;
      continue;
    }
    let account = accounts.get(invoice.details.companyId);
    if (!account) accounts.set(invoice.details.companyId, (account = getAccount(invoice.details.companyId)));
    const found = await account;
    const outcome = found ? await notifyIfOverdue(invoice, found, options) : 'not_yet';
    if (outcome === 'notified') report.notified++;
    // Refused: another run notified it (keys gone), a write changed it (next run), or it was notified before and a
    // re-opening write put its keys back — then it leaves the index here, without a second event.
    else if (outcome === 'refused' && (await leaveOverdueIndex(hit.referenceCode))) report.closed++;
  }
}

/** One invoice in its account's time zone: the event and the index exit in one transaction, when overdue today. */
async function notifyIfOverdue(
  invoice: Invoice,
  account: Account,
  options: SweepOptions,
): Promise<'notified' | 'refused' | 'not_yet'> {
  const today = todayIn(account.timeZone, options.now);
  if (!isOverdue(invoice.balance, invoice.details.dueDate, today)) return 'not_yet';
  const writtenAt = options.writtenAt();
  const createdAt = formatTimestamp(writtenAt);
  const data = invoiceView(invoice, { today, withClient: true });
  const events = invoiceOverdueEvents(data, { companyId: account.companyId, createdAt, newUlid: newEventUlid });
  const notified = await notifyOverdue(
    invoice.details.referenceCode,
    invoice.balance.version,
    events,
    writtenAt.getTime(),
  );
  return notified ? 'notified' : 'refused';
}
