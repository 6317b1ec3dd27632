/**
 * What the sweep writes on one invoice (services/sweep-overdue.ts): the header's change (store/overdue.ts), the
 * `invoice.overdue` and `invoice.reminder_sent` events, and a reminder's mail job — one transaction, so a reminder is
 * recorded exactly when its e-mail is queued and its event written (docs/receivables.md "Reminders").
 */
import { type CalendarDate, formatTimestamp, toEpochSeconds, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { NO_REMINDERS, type SweepPlan } from '../domain/reminders.ts';
import { invoiceOverdueEvents, invoiceReminderEvents } from '../domain/webhook-events.ts';
import { invoiceView } from '../representation/views.ts';
import type { Account } from '../store/accounts.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { type MailJob, newMailJobId, reminderJobPut } from '../store/mail-jobs.ts';
import { type SweepChange, sweepHeaderAction, type WakeHit } from '../store/overdue.ts';
import type { TransactItem } from '../store/transaction.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';

const DAY_SECONDS = 86_400;

export function sweepWrite(
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
    actions.push(reminderJobPut(table, reminderJob(invoice, plan.remind, when.today, sentAt), when.at.getTime()));
  return actions;
}

/** The reminder's e-mail: to the invoice's client, rendered by the mailer with the reminder's subject. */
function reminderJob(invoice: Invoice, offset: number, today: CalendarDate, createdAt: string): MailJob {
  const daysFromDue = Math.round((toEpochSeconds(today) - invoice.details.dueDate) / DAY_SECONDS);
  return {
    jobId: newMailJobId(),
    companyId: invoice.details.companyId,
    referenceCode: invoice.details.referenceCode,
    to: invoice.details.client.email.trim(),
    cc: [],
    message: undefined,
    state: 'queued',
    attempts: 0,
    createdAt,
    lastAttemptAt: null,
    nextAttemptAt: null,
    lastError: null,
    sesMessageId: null,
    sentAt: null,
    reminder: { offset, daysFromDue },
  };
}
