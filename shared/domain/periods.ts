/** Payment history periods (docs/api.md "Payment history and pagination"): each resolves to an inclusive calendar date range. */
import { addDays, type CalendarDate, compareDates, daysInclusive, toEpochSeconds } from './dates.ts';
import { fail, ok, type ParseResult } from './result.ts';

export const PERIODS = ['today', 'week', 'month', '30', '90', 'year', 'custom'] as const;
export type Period = (typeof PERIODS)[number];

export interface DateRange {
  from: CalendarDate;
  to: CalendarDate;
}

export const MAX_CUSTOM_RANGE_DAYS = 366;

/**
 * The inclusive date range of a period, given today's date in the account's time zone.
 * `custom` needs `custom` with start ≤ end spanning at most 366 days; it may extend past today.
 */
export function resolvePeriod(
  period: Period,
  today: CalendarDate,
  custom?: { start: CalendarDate; end: CalendarDate },
): ParseResult<DateRange> {
  switch (period) {
    case 'today':
      return ok({ from: today, to: today });
    case 'week':
      return ok({ from: addDays(today, -daysSinceMonday(today)), to: today });
    case 'month':
      return ok({ from: { ...today, day: 1 }, to: today });
    case '30':
      return ok({ from: addDays(today, -29), to: today });
    case '90':
      return ok({ from: addDays(today, -89), to: today });
    case 'year':
      return ok({ from: { year: today.year, month: 1, day: 1 }, to: today });
    case 'custom':
      return resolveCustom(custom);
  }
}

function resolveCustom(custom?: { start: CalendarDate; end: CalendarDate }): ParseResult<DateRange> {
  if (!custom) return fail('the custom period needs both start and end, in DD/MM/YYYY format');
  const { start, end } = custom;
  if (compareDates(start, end) > 0) return fail('start must be on or before end');
  if (daysInclusive(start, end) > MAX_CUSTOM_RANGE_DAYS) {
    return fail(`the custom period may span at most ${MAX_CUSTOM_RANGE_DAYS} days, counting start and end`);
  }
  return ok({ from: start, to: end });
}

/** 0 for Monday … 6 for Sunday (ISO weekday − 1). */
function daysSinceMonday(d: CalendarDate): number {
  const sundayZero = new Date(toEpochSeconds(d) * 1000).getUTCDay();
  return (sundayZero + 6) % 7;
}
