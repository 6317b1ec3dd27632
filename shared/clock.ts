/**
 * The service's notion of "now" for overdue (docs/api.md "Overdue"): the real clock, moved forward by `CLOCK_OFFSET_MS`
 * in the local runtime only (never deployed), so that tests and demos can see invoices fall due without waiting days.
 * It shifts what views show as `overdue` and what the wake sweep decides — nothing else (docs/decisions.md).
 */
import { loadConfig } from './config.ts';
import { type CalendarDate, todayIn } from './domain/dates.ts';

export const clockNow = (): Date => new Date(Date.now() + loadConfig().clockOffsetMs);

/** Today's calendar date in an account's time zone, by `clockNow()`: what a view decides `overdue` on. */
export const todayForOverdue = (timeZone: string): CalendarDate => todayIn(timeZone, clockNow());
