/**
 * What the wake sweep (services/wake-sweep.ts) does when recurring series wake (docs/recurring-invoices.md "The
 * sweep"): each series' plan in its account's time zone (domain/recurring-series.ts `planSeriesSweep`: every period
 * issuable by now, from 06:00 on its issue date), then each period's invoice through add invoice itself, in one
 * transaction with its period item (new: the "exactly once") and the series moved on at the version read — a late,
 * doubled or crashed sweep creates each period once. Only the latest period of a plan is sent (its mail job in the
 * same transaction, through the mailer as `POST /invoices/{reference_code}/send`); the last period's transaction also
 * writes `recurring.completed`. A period's invoice refused (its client deleted since, its card forgotten) pauses the
 * series with the refusal as `last_error`.
 */
import { loadConfig } from '../config.ts';
import { formatTimestamp } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { decideSend } from '../domain/invoice-mail.ts';
import { pausedBySweep, type RecurringSeries, type SeriesError } from '../domain/recurring-invoice.ts';
import { lastPeriodOf } from '../domain/recurring-schedule.ts';
import { type PlannedPeriod, planSeriesSweep, type SeriesState } from '../domain/recurring-series.ts';
import { recurringCompletedEvents } from '../domain/webhook-events.ts';
import { logger } from '../observability.ts';
import { isFailure } from '../outcome.ts';
import { seriesView } from '../representation/recurring-views.ts';
import { periodInvoiceInput } from '../schemas/recurring.ts';
import type { Account } from '../store/accounts.ts';
import { tableName } from '../store/dynamodb-client.ts';
import type { Item } from '../store/items.ts';
import { mailJobPut, newMailJobId, queuedMailJob } from '../store/mail.ts';
import { loadSeries, periodIssuedActions, seriesChangeAction, seriesFrom, seriesKey } from '../store/recurring.ts';
import type { WakeHit, WakeRun } from '../store/wake-index.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, type TransactItem, type WritePlan } from '../store/write-executor.ts';
import { addInvoice } from './add-invoice.ts';
import { requestContext } from './context.ts';
import { wakeOf } from './recurring-invoices.ts';

/** The wake sweep's handler of recurring series: each decided and issued on its own. */
export async function wakeSeries(hits: WakeHit[], run: WakeRun): Promise<{ issued: number }> {
  let issued = 0;
  const found = await loadSeries(hits.map((hit) => hit.id));
  for (const hit of hits) {
    const series = found.get(hit.id);
    const account = series && (await run.account(series.companyId));
    if (series && account) issued += await issueDuePeriods(series, account, run);
  }
  return { issued };
}

/** Every period issuable by now, in order; only the latest sent. Returns how many were created by this sweep. */
async function issueDuePeriods(series: RecurringSeries, account: Account, run: WakeRun): Promise<number> {
  const send = series.send && loadConfig().mailFrom !== undefined;
  const plan = planSeriesSweep(series.schedule, series.state, { now: run.now, timeZone: account.timeZone, send });
  let issued = 0;
  for (const period of plan.create) {
    const outcome = await issuePeriod(series, period, { account, send: plan.send === period.period, now: run.now });
    if (outcome === 'refused') break;
    if (outcome === 'issued') issued++;
  }
  return issued;
}

type PeriodOutcome = 'issued' | 'skipped' | 'refused';

/** A sweep's write answers no one: its outcome is only whether it committed. */
const NOTHING_TO_DO: WritePlan = { actions: [], response: { status: 200, data: null } };

