import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  type CalendarDate,
  compareDates,
  daysInclusive,
  formatDayFirst,
  formatTimestamp,
  fromEpochSeconds,
  isValidTimeZone,
  parseDayFirstDate,
  parseMonthFirstDate,
  todayIn,
  toEpochSeconds,
  toIsoDate,
  wallClockInstant,
} from '../../shared/domain/dates.ts';

const MIN_MS = Date.UTC(1970, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31);

const utcDateOf = (date: Date): CalendarDate => ({
  year: date.getUTCFullYear(),
  month: date.getUTCMonth() + 1,
  day: date.getUTCDate(),
});

const calendarDate = fc
  .integer({ min: MIN_MS / 86_400_000, max: MAX_MS / 86_400_000 })
  .map((dayNumber) => utcDateOf(new Date(dayNumber * 86_400_000)));

const monthFirst = (d: CalendarDate, padded: boolean) => {
  const p = (n: number) => (padded ? String(n).padStart(2, '0') : String(n));
  return `${p(d.month)}/${p(d.day)}/${d.year}`;
};

const daysInMonth = (year: number, month: number) => {
  const lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : lengths[month - 1];
};

describe('parseMonthFirstDate', () => {
  it.each([
    ['12/30/2016', { year: 2016, month: 12, day: 30 }],
    ['1/5/2025', { year: 2025, month: 1, day: 5 }],
    ['01/05/2025', { year: 2025, month: 1, day: 5 }],
    [' 02/29/2024 ', { year: 2024, month: 2, day: 29 }],
    ['02/29/2000', { year: 2000, month: 2, day: 29 }],
    ['01/01/1970', { year: 1970, month: 1, day: 1 }],
    ['12/31/9999', { year: 9999, month: 12, day: 31 }],
  ])('accepts %j', (input, expected) => {
    expect(parseMonthFirstDate(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['02/30/2025'],
    ['13/01/2025'],
    ['02/29/2023'],
    ['02/29/2100'],
    ['04/31/2025'],
    ['00/10/2025'],
    ['10/00/2025'],
    ['12/31/1969'],
    ['01/01/10000'],
    ['1/5/25'],
    ['2025-01-05'],
    ['01-05-2025'],
    ['01/05/2025 10:00'],
    ['001/05/2025'],
    ['01 /05/2025'],
    [''],
    [20250105],
    [null],
  ])('rejects %j', (input) => {
    expect(parseMonthFirstDate(input).ok).toBe(false);
  });

  it('names the expected format in its message', () => {
    expect(parseMonthFirstDate('02/30/2025')).toEqual({ ok: false, message: expect.stringContaining('MM/DD/YYYY') });
  });

  it('round-trips every valid date, padded or not', () => {
    fc.assert(
      fc.property(calendarDate, fc.boolean(), (d, padded) => {
        expect(parseMonthFirstDate(monthFirst(d, padded))).toEqual({ ok: true, value: d });
      }),
    );
  });

  it('rejects a day past the end of its month', () => {
    const overflow = fc
      .record({ year: fc.integer({ min: 1970, max: 9999 }), month: fc.constantFrom(2, 4, 6, 9, 11) })
      .chain(({ year, month }) =>
        fc.integer({ min: daysInMonth(year, month) + 1, max: 31 }).map((day) => ({ year, month, day })),
      );
    fc.assert(
      fc.property(overflow, (d) => {
        expect(parseMonthFirstDate(monthFirst(d, true)).ok).toBe(false);
        expect(parseDayFirstDate(formatDayFirst(d)).ok).toBe(false);
      }),
    );
  });
});

describe('parseDayFirstDate', () => {
  it.each([
    ['30/12/2016', { year: 2016, month: 12, day: 30 }],
    ['5/1/2025', { year: 2025, month: 1, day: 5 }],
    ['13/01/2025', { year: 2025, month: 1, day: 13 }],
    ['29/02/2024', { year: 2024, month: 2, day: 29 }],
  ])('accepts %j', (input, expected) => {
    expect(parseDayFirstDate(input)).toEqual({ ok: true, value: expected });
  });

  it.each([['31/04/2025'], ['29/02/2023'], ['01/13/2025'], ['12/30/2016'], ['01/01/1969'], ['01/01/10000'], ['']])(
    'rejects %j',
    (input) => {
      expect(parseDayFirstDate(input)).toEqual({ ok: false, message: expect.stringContaining('DD/MM/YYYY') });
    },
  );

  it('round-trips formatDayFirst for every valid date', () => {
    fc.assert(
      fc.property(calendarDate, (d) => {
        expect(parseDayFirstDate(formatDayFirst(d))).toEqual({ ok: true, value: d });
      }),
    );
  });
});

describe('epoch seconds', () => {
  it.each([
    [{ year: 2016, month: 12, day: 30 }, 1_483_056_000],
    [{ year: 1970, month: 1, day: 1 }, 0],
    [{ year: 2024, month: 2, day: 29 }, 1_709_164_800],
  ])('maps %j to %i', (d, seconds) => {
    expect(toEpochSeconds(d)).toBe(seconds);
    expect(fromEpochSeconds(seconds)).toEqual(d);
  });

  it('round-trips and lands on UTC midnight for every valid date', () => {
    fc.assert(
      fc.property(calendarDate, (d) => {
        const seconds = toEpochSeconds(d);
        expect(seconds % 86_400).toBe(0);
        expect(fromEpochSeconds(seconds)).toEqual(d);
      }),
    );
  });

  it('maps any second of a day to that day', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: 0, max: 86_399 }), (d, offset) => {
        expect(fromEpochSeconds(toEpochSeconds(d) + offset)).toEqual(d);
      }),
    );
  });
});

