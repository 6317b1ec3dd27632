/**
 * Percentages given as decimal text ("1.5", "7.5") and held as integers, so that fees and taxes are computed exactly: a
 * percentage with `decimals` decimal places is a whole number of 10^-decimals percent (1.5 % with 2 decimals is 150,
 * basis points; 7.5 % with 4 decimals is 75_000).
 */
import { fail, ok, type ParseResult } from './result.ts';

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * Parses a percentage from 0 to 100 with at most `decimals` decimals (never rounded), given as a string (outer
 * whitespace trimmed) or a JSON number (judged by its shortest decimal form), into 10^-decimals percent.
 */
export function parsePercent(input: unknown, decimals: number): ParseResult<number> {
  const message = `must be a percentage from 0 to 100 with at most ${decimals} decimals, e.g. "7.5"`;
  const text = typeof input === 'number' && Number.isFinite(input) ? String(input) : input;
  if (typeof text !== 'string' || !DECIMAL.test(text.trim())) return fail(message);
  const [whole, fraction = ''] = text.trim().split('.');
  if (fraction.length > decimals) return fail(message);
  const units = BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (units > 100n * 10n ** BigInt(decimals)) return fail(message);
  return ok(Number(units));
}

/** The shortest decimal text of a percentage held in 10^-decimals percent (75_000 with 4 decimals → "7.5"). */
export function formatPercent(units: number, decimals: number): string {
  if (!Number.isSafeInteger(units) || units < 0) throw new RangeError(`formatPercent: not a percentage: ${units}`);
  const digits = String(units).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
