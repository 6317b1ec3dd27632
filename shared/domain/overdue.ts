/**
 * Overdue (docs/api.md "Overdue"): `payment_status` as shown is `overdue` when something is still due, the
 * invoice is not deleted, and today in the account's time zone is after the due date; `void` for a deleted (voided)
 * invoice, which then shows nothing due (docs/tax.md "Void"). Computed when an invoice is shown, never stored: the
 * stored header keeps `unpaid | partially_paid | paid` and the amount that was due when it was voided.
 */
import { type CalendarDate, compareDates, fromEpochSeconds } from './dates.ts';
import type { InvoiceBalance, PaymentStatus } from './invoice.ts';

export type DisplayedPaymentStatus = PaymentStatus | 'overdue' | 'void';

/** Every `payment_status` an invoice can be shown with (the history filter's values). */
export const DISPLAYED_PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid', 'overdue', 'void'] as const;

type OpenState = Pick<InvoiceBalance, 'amountDueKobo' | 'deletedAt'>;

/** The `amount_due` an invoice is shown with: nothing on a voided one. */
export const displayedAmountDue = (balance: OpenState): number =>
  balance.deletedAt === null ? balance.amountDueKobo : 0;

/** Still open: something is due and the invoice is not deleted (an open invoice may become overdue). */
export const isOpen = (balance: OpenState): boolean => balance.amountDueKobo > 0 && balance.deletedAt === null;

/** `dueDate` is the stored due date (Unix seconds of 00:00 UTC of the calendar date: docs/api.md "Dates and time"). */
export function isOverdue(balance: OpenState, dueDate: number, today: CalendarDate): boolean {
  return isOpen(balance) && compareDates(today, fromEpochSeconds(dueDate)) > 0;
}

/** The `payment_status` an invoice is shown with on `today` (the account's calendar date). */
export function displayedPaymentStatus(
  balance: OpenState & Pick<InvoiceBalance, 'paymentStatus'>,
  dueDate: number,
  today: CalendarDate,
): DisplayedPaymentStatus {
  if (balance.deletedAt !== null) return 'void';
  return isOverdue(balance, dueDate, today) ? 'overdue' : balance.paymentStatus;
}

/**
 * The stored states an invoice shown as `status` can be in, and whether it is voided: what invoice history's index
 * query can filter on before the displayed status is decided per invoice.
 */
export function storedStatesShownAs(status: DisplayedPaymentStatus): { statuses: PaymentStatus[]; voided: boolean } {
  if (status === 'void') return { statuses: ['unpaid', 'partially_paid', 'paid'], voided: true };
  if (status === 'overdue') return { statuses: ['unpaid', 'partially_paid'], voided: false };
  return { statuses: [status], voided: false };
}