describe('formatting', () => {
  it('renders ISO and day-first dates zero-padded', () => {
    // Prepare
    const d = { year: 2025, month: 1, day: 5 };
    // Act / Assess
    expect(toIsoDate(d)).toBe('2025-01-05');
    expect(formatDayFirst(d)).toBe('05/01/2025');
  });

  it('renders timestamps as YYYY-MM-DD HH:MM:SS in UTC', () => {
    expect(formatTimestamp(new Date('2025-03-04T05:06:07.890Z'))).toBe('2025-03-04 05:06:07');
    expect(formatTimestamp(new Date('2025-03-04T23:59:59+01:00'))).toBe('2025-03-04 22:59:59');
  });
});

describe('day arithmetic', () => {
  it.each([
    [{ year: 2024, month: 2, day: 28 }, 1, { year: 2024, month: 2, day: 29 }],
    [{ year: 2023, month: 2, day: 28 }, 1, { year: 2023, month: 3, day: 1 }],
    [{ year: 2025, month: 1, day: 1 }, -1, { year: 2024, month: 12, day: 31 }],
    [{ year: 2025, month: 3, day: 31 }, -29, { year: 2025, month: 3, day: 2 }],
  ])('addDays(%j, %i) is %j', (d, n, expected) => {
    expect(addDays(d, n)).toEqual(expected);
  });

  it('counts both ends in daysInclusive', () => {
    const d = { year: 2024, month: 1, day: 1 };
    expect(daysInclusive(d, d)).toBe(1);
    expect(daysInclusive(d, { year: 2024, month: 12, day: 31 })).toBe(366);
  });

  it('keeps addDays, daysInclusive and compareDates consistent', () => {
    fc.assert(
      fc.property(calendarDate, fc.integer({ min: -1000, max: 1000 }), (d, n) => {
        const later = addDays(d, n);
        expect(toEpochSeconds(later) - toEpochSeconds(d)).toBe(n * 86_400);
        expect(daysInclusive(d, later)).toBe(n + 1);
        expect(addDays(later, -n)).toEqual(d);
        expect(compareDates(d, later)).toBe(-Math.sign(n) || 0);
        expect(compareDates(later, d)).toBe(Math.sign(n) || 0);
      }),
    );
  });
});

