/**
 * An invoice's reminders and its overdue notice (docs/receivables.md "Reminders", docs/webhooks.md "The overdue
 * sweep"): what the wake sweep (services/wake-sweep.ts) does when open invoices wake — decide each in its account's
 * time zone (domain/reminders.ts `planSweep`), then write the header's change, the `invoice.overdue` and
 * `invoice.reminder_sent` events and a reminder's mail job in one conditional transaction, so a reminder is recorded
 * exactly when its e-mail is queued and its event written — and pausing or resuming an invoice's reminders
 * (`POST /invoices/{reference_code}/reminders`: one read, a decision, one conditional update of the header; resuming
 * an open invoice wakes it for the next sweep, so that a reminder due today is sent today).
 */
import { loadConfig } from '../config.ts';
import { type CalendarDate, formatTimestamp, todayIn, toEpochSeconds, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { isOpen } from '../domain/overdue.ts';
import {
  decideRemindersChange,
  NO_REMINDERS,
  planSweep,
  type RemindersRequest,
  type SweepPlan,
} from '../domain/reminders.ts';
import { invoiceOverdueEvents, invoiceReminderEvents } from '../domain/webhook-events.ts';
import { invoiceRemindersUpdated, invoiceView } from '../representation/views.ts';
import type { Account } from '../store/accounts.ts';
import { tableName } from '../store/dynamodb-client.ts';
import {
  invoiceFrom,
  invoiceKeys,
  loadInvoices,
  remindersPauseAction,
  type SweepChange,
  sweepHeaderAction,
} from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { wakeIndexKeys } from '../store/keys.ts';
import { type MailJob, mailJobPut, queuedMailJob } from '../store/mail.ts';
import { commitWake, type WakeHit, type WakeRun } from '../store/wake-index.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, type TransactItem, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';

const DAY_SECONDS = 86_400;

/** What the sweep did to a page of invoices. */
export interface InvoiceWakeCounts {
  notified: number;
  reminded: number;
  closed: number;
}

/** The wake sweep's handler of invoices: each hit decided and written on its own. */
export async function wakeInvoices(hits: WakeHit[], run: WakeRun): Promise<InvoiceWakeCounts> {
  const counts: InvoiceWakeCounts = { notified: 0, reminded: 0, closed: 0 };
  const invoices = await loadInvoices(hits.map((hit) => hit.id));
  for (const hit of hits) {
    const invoice = invoices.get(hit.id);
    if (!invoice) continue;
    const account = await run.account(invoice.details.companyId);
    if (account) await wakeInvoice(hit, invoice, account, run, counts);
  }
  return counts;
}

/** One invoice in its account's time zone: decide, then write the decision, its events and the next wake together. */
async function wakeInvoice(
  hit: WakeHit,
  invoice: Invoice,
  account: Account,
  run: WakeRun,
  counts: InvoiceWakeCounts,
): Promise<void> {
  const today = todayIn(account.timeZone, run.now);
  const plan = planSweep({
    invoice,
    offsets: account.reminderOffsets,
    today,
    overdueNotified: invoice.balance.overdueNotified === true,
    canRemind: canRemind(invoice),
  });
  if (isUnchanged(hit, plan)) return;
  const committed = await commitWake(sweepWrite(hit, invoice, account, plan, { today, at: run.writtenAt() }));
  if (!committed) return; // Another sweep, a payment or a wake changed it since it was read: the next run decides.
  if (plan.notifyOverdue) counts.notified++;
  if (plan.remind !== undefined) counts.reminded++;
  if (!isOpen(invoice.balance)) counts.closed++;
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
  return hit.indexKey === wakeIndexKeys.sort(toIsoDate(plan.nextWake), hit.id);
}

/** The header's change, the events and a reminder's mail job: one transaction. */
function sweepWrite(
  hit: WakeHit,
  invoice: Invoice,
  account: Account,
  plan: SweepPlan,
  when: { today: CalendarDate; at: Date },
): TransactItem[] {
  const table = tableName();
  const { referenceCode } = invoice.details;
  const change: SweepChange = {
    referenceCode,
    indexKey: hit.indexKey,
    nextWake: plan.nextWake && toIsoDate(plan.nextWake),
  };
  if (!plan.notifyOverdue && plan.remind === undefined) return [sweepHeaderAction(table, change)];
  const sentAt = formatTimestamp(when.at);
  const reminders = invoice.balance.reminders ?? NO_REMINDERS;
  change.version = invoice.balance.version;
  if (plan.notifyOverdue) change.overdueAt = sentAt;
  let after = invoice;
  if (plan.remind !== undefined) {
    change.reminder = { offset: plan.remind, sentAt, sentBefore: reminders.sent.length };
    const sent = [...reminders.sent, { offset: plan.remind, sentAt }];
    after = { ...invoice, balance: { ...invoice.balance, reminders: { ...reminders, sent } } };
  }
  const data = invoiceView(after, { today: when.today, withClient: true });
  const context = { companyId: account.companyId, createdAt: sentAt, newUlid: newEventUlid };
  const events = [
    ...(plan.notifyOverdue ? invoiceOverdueEvents(data, context) : []),
    ...(plan.remind === undefined ? [] : invoiceReminderEvents(data, plan.remind, context)),
  ];
  const actions = [sweepHeaderAction(table, change), ...eventPuts(events, when.at.getTime(), table)];
  if (plan.remind !== undefined)
    actions.push(mailJobPut(table, reminderJob(invoice, plan.remind, when.today, sentAt), when.at.getTime()));
  return actions;
}

/** The reminder's e-mail: to the invoice's client, rendered by the mailer with the reminder's subject. */
function reminderJob(invoice: Invoice, offset: number, today: CalendarDate, createdAt: string): MailJob {
  const daysFromDue = Math.round((toEpochSeconds(today) - invoice.details.dueDate) / DAY_SECONDS);
  const { companyId, referenceCode, client } = invoice.details;
  return queuedMailJob({
    companyId,
    referenceCode,
    to: client.email.trim(),
    createdAt,
    reminder: { offset, daysFromDue },
  });
}

export interface ChangeRemindersRequest extends RemindersRequest {
  referenceCode: string;
}

/** Pause or resume an invoice's reminders (docs/api.md "Reminders"). */
export function changeReminders(context: RequestContext, request: ChangeRemindersRequest): Promise<WriteResult> {
  return executeWrite(
    { keys: () => invoiceKeys(request.referenceCode), decide: (items) => planChange(context, request, items) },
    idempotencyOf(context, 'invoice-reminders', request),
  );
}

function planChange(context: RequestContext, request: ChangeRemindersRequest, items: Map<string, Item>): WritePlan {
  const decision = decideRemindersChange(invoiceFrom(items, request.referenceCode), context.account.companyId);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const invoice = decision.value;
  const reminders = invoice.balance.reminders ?? NO_REMINDERS;
  const changed: Invoice = {
    ...invoice,
    balance: { ...invoice.balance, reminders: { ...reminders, paused: request.paused } },
  };
  const action = remindersPauseAction(tableName(), {
    referenceCode: request.referenceCode,
    companyId: context.account.companyId,
    version: invoice.balance.version,
    paused: request.paused,
    wake: !request.paused && isOpen(invoice.balance),
  });
  return { actions: [action], response: invoiceRemindersUpdated(changed, context.todayForOverdue) };
}
