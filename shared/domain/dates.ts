/**
 * Calendar dates and timestamps (docs/api.md "Dates and time"). A calendar date has no time zone; it is stored as the
 * Unix seconds of 00:00:00 UTC of that date. "Today" depends on the account's time zone.
 */
import { fail, ok, type ParseResult } from './result.ts';

export interface CalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

const MIN_YEAR = 1970;
const MAX_YEAR = 9999;
const SECONDS_PER_DAY = 86_400;
const DATE_PATTERN = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** Parses `MM/DD/YYYY` (leading zeros optional), as used by `due_date` and payment `date`. */
export function parseMonthFirstDate(input: unknown): ParseResult<CalendarDate> {
  return parseSlashedDate(input, 'month-first');
}

/** Parses `DD/MM/YYYY` (leading zeros optional), as used by history `start` and `end`. */
export function parseDayFirstDate(input: unknown): ParseResult<CalendarDate> {
  return parseSlashedDate(input, 'day-first');
}

function parseSlashedDate(input: unknown, order: 'month-first' | 'day-first'): ParseResult<CalendarDate> {
  const message = `must be a date in ${order === 'month-first' ? 'MM/DD/YYYY' : 'DD/MM/YYYY'} format`;
  if (typeof input !== 'string') return fail(message);
  const match = DATE_PATTERN.exec(input.trim());
  if (!match) return fail(message);
  const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [month, day] = order === 'month-first' ? [first, second] : [second, first];
  if (year < MIN_YEAR || year > MAX_YEAR) return fail(`${message}, with a year from ${MIN_YEAR} to ${MAX_YEAR}`);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return fail(`${message}; that date does not exist`);
  }
  return ok({ year, month, day });
}

/** The number of days in a month (1–12) of a year. */
export function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  return new Date(utcMillis(year, month + 1, 0)).getUTCDate();
}

/** Unix seconds of 00:00:00 UTC on the date (12/30/2016 → 1483056000). */
export function toEpochSeconds(d: CalendarDate): number {
  return utcMillis(d.year, d.month, d.day) / 1000;
}

/** The UTC calendar date containing the given Unix second. */
export function fromEpochSeconds(s: number): CalendarDate {
  if (!Number.isFinite(s)) throw new RangeError(`fromEpochSeconds: not a finite number: ${s}`);
  return fromUtcDate(new Date(Math.floor(s / SECONDS_PER_DAY) * SECONDS_PER_DAY * 1000));
}

/** `YYYY-MM-DD`, zero-padded. */
export function toIsoDate(d: CalendarDate): string {
  return `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}`;
}

/** A calendar date from `YYYY-MM-DD` (the form history positions carry). */
export function fromIsoDate(iso: string): CalendarDate {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return { year, month, day };
}

/** `DD/MM/YYYY`, zero-padded (the form payment history echoes). */
export function formatDayFirst(d: CalendarDate): string {
  return `${pad(d.day, 2)}/${pad(d.month, 2)}/${pad(d.year, 4)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The current calendar date in an IANA time zone. Throws RangeError for an unknown zone. */
export function todayIn(timeZone: string, now: Date = new Date()): CalendarDate {
  // Time-zone offsets are whole minutes, so the local date cannot change within a UTC minute: remember the last answer.
  const minute = Math.floor(now.getTime() / 60_000);
  const last = lastToday.get(timeZone);
  if (last?.minute === minute) return { ...last.date };
  const date = computeTodayIn(timeZone, now);
  lastToday.set(timeZone, { minute, date });
  return { ...date };
}

const lastToday = new Map<string, { minute: number; date: CalendarDate }>();

function computeTodayIn(timeZone: string, now: Date): CalendarDate {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** The calendar date in `timeZone` of a `YYYY-MM-DD HH:MM:SS` UTC timestamp (`created_at` → the local day it names). */
export function localDateOf(timestamp: string, timeZone: string): CalendarDate {
  return todayIn(timeZone, new Date(`${timestamp.replace(' ', 'T')}Z`));
}

/** True when the runtime knows the time zone name (e.g. `Africa/Lagos`, `UTC`). */
export function isValidTimeZone(tz: string): boolean {
  if (typeof tz !== 'string' || tz === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The date `n` days after `d` (`n` may be negative). */
export function addDays(d: CalendarDate, n: number): CalendarDate {
  return fromUtcDate(new Date(utcMillis(d.year, d.month, d.day + n)));
}

/** -1, 0 or 1 as `a` is before, equal to, or after `b`. */
export function compareDates(a: CalendarDate, b: CalendarDate): -1 | 0 | 1 {
  const diff = a.year - b.year || a.month - b.month || a.day - b.day;
  return diff < 0 ? -1 : diff > 0 ? 1 : 0;
}

/** Number of days from `from` to `to` counting both ends (same day → 1; `to` before `from` → ≤ 0). */
export function daysInclusive(from: CalendarDate, to: CalendarDate): number {
  return (toEpochSeconds(to) - toEpochSeconds(from)) / SECONDS_PER_DAY + 1;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, the shape of `created_at` / `updated_at`. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function utcMillis(year: number, month: number, day: number): number {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  return date.getTime();
}

function fromUtcDate(date: Date): CalendarDate {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** How far the time zone's wall clock is ahead of UTC at `instantMs`, in milliseconds. */
function zoneOffsetMs(instantMs: number, timeZone: string): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(new Date(instantMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  const wallClock = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wallClock - Math.floor(instantMs / 1000) * 1000;
}

/** The instant a calendar date begins in a time zone (its local midnight), e.g. for ranges of `created_at`. */
export function startOfDayIn(date: CalendarDate, timeZone: string): Date {
  return wallClockInstant(date, 0, timeZone);
}

/**
 * The instant the wall clock of a time zone shows `minuteOfDay` (minutes after midnight) on a date. Offsets are taken a
 * day either side, which brackets any daylight-saving change: a time that occurs twice is its first occurrence; a time
 * the change skips is moved forward by the gap (02:30 on a spring-forward night at 02:00 is 03:30), as the clock is.
 */
export function wallClockInstant(date: CalendarDate, minuteOfDay: number, timeZone: string): Date {
  const wallClockUtc = toEpochSeconds(date) * 1000 + minuteOfDay * 60_000;
  const candidates = [-DAY_MS, DAY_MS].map((side) => wallClockUtc - zoneOffsetMs(wallClockUtc + side, timeZone));
  const showing = candidates.filter((instant) => instant + zoneOffsetMs(instant, timeZone) === wallClockUtc);
  return new Date(showing.length > 0 ? Math.min(...showing) : Math.max(...candidates));
}

const DAY_MS = SECONDS_PER_DAY * 1000;
