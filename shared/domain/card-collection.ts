/**
 * Automatic collection of an invoice created with a saved card, pure (docs/decisions.md "Automatic
 * collection"): the day of the first attempt, whether an attempt is due, and what a decline does to the invoice's
 * `collection`. A declined first attempt is retried 1, 3 and 7 days after the day of that first attempt — a schedule
 * anchored on the first attempt, like a recurring series on its start, so a late sweep does not push every later retry
 * back — but never twice on one day; after the fourth decline collection has `failed`.
 */
import { addDays, type CalendarDate, compareDates } from './dates.ts';

/** Days after the first attempt's day on which a declined collection is tried again. */
export const COLLECTION_RETRY_DAYS = [1, 3, 7] as const;

/** The first attempt and one per retry. */
export const MAX_COLLECTION_ATTEMPTS = COLLECTION_RETRY_DAYS.length + 1;

/** An invoice's `collection` after a decline (absent until the first decline). */
export interface CollectionState {
  status: 'retrying' | 'failed';
  /** Attempts made, all declined. */
  attempts: number;
  /** What the last decline said (Paystack's gateway response). */
  lastError: string;
  /** The day of the next attempt (account time zone); null once `failed`. */
  nextAttempt: CalendarDate | null;
  /** The day of the first attempt, which the retries count from (not shown). */
  firstAttempt: CalendarDate;
}

/** The day of the first attempt: the due date, or the day the invoice was created when that is later. */
export function firstCollectionDay(dueDate: CalendarDate, createdOn: CalendarDate): CalendarDate {
  return compareDates(createdOn, dueDate) > 0 ? createdOn : dueDate;
}

/** What the sweep knows of an invoice with a saved card on a day. */
export interface CollectionFacts {
  /** The invoice still has an amount due and is not voided (paying by other means stops collection). */
  open: boolean;
  /** The invoice's collection so far; undefined before the first decline. */
  state: CollectionState | undefined;
  /** firstCollectionDay of the invoice. */
  firstDay: CalendarDate;
  /** Today in the account's time zone. */
  today: CalendarDate;
}

/** Whether a charge is to be attempted today; reminders being paused does not matter. */
export function collectionDue(facts: CollectionFacts): boolean {
  if (!facts.open) return false;
  const { state, today } = facts;
  if (state === undefined) return compareDates(today, facts.firstDay) >= 0;
  return state.status === 'retrying' && state.nextAttempt !== null && compareDates(today, state.nextAttempt) >= 0;
}

/** The collection after the attempt made on `attemptedOn` was declined with `error`. */
export function afterDecline(
  previous: CollectionState | undefined,
  attemptedOn: CalendarDate,
  error: string,
): CollectionState {
  const attempts = (previous?.attempts ?? 0) + 1;
  const firstAttempt = previous?.firstAttempt ?? attemptedOn;
  const retryDays = COLLECTION_RETRY_DAYS[attempts - 1];
  if (retryDays === undefined) return { status: 'failed', attempts, lastError: error, nextAttempt: null, firstAttempt };
  const scheduled = addDays(firstAttempt, retryDays);
  const dayAfter = addDays(attemptedOn, 1);
  const nextAttempt = compareDates(scheduled, dayAfter) >= 0 ? scheduled : dayAfter;
  return { status: 'retrying', attempts, lastError: error, nextAttempt, firstAttempt };
}
