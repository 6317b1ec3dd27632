/**
 * A recurring invoice's schedule, pure (docs/decisions.md "Recurring invoices"): period n's issue date is
 * computed from the start (the anchor), never from the previous period's date, so dates do not drift — monthly from
 * the 31st gives 28/29 Feb, 31 Mar, 30 Apr; yearly from 29 Feb gives 28 Feb in other years. A period becomes issuable
 * at 06:00 on its issue date in the account's time zone. Calendar dates as domain/dates.ts holds them.
 */
import { addDays, type CalendarDate, compareDates, daysInMonth, wallClockInstant } from './dates.ts';
import { type FieldError, invalidFields, type Refusal } from './refusal.ts';

export const SCHEDULE_UNITS = ['week', 'month', 'year'] as const;
export type ScheduleUnit = (typeof SCHEDULE_UNITS)[number];

/** After a number of periods (period N is the last), or on a date (the last period issued on or before it). */
export type ScheduleEnd = { after: number } | { on: CalendarDate };

export interface RecurringSchedule {
  /** Units between periods. */
  every: number;
  unit: ScheduleUnit;
  /** Period 1's issue date, the anchor of every other. */
  start: CalendarDate;
  /** Each invoice's due date is its issue date plus this. */
  dueInDays: number;
  end: ScheduleEnd;
}

/** At most three years between periods (as Stripe allows), a year of payment terms, a thousand periods. */
export const MAX_EVERY: Readonly<Record<ScheduleUnit, number>> = { week: 156, month: 36, year: 3 };
export const MAX_DUE_IN_DAYS = 365;
export const MAX_PERIODS = 1000;

const LAST_YEAR = 9999;

/** The minute of the day (account time zone) a period's invoice may be created from: 06:00. */
export const ISSUE_MINUTE_OF_DAY = 6 * 60;

/** The refusal of a schedule out of range (fields under `schedule.`), or undefined. */
export function scheduleError(schedule: RecurringSchedule): Refusal | undefined {
  const { every, unit, dueInDays, end } = schedule;
  const errors: FieldError[] = [];
  const wholeIn = (n: number, min: number, max: number) => Number.isInteger(n) && n >= min && n <= max;
  if (!wholeIn(every, 1, MAX_EVERY[unit]))
    errors.push({ code: 'invalid_range', field: 'schedule.every', message: `must be 1 to ${MAX_EVERY[unit]}` });
  if (!wholeIn(dueInDays, 0, MAX_DUE_IN_DAYS))
    errors.push({ code: 'invalid_range', field: 'schedule.due_in_days', message: `must be 0 to ${MAX_DUE_IN_DAYS}` });
  if ('after' in end && !wholeIn(end.after, 1, MAX_PERIODS))
    errors.push({ code: 'invalid_range', field: 'schedule.end.after', message: `must be 1 to ${MAX_PERIODS}` });
  if ('on' in end && compareDates(end.on, schedule.start) < 0)
    errors.push({ code: 'invalid_date', field: 'schedule.end.on', message: 'must not be before schedule.start' });
  return errors.length > 0 ? invalidFields(errors) : undefined;
}

/**
 * Period n's issue date (n ≥ 1): the start moved by (n − 1) × every units, the day of the month clamped to the target
 * month's last day; undefined past the year 9999.
 */
export function issueDateOf(schedule: RecurringSchedule, period: number): CalendarDate | undefined {
  if (!Number.isSafeInteger(period) || period < 1) throw new RangeError(`not a period: ${period}`);
  const { start, every, unit } = schedule;
  const steps = (period - 1) * every;
  let date: CalendarDate;
  if (unit === 'week') {
    date = addDays(start, 7 * steps);
  } else {
    const months = start.year * 12 + (start.month - 1) + (unit === 'month' ? steps : 12 * steps);
    const [year, month] = [Math.floor(months / 12), (months % 12) + 1];
    date = { year, month, day: Math.min(start.day, daysInMonth(year, month)) };
  }
  return date.year <= LAST_YEAR ? date : undefined;
}

/** Period n's due date: its issue date plus `dueInDays`. */
export function dueDateOf(schedule: RecurringSchedule, issueDate: CalendarDate): CalendarDate {
  return addDays(issueDate, schedule.dueInDays);
}

/** The number of the series' last period (0 when its end date is before its start). */
export function lastPeriodOf(schedule: RecurringSchedule): number {
  const { end } = schedule;
  const exists = (n: number) => {
    const date = issueDateOf(schedule, n);
    return date !== undefined && ('after' in end ? n <= end.after : compareDates(date, end.on) <= 0);
  };
  // Issue dates grow with n, so the periods that exist are 1…last: double past the last, then bisect.
  let [low, high] = [0, 1];
  while (exists(high)) [low, high] = [high, high * 2];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (exists(middle)) low = middle;
    else high = middle;
  }
  return low;
}

/** The instant a period with this issue date becomes issuable: 06:00 that day in the account's time zone. */
export function issuableAt(issueDate: CalendarDate, timeZone: string): Date {
  return wallClockInstant(issueDate, ISSUE_MINUTE_OF_DAY, timeZone);
}
