import { addMonths, addWeeks, addYears } from 'date-fns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CalendarDate, fromIsoDate, toIsoDate } from '../../shared/domain/dates.ts';
import {
  dueDateOf,
  issuableAt,
  issueDateOf,
  lastPeriodOf,
  type RecurringSchedule,
  type ScheduleUnit,
  scheduleError,
} from '../../shared/domain/recurring-schedule.ts';

const day = fromIsoDate;
const schedule = (more: Partial<RecurringSchedule>): RecurringSchedule => ({
  every: 1,
  unit: 'month',
  start: day('2026-01-31'),
  dueInDays: 14,
  end: { after: 1000 },
  ...more,
});
const issueDates = (s: RecurringSchedule, periods: number) =>
  Array.from({ length: periods }, (_, i) => toIsoDate(issueDateOf(s, i + 1)!));

/**
 * The reference: date-fns applied to the anchor each time (its months and years clamp to the month's last day), on a
 * local noon so that no daylight-saving change of the machine's zone can move the day.
 */
function referenceIssueDate(start: CalendarDate, unit: ScheduleUnit, steps: number): string {
  const anchor = new Date(start.year, start.month - 1, start.day, 12);
  const moved =
    unit === 'week' ? addWeeks(anchor, steps) : unit === 'month' ? addMonths(anchor, steps) : addYears(anchor, steps);
  return toIsoDate({ year: moved.getFullYear(), month: moved.getMonth() + 1, day: moved.getDate() });
}

const ZONES = [
  'Africa/Lagos',
  'Europe/London',
  'America/New_York',
  'Australia/Sydney',
  'Asia/Kolkata',
  'America/St_Johns',
  'Pacific/Chatham',
  'UTC',
];

const wallClocks = new Map<string, Intl.DateTimeFormat>();
/** What the zone's clock shows at an instant, as `YYYY-MM-DD HH:MM` (Intl, independently of the module). */
function wallClock(instant: Date, timeZone: string): string {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    wallClocks.set(timeZone, format);
  }
  const part = (type: string) => format.formatToParts(instant).find((p) => p.type === type)?.value;
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

describe('issueDateOf against date-fns', () => {
  it('monthly, every 1, 2 and 3: every anchor day 1–31 over 120 months, 06:00 in zones with and without DST', () => {
    let checked = 0;
    for (const every of [1, 2, 3]) {
      for (let anchorDay = 1; anchorDay <= 31; anchorDay++) {
        const start = { year: 2024, month: 1, day: anchorDay };
        const s = schedule({ every, start });
        for (let period = 1; period <= 120; period++) {
          const date = issueDateOf(s, period)!;
          expect(toIsoDate(date)).toBe(referenceIssueDate(start, 'month', (period - 1) * every));
          const zone = ZONES[(period + anchorDay) % ZONES.length]!;
          expect(wallClock(issuableAt(date, zone), zone)).toBe(`${toIsoDate(date)} 06:00`);
          checked++;
        }
      }
    }
    expect(checked).toBe(3 * 31 * 120);
  });

  it('any anchor, unit and step from 1970 to 9999 (property)', () => {
    const anchor = fc
      .integer({ min: 0, max: 2_900_000 })
      .map((n) => toIsoDate(fromEpochDay(n)))
      .map(day);
    const unit = fc.constantFrom<ScheduleUnit>('week', 'month', 'year');
    fc.assert(
      fc.property(
        anchor,
        unit,
        fc.integer({ min: 1, max: 36 }),
        fc.integer({ min: 1, max: 400 }),
        (start, u, every, n) => {
          const s = schedule({ start, unit: u, every: u === 'year' ? Math.min(every, 3) : every });
          const expected = referenceIssueDate(start, u, (n - 1) * s.every);
          const date = issueDateOf(s, n);
          if (Number(expected.split('-')[0]) > 9999) expect(date).toBeUndefined();
          else expect(toIsoDate(date!)).toBe(expected);
        },
      ),
    );
  });

  it('06:00 account time on every day of 2026 in each zone, across its DST changes', () => {
    for (const zone of ZONES) {
      for (let n = 0; n < 365; n++) {
        const date = fromEpochDay(20_454 + n); // 2026-01-01 on
        expect(wallClock(issuableAt(date, zone), zone)).toBe(`${toIsoDate(date)} 06:00`);
      }
    }
  });
});

