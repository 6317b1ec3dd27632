/**
 * Reminders (docs/receivables.md "Reminders"), pure: which reminder of an account's schedule is due for an invoice on a
 * day, and the next day the sweep must look at the invoice again. A schedule is days relative to the due date
 * (−3 = three days before, 0 = on the day, 7 = a week after). On a day, the reminder due is the latest offset whose
 * day has come, if it was not sent: earlier ones it missed (downtime, a pause, a schedule set later) are skipped,
 * never sent in a burst. Each offset is sent at most once per invoice (the store's condition holds it under racing
 * sweeps: docs/data-design.md "Wake index"). Reminders go only to an invoice that was sent at least once (docs/tax.md
 * "Reminders"): one its client never received is not reminded about.
 */
import { addDays, type CalendarDate, compareDates, fromEpochSeconds } from './dates.ts';
import type { Invoice, InvoiceMail, InvoiceReminders, ReminderRecord } from './invoice.ts';
import { isOpen } from './overdue.ts';
import { accept, type Decision, notFound, Refusal, refuse } from './refusal.ts';

export const NO_REMINDERS: InvoiceReminders = { sent: [], paused: false };

/** The calendar day of a reminder: the due date moved by `offset` days. */
export const reminderDay = (dueDate: CalendarDate, offset: number): CalendarDate => addDays(dueDate, offset);

/**
 * The offset to send on `today`: the latest offset whose day has come, when it was not sent yet; undefined when none
 * has come or the latest was sent (an earlier unsent one is skipped, never sent late).
 */
export function dueReminderOffset(
  offsets: readonly number[],
  dueDate: CalendarDate,
  today: CalendarDate,
  sent: readonly ReminderRecord[],
): number | undefined {
  const come = offsets.filter((offset) => compareDates(reminderDay(dueDate, offset), today) <= 0);
  if (come.length === 0) return undefined;
  const latest = Math.max(...come);
  return sent.some((record) => record.offset === latest) ? undefined : latest;
}

/** The first day after `today` on which an offset of the schedule falls; undefined when none is left. */
export function nextReminderDay(
  offsets: readonly number[],
  dueDate: CalendarDate,
  today: CalendarDate,
): CalendarDate | undefined {
  const days = offsets.map((offset) => reminderDay(dueDate, offset)).filter((day) => compareDates(day, today) > 0);
  return days.sort(compareDates)[0];
}

/**
 * Whether SES accepted a send of the invoice at least once: recorded on its first acceptance, or — for an invoice sent
 * before that was recorded — its latest send accepted.
 */
export const wasSent = (balance: Pick<Invoice['balance'], 'everSent' | 'mail'>): boolean =>
  balance.everSent === true || (balance.mail?.sentAt ?? null) !== null;

/**
 * Whether recording a send's outcome wakes the open invoice for the next sweep: on its first acceptance. Until then
 * the sweep sent it no reminder and put its wake off to its next reminder day, or took it out of the index when none
 * was left — so without this wake the reminder already due would wait for that day, or never come.
 */
export const wakesOnFirstSend = (
  before: Pick<Invoice['balance'], 'everSent' | 'mail' | 'amountDueKobo' | 'deletedAt'>,
  outcome: Pick<InvoiceMail, 'sentAt'>,
): boolean => outcome.sentAt !== null && !wasSent(before) && isOpen(before);

/** What the sweep knows of one invoice on its account's `today`. */
export interface SweepFacts {
  invoice: Invoice;
  /** The account's reminder schedule (ascending; empty when none). */
  offsets: readonly number[];
  today: CalendarDate;
  /** Whether `invoice.overdue` was already written for it. */
  overdueNotified: boolean;
  /**
   * Whether a reminder can be e-mailed: the stage has a sender and the client an address. When it cannot, none is
   * recorded — the invoice still wakes on its reminder days, and the first day one can be sent, the latest due is.
   */
  canRemind: boolean;
}

/** What the sweep does to one invoice: notify it overdue, send a reminder, and when to look at it again. */
export interface SweepPlan {
  notifyOverdue: boolean;
  /** The offset of the reminder to send now. */
  remind: number | undefined;
  /** The next day something may be due for it; undefined: it leaves the index (nothing more can be due). */
  nextWake: CalendarDate | undefined;
}

export function planSweep(facts: SweepFacts): SweepPlan {
  const { invoice, offsets, today } = facts;
  if (!isOpen(invoice.balance)) return { notifyOverdue: false, remind: undefined, nextWake: undefined };
  const dueDate = fromEpochSeconds(invoice.details.dueDate);
  const overdueDay = addDays(dueDate, 1);
  const notifyOverdue = !facts.overdueNotified && compareDates(today, overdueDay) >= 0;
  const overduePending = !facts.overdueNotified && !notifyOverdue;
  const reminders = invoice.balance.reminders ?? NO_REMINDERS;
  const schedule = reminders.paused ? [] : offsets;
  // Unsent, it still wakes on its reminder days; its first acceptance wakes it (`wakesOnFirstSend`), and that sweep
  // sends the latest due.
  const remind =
    facts.canRemind && wasSent(invoice.balance)
      ? dueReminderOffset(schedule, dueDate, today, reminders.sent)
      : undefined;
  const wakes = [overduePending ? overdueDay : undefined, nextReminderDay(schedule, dueDate, today)];
  const nextWake = wakes.filter((day): day is CalendarDate => day !== undefined).sort(compareDates)[0];
  return { notifyOverdue, remind, nextWake };
}

/** What `POST /invoices/{reference_code}/reminders` asks: pause (true) or resume (false). */
export interface RemindersRequest {
  paused: boolean;
}

/**
 * Whether the invoice's reminders may be paused or resumed: another account's or an unknown invoice is 404, a voided
 * one 409 `invoice_deleted` (it has no reminders left to pause). A paid invoice may be paused: harmless, it sends none.
 */
export function decideRemindersChange(invoice: Invoice | undefined, companyId: number): Decision<Invoice> {
  if (!invoice || invoice.details.companyId !== companyId) return refuse(notFound('invoice_not_found'));
  if (invoice.balance.deletedAt !== null)
    return refuse(
      new Refusal('invoice_deleted', 'This invoice was voided; it has no reminders to pause or resume.', [
        { code: 'invoice_deleted', field: 'reference_code', message: 'the invoice was voided' },
      ]),
    );
  return accept(invoice);
}

/** The words of a reminder's subject for an invoice due `daysFromDue` days ago (negative: not yet due). */
export function reminderDueText(daysFromDue: number): string {
  if (daysFromDue === 0) return 'due today';
  const days = Math.abs(daysFromDue);
  const unit = days === 1 ? 'day' : 'days';
  return daysFromDue < 0 ? `due in ${days} ${unit}` : `overdue by ${days} ${unit}`;
}
