import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, type CalendarDate, compareDates, daysInclusive } from '../../shared/domain/dates.ts';
import { PERIODS, type Period, resolvePeriod } from '../../shared/domain/periods.ts';

const date = (year: number, month: number, day: number): CalendarDate => ({ year, month, day });

/** ISO weekday 1 (Monday) … 7 (Sunday), counted from 1970-01-01, a Thursday. */
const isoWeekday = (d: CalendarDate): number => {
  const dayNumber = Math.round(Date.UTC(d.year, d.month - 1, d.day) / 86_400_000);
  return ((((dayNumber + 3) % 7) + 7) % 7) + 1;
};

const calendarDate = fc
  .integer({ min: Date.UTC(1971, 0, 1) / 86_400_000, max: Date.UTC(9999, 11, 31) / 86_400_000 })
  .map((n) => {
    const d = new Date(n * 86_400_000);
    return date(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  });

const fixed = (period: Period, today: CalendarDate) => resolvePeriod(period, today);

describe('resolvePeriod with fixed todays', () => {
  it.each([
    // [period, today, from]
    ['today', date(2025, 6, 18), date(2025, 6, 18)],
    ['week', date(2025, 6, 16), date(2025, 6, 16)], // a Monday
    ['week', date(2025, 6, 18), date(2025, 6, 16)], // a Wednesday
    ['week', date(2025, 6, 22), date(2025, 6, 16)], // a Sunday
    ['week', date(2025, 1, 1), date(2024, 12, 30)], // the week straddles New Year
    ['month', date(2025, 6, 18), date(2025, 6, 1)],
    ['month', date(2025, 1, 1), date(2025, 1, 1)],
    ['30', date(2025, 6, 18), date(2025, 5, 20)],
    ['30', date(2024, 2, 29), date(2024, 1, 31)],
    ['90', date(2025, 6, 18), date(2025, 3, 21)],
    ['90', date(2025, 1, 1), date(2024, 10, 4)],
    ['year', date(2025, 6, 18), date(2025, 1, 1)],
    ['year', date(2025, 1, 1), date(2025, 1, 1)],
    ['year', date(2024, 2, 29), date(2024, 1, 1)],
    ['month', date(2024, 2, 29), date(2024, 2, 1)],
    ['week', date(2024, 2, 29), date(2024, 2, 26)], // a Thursday
  ] as const)('%s on %j starts on %j and ends today', (period, today, from) => {
    // Act
    const result = fixed(period, today);
    // Assess
    expect(result).toEqual({ ok: true, value: { from, to: today } });
  });
});

describe('resolvePeriod properties', () => {
  const nonCustom = PERIODS.filter((p) => p !== 'custom');

  it('every non-custom range ends today and starts no later', () => {
    fc.assert(
      fc.property(fc.constantFrom(...nonCustom), calendarDate, (period, today) => {
        const result = resolvePeriod(period, today);
        if (!result.ok) throw new Error(result.message);
        expect(result.value.to).toEqual(today);
        expect(compareDates(result.value.from, today)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('week starts on a Monday and spans at most 7 days', () => {
    fc.assert(
      fc.property(calendarDate, (today) => {
        const result = resolvePeriod('week', today);
        if (!result.ok) throw new Error(result.message);
        expect(isoWeekday(result.value.from)).toBe(1);
        expect(daysInclusive(result.value.from, today)).toBe(isoWeekday(today));
      }),
    );
  });

  it.each([
    ['30', 30],
    ['90', 90],
  ] as const)('%s spans exactly %i days inclusive', (period, span) => {
    fc.assert(
      fc.property(calendarDate, (today) => {
        const result = resolvePeriod(period, today);
        if (!result.ok) throw new Error(result.message);
        expect(daysInclusive(result.value.from, result.value.to)).toBe(span);
      }),
    );
  });

  it('month and year start on the 1st of the current month / year', () => {
    fc.assert(
      fc.property(calendarDate, (today) => {
        expect(resolvePeriod('month', today)).toEqual({
          ok: true,
          value: { from: date(today.year, today.month, 1), to: today },
        });
        expect(resolvePeriod('year', today)).toEqual({ ok: true, value: { from: date(today.year, 1, 1), to: today } });
      }),
    );
  });
});

describe('resolvePeriod custom', () => {
  const today = date(2025, 6, 18);

  it('returns start..end as given, even past today', () => {
    // Prepare
    const custom = { start: date(2025, 6, 1), end: date(2025, 12, 31) };
    // Act / Assess
    expect(resolvePeriod('custom', today, custom)).toEqual({ ok: true, value: { from: custom.start, to: custom.end } });
  });

  it('requires start and end', () => {
    expect(resolvePeriod('custom', today).ok).toBe(false);
  });

  it('accepts a single day and a leap year of 366 days, rejects 367', () => {
    expect(resolvePeriod('custom', today, { start: today, end: today }).ok).toBe(true);
    expect(resolvePeriod('custom', today, { start: date(2024, 1, 1), end: date(2024, 12, 31) }).ok).toBe(true);
    expect(resolvePeriod('custom', today, { start: date(2024, 1, 1), end: date(2025, 1, 1) }).ok).toBe(false);
  });

  it('accepts up to 366 days and rejects longer spans', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: 1, max: 1000 }), (start, span) => {
        const end = addDays(start, span - 1);
        expect(resolvePeriod('custom', today, { start, end }).ok).toBe(span <= 366);
      }),
    );
  });

  it('rejects start after end', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: 1, max: 366 }), (end, gap) => {
        const start = addDays(end, gap);
        expect(resolvePeriod('custom', today, { start, end })).toEqual({ ok: false, message: expect.any(String) });
      }),
    );
  });

  it('ignores custom dates for other periods', () => {
    expect(resolvePeriod('today', today, { start: date(2020, 1, 1), end: date(2020, 1, 2) })).toEqual({
      ok: true,
      value: { from: today, to: today },
    });
  });
});