function fromEpochDay(n: number): CalendarDate {
  const d = new Date(n * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

describe('issueDateOf: examples', () => {
  it('monthly from the 31st: 28/29 Feb, 31 Mar, 30 Apr — from the anchor, never from the previous date', () => {
    expect(issueDates(schedule({ start: day('2024-01-31') }), 5)).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
      '2024-05-31',
    ]);
    expect(issueDates(schedule({ start: day('2026-01-31') }), 3)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
  });

  it('monthly from the 30th: 28 Feb, then the 30th again', () => {
    expect(issueDates(schedule({ start: day('2026-01-30') }), 4)).toEqual([
      '2026-01-30',
      '2026-02-28',
      '2026-03-30',
      '2026-04-30',
    ]);
  });

  it('yearly from 29 Feb: 28 Feb in other years, 29 Feb in leap years (2100 is not one)', () => {
    const s = schedule({ unit: 'year', start: day('2024-02-29') });
    expect(issueDates(s, 5)).toEqual(['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']);
    expect(toIsoDate(issueDateOf(s, 77)!)).toBe('2100-02-28');
  });

  it('weekly and every two weeks, across a month and a year end', () => {
    expect(issueDates(schedule({ unit: 'week', start: day('2026-12-24') }), 3)).toEqual([
      '2026-12-24',
      '2026-12-31',
      '2027-01-07',
    ]);
    expect(issueDates(schedule({ unit: 'week', every: 2, start: day('2026-01-01') }), 3)).toEqual([
      '2026-01-01',
      '2026-01-15',
      '2026-01-29',
    ]);
  });

  it('quarterly from 31 Jan: 30 Apr, 31 Jul, 31 Oct', () => {
    expect(issueDates(schedule({ every: 3, start: day('2026-01-31') }), 4)).toEqual([
      '2026-01-31',
      '2026-04-30',
      '2026-07-31',
      '2026-10-31',
    ]);
  });

  it('the due date is the issue date plus due_in_days', () => {
    expect(toIsoDate(dueDateOf(schedule({ dueInDays: 14 }), day('2026-02-28')))).toBe('2026-03-14');
  });

  it('nothing past the year 9999', () => {
    expect(issueDateOf(schedule({ unit: 'year', start: day('9998-06-01') }), 3)).toBeUndefined();
  });
});

describe('lastPeriodOf', () => {
  it.each([
    [{ after: 12 }, 12],
    [{ on: day('2026-12-31') }, 12],
    [{ on: day('2026-12-30') }, 11], // December's period is on the 31st
    [{ on: day('2026-01-31') }, 1],
    [{ on: day('2026-01-30') }, 0],
  ])('monthly from 31 Jan 2026, ending %j: the last period is %i', (end, last) => {
    expect(lastPeriodOf(schedule({ end }))).toBe(last);
  });

  it('an end date far away: every period up to it (weekly to 9999)', () => {
    const s = schedule({ unit: 'week', start: day('2026-01-01'), end: { on: day('9999-12-31') } });
    const last = lastPeriodOf(s);
    expect(toIsoDate(issueDateOf(s, last)!) <= '9999-12-31').toBe(true);
    expect(issueDateOf(s, last + 1)).toBeUndefined();
  });
});

describe('issuableAt', () => {
  it.each([
    ['Africa/Lagos', '2026-03-29', '2026-03-29T05:00:00.000Z'],
    ['Europe/London', '2026-03-28', '2026-03-28T06:00:00.000Z'], // GMT
    ['Europe/London', '2026-03-29', '2026-03-29T05:00:00.000Z'], // BST from 01:00 UTC that day
    ['America/New_York', '2026-03-08', '2026-03-08T10:00:00.000Z'], // EDT from 02:00 that day
    ['America/New_York', '2026-11-01', '2026-11-01T11:00:00.000Z'], // EST again
    ['Australia/Sydney', '2026-04-05', '2026-04-04T20:00:00.000Z'], // AEST from 03:00 that day
  ])('06:00 in %s on %s is %s', (zone, date, instant) => {
    expect(issuableAt(day(date), zone).toISOString()).toBe(instant);
  });
});

describe('scheduleError', () => {
  it('accepts a valid schedule', () => {
    expect(scheduleError(schedule({}))).toBeUndefined();
  });

  it.each([
    [{ every: 0 }, 'schedule.every'],
    [{ every: 37 }, 'schedule.every'],
    [{ unit: 'week' as const, every: 157 }, 'schedule.every'],
    [{ dueInDays: -1 }, 'schedule.due_in_days'],
    [{ dueInDays: 366 }, 'schedule.due_in_days'],
    [{ end: { after: 0 } }, 'schedule.end.after'],
    [{ end: { on: day('2026-01-30') } }, 'schedule.end.on'],
  ])('refuses %j on %s', (more, field) => {
    expect(scheduleError(schedule(more))?.errors.map((e) => e.field)).toEqual([field]);
  });
});
