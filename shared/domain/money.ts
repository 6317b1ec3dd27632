/**
 * Money (docs/api.md "Money"): amounts arrive as strings or JSON numbers and are held as integer kobo.
 * All conversion is done on decimal strings and BigInt, never on binary floating point.
 */
import { fail, ok, type ParseResult } from './result.ts';

export type { ParseResult } from './result.ts';

/** 999,999,999,999.99 in kobo: the largest amount, and the largest invoice total. */
export const MAX_AMOUNT_KOBO = 99_999_999_999_999;

export const MAX_QUANTITY = 1_000_000;

const PLAIN_AMOUNT = /^\d+(\.\d{1,2})?$/;
const GROUPED_AMOUNT = /^\d{1,3}(,\d{3})+(\.\d{1,2})?$/;
const DIGITS = /^\d+$/;

const AMOUNT_FORMAT = 'must be a decimal amount with at most 2 decimals, e.g. "1500.00" or "1,500.00"';
const AMOUNT_TOO_LARGE = 'must not exceed 999999999999.99';
export const AMOUNT_NEGATIVE = 'must not be negative';
const QUANTITY_FORMAT = `must be a whole number from 1 to ${MAX_QUANTITY}, e.g. "3"`;

/**
 * Parses a non-negative amount into integer kobo.
 * Accepts a JSON number (judged by its shortest decimal form, `String(n)`) or a string with optional
 * 3-digit thousands groups and at most 2 decimals. Zero is accepted; callers needing > 0 check it.
 */
export function parseAmount(input: unknown): ParseResult<number> {
  let text: string;
  if (isNegativeAmount(input)) return fail(AMOUNT_NEGATIVE);
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return fail(AMOUNT_FORMAT);
    text = String(input); // 1e21 → "1e+21", -1 → "-1": both fail the pattern below
    if (!PLAIN_AMOUNT.test(text)) return fail(AMOUNT_FORMAT);
  } else if (typeof input === 'string') {
    text = input.trim();
    if (!PLAIN_AMOUNT.test(text) && !GROUPED_AMOUNT.test(text)) return fail(AMOUNT_FORMAT);
  } else {
    return fail(AMOUNT_FORMAT);
  }
  const [whole, fraction = ''] = text.replaceAll(',', '').split('.');
  const kobo = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (kobo > BigInt(MAX_AMOUNT_KOBO)) return fail(AMOUNT_TOO_LARGE);
  return ok(Number(kobo));
}

/** A well-formed amount with a minus sign ("-5", -5, "-1,500.00"): told it is negative, not that it is malformed. */
function isNegativeAmount(input: unknown): boolean {
  if (typeof input === 'number') return Number.isFinite(input) && input < 0;
  if (typeof input !== 'string') return false;
  const text = input.trim();
  return text.startsWith('-') && parseAmount(text.slice(1)).ok;
}

/** Renders kobo as a decimal string with exactly two decimals and no separators (150050 → "1500.50"). */
export function formatKobo(kobo: number): string {
  if (!Number.isSafeInteger(kobo)) throw new RangeError(`formatKobo: not a safe integer: ${kobo}`);
  const sign = kobo < 0 ? '-' : '';
  const digits = String(Math.abs(kobo)).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Parses a line quantity: an integer 1..1,000,000 given as a JSON number or a string of digits
 * (outer whitespace trimmed). A JSON `2.0` is the number 2 and is accepted.
 */
export function parseQuantity(input: unknown): ParseResult<number> {
  let value: number;
  if (typeof input === 'number') {
    value = input;
  } else if (typeof input === 'string') {
    const text = input.trim();
    if (!DIGITS.test(text)) return fail(QUANTITY_FORMAT);
    value = Number(text);
  } else {
    return fail(QUANTITY_FORMAT);
  }
  if (!Number.isInteger(value) || value < 1 || value > MAX_QUANTITY) return fail(QUANTITY_FORMAT);
  return ok(value);
}

/** Exact invoice total in kobo, Σ quantity × unit cost; an error (the rule, as parseAmount's) above MAX_AMOUNT_KOBO. */
export function sumLineTotals(lines: readonly { quantity: number; unitCostKobo: number }[]): ParseResult<number> {
  let total = 0n;
  for (const { quantity, unitCostKobo } of lines) {
    if (!isNonNegativeSafeInteger(quantity) || !isNonNegativeSafeInteger(unitCostKobo)) {
      throw new RangeError('sumLineTotals: quantity and unit cost must be non-negative safe integers');
    }
    total += BigInt(quantity) * BigInt(unitCostKobo);
  }
  if (total > BigInt(MAX_AMOUNT_KOBO)) return fail(AMOUNT_TOO_LARGE);
  return ok(Number(total));
}

function isNonNegativeSafeInteger(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}