describe('todayIn', () => {
  it('is an hour ahead of UTC in Africa/Lagos', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(MIN_MS), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }),
        (instant) => {
          expect(todayIn('Africa/Lagos', instant)).toEqual(utcDateOf(new Date(instant.getTime() + 3_600_000)));
        },
      ),
    );
  });

  it('crosses midnight at 23:00 UTC in Lagos', () => {
    expect(todayIn('Africa/Lagos', new Date('2025-12-31T22:59:59Z'))).toEqual({ year: 2025, month: 12, day: 31 });
    expect(todayIn('Africa/Lagos', new Date('2025-12-31T23:00:00Z'))).toEqual({ year: 2026, month: 1, day: 1 });
  });

  it('follows zones behind UTC', () => {
    expect(todayIn('America/New_York', new Date('2025-07-01T03:00:00Z'))).toEqual({ year: 2025, month: 6, day: 30 });
    expect(todayIn('UTC', new Date('2025-07-01T03:00:00Z'))).toEqual({ year: 2025, month: 7, day: 1 });
  });

  it('throws for an unknown zone', () => {
    expect(() => todayIn('Mars/Olympus_Mons')).toThrow(RangeError);
  });

  it('changes date at the first millisecond of local midnight, also in zones offset by 45 minutes', () => {
    // Prepare: Kathmandu is UTC+05:45, Eucla UTC+08:45; each answer of a minute is remembered.
    const cases = [
      { zone: 'Asia/Kathmandu', midnightUtc: '2025-07-01T18:15:00.000Z' },
      { zone: 'Australia/Eucla', midnightUtc: '2025-07-01T15:15:00.000Z' },
    ];
    for (const { zone, midnightUtc } of cases) {
      const midnight = new Date(midnightUtc).getTime();
      // Act: the last millisecond before local midnight, then midnight itself, then the same minute again.
      const before = todayIn(zone, new Date(midnight - 1));
      const at = todayIn(zone, new Date(midnight));
      const later = todayIn(zone, new Date(midnight + 59_999));
      // Assess
      expect(before).toEqual({ year: 2025, month: 7, day: 1 });
      expect(at).toEqual({ year: 2025, month: 7, day: 2 });
      expect(later).toEqual(at);
    }
  });

  it('answers like a fresh formatter for any sequence of instants, and never hands out its remembered object', () => {
    const fresh = (zone: string, instant: Date) => {
      const parts = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        calendar: 'gregory',
        numberingSystem: 'latn',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
      }).formatToParts(instant);
      const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
      return { year: part('year'), month: part('month'), day: part('day') };
    };
    fc.assert(
      fc.property(
        fc.constantFrom('Africa/Lagos', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Chatham', 'UTC'),
        fc.date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }),
        fc.array(fc.integer({ min: -90_000, max: 90_000 }), { minLength: 1, maxLength: 6 }),
        (zone, start, steps) => {
          let instant = start.getTime();
          for (const step of steps) {
            instant += step;
            const answer = todayIn(zone, new Date(instant));
            expect(answer).toEqual(fresh(zone, new Date(instant)));
            answer.day = 99;
          }
        },
      ),
    );
  });
});

describe('isValidTimeZone', () => {
  it.each([['Africa/Lagos'], ['UTC'], ['Europe/London']])('accepts %s', (tz) => {
    expect(isValidTimeZone(tz)).toBe(true);
  });

  it.each([[''], ['Mars/Olympus_Mons'], ['Lagos']])('rejects %j', (tz) => {
    expect(isValidTimeZone(tz)).toBe(false);
  });
});

describe('wallClockInstant', () => {
  it.each([
    ['06:00 in Lagos (no DST)', { year: 2026, month: 7, day: 1 }, 360, 'Africa/Lagos', '2026-07-01T05:00:00.000Z'],
    [
      'a time a spring-forward change skips moves on by the gap',
      { year: 2026, month: 3, day: 8 },
      150,
      'America/New_York',
      '2026-03-08T07:30:00.000Z',
    ],
    [
      'a time that occurs twice is its first occurrence',
      { year: 2026, month: 11, day: 1 },
      90,
      'America/New_York',
      '2026-11-01T05:30:00.000Z',
    ],
    [
      'a midnight the change skips is the first instant of the day',
      { year: 2018, month: 11, day: 4 },
      0,
      'America/Sao_Paulo',
      '2018-11-04T03:00:00.000Z',
    ],
    ['half-hour zones', { year: 2026, month: 1, day: 15 }, 360, 'Asia/Kolkata', '2026-01-15T00:30:00.000Z'],
  ])('%s', (_, date, minuteOfDay, zone, instant) => {
    expect(wallClockInstant(date, minuteOfDay, zone).toISOString()).toBe(instant);
  });
});
