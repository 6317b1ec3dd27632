/**
 * The overdue and reminder sweep (docs/webhooks.md "The overdue sweep", docs/receivables.md "Reminders"):
 * `invoice.overdue` once per invoice on its first overdue day, and each reminder of the account's schedule at most once
 * per invoice. It reads only the wake index (GSI2: open invoices that may still need something, by the next date it
 * may be due) up to the latest calendar date anywhere (UTC+14), so its cost follows the invoices with something due,
 * never the table. Each hit is decided in its own account's time zone (domain/reminders.ts `planSweep`) and written in
 * one conditional transaction with its events and mail job (store/overdue.ts). Deployed, a scheduled function runs it
 * (functions/overdue-sweep/handler.ts); `npm start` runs the same code at start and every OVERDUE_SWEEP_MS.
 */
import { loadConfig } from '../config.ts';
import { type CalendarDate, fromEpochSeconds, todayIn, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { isOpen } from '../domain/overdue.ts';
import { planSweep, type SweepPlan } from '../domain/reminders.ts';
import { type Account, getAccount } from '../store/accounts.ts';
import { loadInvoices } from '../store/history.ts';
import { overdueIndexKeys } from '../store/keys.ts';
import { commitSweep, invoicesToWake, OVERDUE_INDEX_SHARDS, type WakeHit } from '../store/overdue.ts';
import { sweepWrite } from './sweep-write.ts';

/** UTC+14 (Line Islands) is the furthest ahead any time zone is: no account's today is later than that date. */
const LATEST_OFFSET_SECONDS = 14 * 3600;

export interface SweepOptions {
  /** The instant whose calendar dates decide (the clock; `CLOCK_OFFSET_MS` moves it locally: shared/clock.ts). */
  now: Date;
  /** The real time of the writes (event `created_at`, `overdue_notified_at`, a reminder's `sent_at`). */
  writtenAt: () => Date;
}

export interface SweepReport {
  /** Index entries read. */
  examined: number;
  /** `invoice.overdue` events written. */
  notified: number;
  /** Reminders queued (`invoice.reminder_sent` events written). */
  reminded: number;
  /** Entries of invoices no longer open, taken out of the index. */
  closed: number;
}

/** The latest calendar date anywhere at `now`: every wake date up to it may have come in some time zone. */
export const latestToday = (now: Date): CalendarDate =>
  fromEpochSeconds(Math.floor(now.getTime() / 1000) + LATEST_OFFSET_SECONDS);

/** One sweep deciding on `now`'s calendar dates; `writtenAt` is the real time of its writes (the current time). */
export async function runOverdueSweep(now: Date, writtenAt: () => Date = () => new Date()): Promise<SweepReport> {
  const options: SweepOptions = { now, writtenAt };
  const report: SweepReport = { examined: 0, notified: 0, reminded: 0, closed: 0 };
  const accounts = new Map<number, Promise<Account | undefined>>();
  const through = toIsoDate(latestToday(options.now));
  // The shards are swept side by side: a day on which many invoices wake takes a 16th of the time.
  const shards = Array.from({ length: OVERDUE_INDEX_SHARDS }, (_, shard) => shard);
  await Promise.all(
    shards.map(async (shard) => {
      for await (const hits of invoicesToWake(shard, through)) {
        report.examined += hits.length;
        await sweepPage(hits, options, accounts, report);
      }
    }),
  );
  return report;
}

async function sweepPage(
  hits: WakeHit[],
  options: SweepOptions,
  accounts: Map<number, Promise<Account | undefined>>,
  report: SweepReport,
): Promise<void> {
  const invoices = await loadInvoices(hits.map((hit) => hit.referenceCode));
  for (const hit of hits) {
    const invoice = invoices.get(hit.referenceCode);
    if (!invoice) continue;
    let account = accounts.get(invoice.details.companyId);
    if (!account) accounts.set(invoice.details.companyId, (account = getAccount(invoice.details.companyId)));
    const found = await account;
    if (!found) continue;
    await sweepInvoice(hit, invoice, found, options, report);
  }
}

/** One invoice in its account's time zone: decide, then write the decision, its events and the next wake together. */
async function sweepInvoice(
  hit: WakeHit,
  invoice: Invoice,
  account: Account,
  options: SweepOptions,
  report: SweepReport,
): Promise<void> {
  const today = todayIn(account.timeZone, options.now);
  const plan = planSweep({
    invoice,
    offsets: account.reminderOffsets,
    today,
    overdueNotified: invoice.balance.overdueNotified === true,
    canRemind: canRemind(invoice),
  });
  if (isUnchanged(hit, plan)) return;
  const committed = await commitSweep(sweepWrite(hit, invoice, account, plan, { today, at: options.writtenAt() }));
  if (!committed) return; // Another sweep, a payment or a wake changed it since it was read: the next run decides.
  if (plan.notifyOverdue) report.notified++;
  if (plan.remind !== undefined) report.reminded++;
  if (!isOpen(invoice.balance)) report.closed++;
}

/**
 * A reminder goes by e-mail, to the invoice's client's address, from the stage's sender (docs/receivables.md
 * "Reminders"): without either, none is recorded (docs/decisions.md "Reminders").
 */
const canRemind = (invoice: Invoice): boolean =>
  loadConfig().mailFrom !== undefined && invoice.details.client.email.trim() !== '';

/** Nothing to send, and the entry already wakes on the date decided: no write. */
function isUnchanged(hit: WakeHit, plan: SweepPlan): boolean {
  if (plan.notifyOverdue || plan.remind !== undefined || plan.nextWake === undefined) return false;
  return hit.indexKey === overdueIndexKeys.sort(toIsoDate(plan.nextWake), hit.referenceCode);
}
