/**
 * The merchant's profile (docs/accounts.md "The merchant's profile"): what an invoice says it is from and how to pay
 * it, set with `account:update`. Every field is optional: an unset one is left out of what the client sees (the
 * hosted page, the PDF, the e-mail), never shown blank. Also the reminder schedule (days relative to the due date).
 */
import { isEmailAddress, MAX_EMAIL_LENGTH } from './email-address.ts';
import { fail, ok, type ParseResult } from './result.ts';

export interface MerchantProfile {
  /** Reply-to address of the invoice e-mails. */
  email?: string;
  phone?: string;
  /** Postal address; may span lines. */
  address?: string;
  taxId?: string;
  /** Payment instructions: the bank account the client pays into. */
  bankName?: string;
  accountName?: string;
  accountNumber?: string;
}

export type ProfileField = keyof MerchantProfile;

/** The fields in the order the client sees them. */
export const PROFILE_FIELDS: readonly ProfileField[] = [
  'email',
  'phone',
  'address',
  'taxId',
  'bankName',
  'accountName',
  'accountNumber',
];

interface FieldRule {
  maxLength: number;
  /** The shape a value must have, and the words that say so. */
  pattern?: { test: Pick<RegExp, 'test'>; expected: string };
  /** Whether line breaks are kept (the address); elsewhere any run of whitespace is one space. */
  multiline?: boolean;
}

/** Limits of each field (docs/accounts.md lists them). */
export const PROFILE_RULES: Record<ProfileField, FieldRule> = {
  email: {
    maxLength: MAX_EMAIL_LENGTH,
    pattern: { test: { test: isEmailAddress }, expected: 'an e-mail address such as billing@example.com' },
  },
  phone: {
    maxLength: 40,
    pattern: { test: /^\+?[0-9][0-9 ()-]{3,38}$/, expected: 'a telephone number such as +234 801 234 5678' },
  },
  address: { maxLength: 500, multiline: true },
  taxId: { maxLength: 50 },
  bankName: { maxLength: 100 },
  accountName: { maxLength: 200 },
  accountNumber: {
    maxLength: 34,
    pattern: {
      test: /^[A-Za-z0-9][A-Za-z0-9 -]{0,33}$/,
      expected: 'letters, digits, spaces and hyphens (an IBAN fits)',
    },
  },
};

/** The business name (`--name`): required, at most this long. */
export const MAX_BUSINESS_NAME_LENGTH = 500;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it removes
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * One profile value as typed: trimmed, whitespace runs collapsed (line breaks kept in the address, at most one blank
 * line), then checked against the field's rule. Empty means "unset" (`undefined`).
 */
export function parseProfileValue(field: ProfileField, raw: string): ParseResult<string | undefined> {
  const rule = PROFILE_RULES[field];
  if (CONTROL_CHARACTERS.test(raw)) return fail('must not contain control characters');
  const text = rule.multiline
    ? raw
        .split(/\r?\n/)
        .map((line) => line.replace(/\s+/g, ' ').trim())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
        .trim()
    : raw.replace(/\s+/g, ' ').trim();
  if (text === '') return ok(undefined);
  if (text.length > rule.maxLength) return fail(`must be at most ${rule.maxLength} characters`);
  if (rule.pattern && !rule.pattern.test.test(text)) return fail(`must be ${rule.pattern.expected}`);
  return ok(text);
}

/** Reminder offsets: days relative to the due date (−3 = three days before, 0 = on the day, 7 = a week after). */
export const REMINDER_OFFSET_RANGE = { min: -365, max: 365 } as const;
export const MAX_REMINDER_OFFSETS = 10;

/**
 * Parses a reminder schedule such as `-3,0,7,14`: distinct integers within REMINDER_OFFSET_RANGE, at most
 * MAX_REMINDER_OFFSETS, returned in ascending order. An empty text is an empty schedule (no reminders).
 */
export function parseReminderOffsets(raw: string): ParseResult<number[]> {
  const text = raw.trim();
  if (text === '') return ok([]);
  const parts = text.split(',').map((part) => part.trim());
  const { min, max } = REMINDER_OFFSET_RANGE;
  const expected = `a comma-separated list of whole days from ${min} to ${max}, such as -3,0,7,14`;
  const offsets: number[] = [];
  for (const part of parts) {
    if (!/^[+-]?\d{1,3}$/.test(part)) return fail(`must be ${expected} ("${part}" is not)`);
    const offset = Number(part) === 0 ? 0 : Number(part);
    if (offset < min || offset > max) return fail(`must be ${expected} (${offset} is outside)`);
    if (offsets.includes(offset)) return fail(`must not repeat a day (${offset} appears twice)`);
    offsets.push(offset);
  }
  if (offsets.length > MAX_REMINDER_OFFSETS) return fail(`must have at most ${MAX_REMINDER_OFFSETS} days`);
  return ok(offsets.sort((a, b) => a - b));
}