/** One period's invoice, as add invoice makes it, with the series' write in its transaction. */
async function issuePeriod(
  series: RecurringSeries,
  period: PlannedPeriod,
  options: { account: Account; send: boolean; now: Date },
): Promise<PeriodOutcome> {
  const input = periodInvoiceInput(series.template, period);
  if (!input) {
    const message = "The series' invoice no longer passes add invoice's validation.";
    return pauseWithError(series.id, { code: 'validation_failed', message, period: period.period });
  }
  const context = requestContext(options.account, `recurring:${series.id}:${period.period}`, undefined, options.now);
  let read: RecurringSeries | undefined;
  let skipped = false;
  const result = await addInvoice(context, input, {
    keys: [seriesKey(series.id)],
    before(items: Map<string, Item>) {
      read = seriesFrom(items, series.id);
      skipped = read?.state.status !== 'active' || read.state.nextPeriod !== period.period;
      // Another sweep created it (or the series was paused or cancelled) since this one read it: nothing to do.
      return skipped ? NOTHING_TO_DO : undefined;
    },
    shape: (invoice) => withOrigin(invoice, series.id, period.period, options.send),
    actions: (invoice) => periodActions(read!, period.period, invoice),
  });
  if (skipped) return 'skipped';
  if (!isFailure(result.response)) return 'issued';
  const { code, message } = result.response;
  return pauseWithError(series.id, { code, message, period: period.period });
}

/** The invoice as its series issues it: its origin, and its send queued when it is the one sent. */
function withOrigin(invoice: Invoice, seriesId: string, period: number, send: boolean): Invoice {
  const recurring = { seriesId, period };
  const details = { ...invoice.details, recurring };
  if (!send || !decideSend(invoice, invoice.details.companyId, {}).ok) return { ...invoice, details };
  const mail = { status: 'queued' as const, jobId: newMailJobId(), sentAt: null, error: null };
  return { details, balance: { ...invoice.balance, mail } };
}

/** The period item, the series moved on, the mail job of a sent invoice and, for the last period, its event. */
function periodActions(series: RecurringSeries, period: number, invoice: Invoice): TransactItem[] {
  const table = tableName();
  const nowMs = Date.now();
  const updatedAt = formatTimestamp(new Date(nowMs));
  const completed = period >= lastPeriodOf(series.schedule);
  const state: SeriesState = {
    status: completed ? 'completed' : 'active',
    nextPeriod: period + 1,
    issuedCount: series.state.issuedCount + 1,
  };
  const change = { state, wake: wakeOf(series.schedule, state), updatedAt, lastError: undefined };
  const actions = periodIssuedActions(table, series, { period, referenceCode: invoice.details.referenceCode }, change);
  const { mail } = invoice.balance;
  if (mail) {
    // The invoice's e-mail to its client, as `POST /invoices/{reference_code}/send` queues it.
    const { companyId, referenceCode, client } = invoice.details;
    const job = queuedMailJob({
      jobId: mail.jobId,
      companyId,
      referenceCode,
      to: client.email.trim(),
      createdAt: updatedAt,
    });
    actions.push(mailJobPut(table, job, nowMs));
  }
  if (completed) {
    const after = { ...series, state, updatedAt, version: series.version + 1, lastError: undefined };
    const context = { companyId: series.companyId, createdAt: updatedAt, newUlid: newEventUlid };
    actions.push(...eventPuts(recurringCompletedEvents(seriesView(after), context), nowMs, table));
  }
  return actions;
}

/** The series paused with why, on condition that it is still active at the version read; its period not created. */
async function pauseWithError(seriesId: string, error: SeriesError): Promise<PeriodOutcome> {
  logger.warn('A recurring invoice was refused; its series is paused', { seriesId, ...error });
  await executeWrite(
    {
      keys: () => [seriesKey(seriesId)],
      decide(items) {
        const series = seriesFrom(items, seriesId);
        if (series?.state.status !== 'active' || series.state.nextPeriod !== error.period) return NOTHING_TO_DO;
        const change = { state: pausedBySweep(series.state), wake: undefined, updatedAt: formatTimestamp(new Date()) };
        return {
          ...NOTHING_TO_DO,
          actions: [seriesChangeAction(tableName(), series, { ...change, lastError: error })],
        };
      },
    },
    undefined,
  );
  return 'refused';
}
