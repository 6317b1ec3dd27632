/**
 * Invoice and credit-note numbers and the e-invoice IRN (docs/decisions.md "Document numbers"). A number is
 * the account's prefix and a gapless per-account sequence of at least six digits (`INV-000001`, `CN-000001`; the
 * sequence itself is the store's). The IRN is the number without its punctuation, the account's service id and the
 * issue date: `INV000001-94ND90NR-20260115`.
 */
import type { CalendarDate } from './dates.ts';
import { fail, ok, type ParseResult } from './result.ts';

export const DEFAULT_INVOICE_PREFIX = 'INV-';
export const CREDIT_NOTE_PREFIX = 'CN-';
/** A credit-note number as `formatDocumentNumber` writes it: the prefix, six to fifteen digits. */
export const CREDIT_NOTE_NUMBER_PATTERN = /^CN-[0-9]{6,15}$/;

const MIN_DIGITS = 6;
const PREFIX = /^[A-Za-z0-9\-_/.]{0,20}$/;
const SERVICE_ID = /^[A-Za-z0-9]{8}$/;
const NOT_ALPHANUMERIC = /[^A-Za-z0-9]/g;

/** `prefix` and the sequence, zero-padded to six digits and growing beyond (`INV-000001`, `INV-1000000`). */
export function formatDocumentNumber(prefix: string, sequence: number): string {
  if (!Number.isSafeInteger(sequence) || sequence < 1) throw new RangeError(`not a document sequence: ${sequence}`);
  return `${prefix}${String(sequence).padStart(MIN_DIGITS, '0')}`;
}

/**
 * An account's invoice prefix: up to 20 ASCII letters, digits and `-`, `_`, `/`, `.` (empty allowed: bare numbers). No
 * spaces or other characters, so that a number reads the same in a narration, a file name and the e-invoice.
 */
export function parseDocumentPrefix(input: unknown): ParseResult<string> {
  if (typeof input !== 'string' || !PREFIX.test(input))
    return fail('must be at most 20 letters, digits, "-", "_", "/" or "." (e.g. "INV-")');
  return ok(input);
}

/** The e-invoicing service id an account is given: 8 letters or digits. */
export function parseServiceId(input: unknown): ParseResult<string> {
  if (typeof input !== 'string' || !SERVICE_ID.test(input.trim())) return fail('must be 8 letters or digits');
  return ok(input.trim());
}

/**
 * The IRN of an invoice: its number with everything but letters and digits removed — the prefix's punctuation, the
 * sequence being digits only (`INV-000001` → `INV000001`) — then the service id and the issue date as YYYYMMDD.
 */
export function invoiceIrn(number: string, serviceId: string, issueDate: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const date = `${pad(issueDate.year, 4)}${pad(issueDate.month, 2)}${pad(issueDate.day, 2)}`;
  return `${number.replace(NOT_ALPHANUMERIC, '')}-${serviceId}-${date}`;
}
