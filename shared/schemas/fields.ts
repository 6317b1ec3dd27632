/**
 * The field parsers every request schema is built from (zod 4, `zod/mini`), and the limits they enforce.
 * Request schemas are declared once, one file per resource beside this one: handlers validate with them, the
 * OpenAPI document is generated from them, and the idempotency fingerprint is computed from their output.
 *
 * Field parsers are `unknown → transform` pipes (`field()` below) so that every failure carries a stable
 * per-field code (docs/api.md "Errors") instead of zod's generic union errors; `meta()` documents the accepted input types.
 *
 * Written with `zod/mini` (the functional API over the same zod 4 core): the handlers load ~20 KB of zod
 * instead of classic zod's ~440 KB, which was most of their cold-start import time (docs/performance.md).
 * Parsing, issues and the JSON Schema output are those of zod classic; the two differences of the mini API
 * are bridged here: English messages (`en` locale, which classic installs by default) and `addIssue`
 * (classic adds it to a transform's context; mini hands transforms the bare parse payload).
 */
// A namespace import (not `import { z } from 'zod/mini'`): esbuild tree-shakes `z.x` accesses of a namespace import,
// but not of the re-exported `z` object, which would pull all of zod/mini, its JSON Schema code and every locale.
import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { isEmailAddress, MAX_EMAIL_LENGTH } from '../domain/email-address.ts';
import { AMOUNT_NEGATIVE, parseAmount } from '../domain/money.ts';
import type { ParseResult } from '../domain/result.ts';

export const MAX_TEXT = 500;
export const MAX_ITEMS = 100;
export const MAX_HISTORY_LIMIT = 500;
export const DEFAULT_HISTORY_LIMIT = 100;

// As zod classic does on first use: English messages unless a locale is already configured (the only zod
// message our schemas can surface is z.object's "Invalid input: expected object, received …" for a nested value).
if (!z.config().localeError) z.config(en());

/** A transform's context: zod/mini passes the parse payload itself. */
export type Ctx = z.core.ParsePayload;
type RawIssue = {
  code?: string;
  message: string;
  path?: PropertyKey[];
  params?: Record<string, unknown>;
  input?: unknown;
};

/** What zod classic's `ctx.addIssue` does inside a transform: a `custom` issue carrying the input value. */
export function addIssue(ctx: Ctx, issue: RawIssue): void {
  const raw = { ...issue };
  raw.code ??= 'custom';
  if (!('input' in raw)) raw.input = ctx.value;
  ctx.issues.push(raw as z.core.$ZodRawIssue);
}

export function fail(ctx: Ctx, code: string, message: string): typeof z.NEVER {
  addIssue(ctx, { code: 'custom', message, params: { code } });
  return z.NEVER;
}

/** `z.unknown().transform(parse)` of zod classic. */
export const field = <T>(parse: (value: unknown, ctx: Ctx) => T) => z.pipe(z.unknown(), z.transform<unknown, T>(parse));

/** `.meta(data)` of zod classic: JSON Schema keywords for the OpenAPI document, in zod's global registry. */
export function meta<S extends z.ZodMiniType>(schema: S, data: Record<string, unknown>): S {
  (schema as z.ZodMiniType).register(z.globalRegistry, data as z.core.GlobalMeta);
  return schema;
}

export const isAbsent = (value: unknown): boolean => value === undefined || value === null;
/** Optional fields: absent, null and "" all mean "not given" (the original SDKs send empty strings). */
export const isBlank = (value: unknown): boolean =>
  isAbsent(value) || (typeof value === 'string' && value.trim() === '');

/** A required value parsed by a domain parser; `code` names the per-field error. */
export function parsedField<T>(
  parse: (value: unknown) => ParseResult<T>,
  code: string,
  jsonType: string[],
  description: string,
) {
  return meta(
    field((value, ctx): T => {
      if (isAbsent(value)) return fail(ctx, 'required', 'is required');
      const result = parse(value);
      return result.ok ? result.value : fail(ctx, code, result.message);
    }),
    { type: jsonType, description },
  );
}

/** Characters as people and JSON Schema's `maxLength` count them (code points), not UTF-16 units: an emoji is one. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export function requiredText(description: string, max = MAX_TEXT) {
  return meta(
    field((value, ctx): string => {
      if (isAbsent(value)) return fail(ctx, 'required', 'is required');
      if (typeof value !== 'string') return fail(ctx, 'invalid_type', 'must be a string');
      const text = value.trim();
      if (text === '') return fail(ctx, 'required', 'must not be empty');
      if (characterCount(text) > max) return fail(ctx, 'too_long', `must be at most ${max} characters`);
      return text;
    }),
    { type: 'string', minLength: 1, maxLength: max, description },
  );
}

export function optionalText(description: string, max = MAX_TEXT) {
  return z.optional(
    meta(
      field((value, ctx): string | undefined => {
        if (isBlank(value)) return undefined;
        if (typeof value !== 'string') return fail(ctx, 'invalid_type', 'must be a string');
        const text = value.trim();
        if (characterCount(text) > max) return fail(ctx, 'too_long', `must be at most ${max} characters`);
        return text;
      }),
      { type: 'string', maxLength: max, description },
    ),
  );
}

function enumMatch<const T extends readonly string[]>(
  values: T,
  value: unknown,
  ctx: Ctx,
  caseInsensitive: boolean,
): T[number] {
  const match =
    typeof value === 'string'
      ? values.find((v) => (caseInsensitive ? v.toLowerCase() === value.trim().toLowerCase() : v === value))
      : undefined;
  return match ?? fail(ctx, 'invalid_enum', `must be one of ${values.join(', ')}`);
}

function requiredEnum<const T extends readonly string[]>(values: T, description: string, caseInsensitive: boolean) {
  return meta(
    field((value, ctx): T[number] =>
      isAbsent(value) ? fail(ctx, 'required', 'is required') : enumMatch(values, value, ctx, caseInsensitive),
    ),
    { type: 'string', enum: [...values], description },
  );
}

function optionalEnum<const T extends readonly string[]>(values: T, description: string, caseInsensitive: boolean) {
  return z.optional(
    meta(
      field((value, ctx): T[number] | undefined =>
        isBlank(value) ? undefined : enumMatch(values, value, ctx, caseInsensitive),
      ),
      { type: 'string', enum: [...values], description },
    ),
  );
}

type EnumOptions = { optional?: boolean; caseInsensitive?: boolean };

/** One of `values` (required unless `optional`, when blank means absent); typed as the value when required. */
export function enumField<const T extends readonly string[]>(
  values: T,
  description: string,
  options: EnumOptions & { optional: true },
): ReturnType<typeof optionalEnum<T>>;
export function enumField<const T extends readonly string[]>(
  values: T,
  description: string,
  options?: EnumOptions & { optional?: false },
): ReturnType<typeof requiredEnum<T>>;
export function enumField<const T extends readonly string[]>(
  values: T,
  description: string,
  options: EnumOptions = {},
) {
  const caseInsensitive = options.caseInsensitive ?? false;
  return options.optional
    ? optionalEnum(values, description, caseInsensitive)
    : requiredEnum(values, description, caseInsensitive);
}

/** An optional amount (zero allowed; blank is absent), in kobo. */
export const optionalAmount = (description: string) =>
  z.optional(
    meta(
      field((value, ctx): number | undefined => {
        if (isBlank(value)) return undefined;
        const parsed = parseAmount(value);
        return parsed.ok ? parsed.value : fail(ctx, 'invalid_amount', parsed.message);
      }),
      { type: ['string', 'number'], description },
    ),
  );

export const positiveAmount = (value: unknown): ParseResult<number> => {
  const result = parseAmount(value);
  if ((result.ok && result.value === 0) || (!result.ok && result.message === AMOUNT_NEGATIVE))
    return { ok: false, message: 'must be greater than zero' };
  return result;
};

const PHONE = /^\+?\d{7,15}$/;

export const email = meta(
  field((value, ctx): string => {
    if (isAbsent(value)) return fail(ctx, 'required', 'is required');
    if (typeof value !== 'string') return fail(ctx, 'invalid_type', 'must be a string');
    const text = value.trim();
    if (!isEmailAddress(text))
      return fail(ctx, 'invalid_email', 'must be a valid email address, e.g. "ada@example.com"');
    return text;
  }),
  {
    type: 'string',
    format: 'email',
    maxLength: MAX_EMAIL_LENGTH,
    description: 'Email address; clients are unique per account by email (case-insensitive).',
  },
);

export const phone = meta(
  field((value, ctx): string => {
    if (isAbsent(value)) return fail(ctx, 'required', 'is required');
    if (typeof value !== 'string' && typeof value !== 'number') return fail(ctx, 'invalid_type', 'must be a string');
    const text = String(value).trim();
    if (!PHONE.test(text))
      return fail(ctx, 'invalid_phone', 'must be 7 to 15 digits with an optional leading "+", e.g. "+2348012345678"');
    return text;
  }),
  { type: 'string', pattern: PHONE.source, description: 'Telephone number with country prefix, e.g. +2348012345678.' },
);

export const positiveIntegerId = (value: unknown): ParseResult<number> => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^[1-9]\d{0,14}$/.test(text)) return { ok: false, message: 'must be a positive integer' };
  return { ok: true, value: Number(text) };
};

export const CLIENT_TYPES = ['Customer', 'Staff', 'Vendor'] as const;
export const FEE_BEARERS = ['account', 'client'] as const;
export const RECIPIENTS = ['account', 'wallet'] as const;

/** `limit` of a listing (docs/api.md "Payment history and pagination"): a number or a numeric string, 1–500. */
export const pageLimit = z.optional(
  meta(
    field((value, ctx): number => {
      if (isBlank(value)) return DEFAULT_HISTORY_LIMIT; // present but null or ""; an absent key is defaulted by the service
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
      const limit = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
      if (!(limit >= 1 && limit <= MAX_HISTORY_LIMIT))
        return fail(ctx, 'invalid_value', `must be an integer from 1 to ${MAX_HISTORY_LIMIT}`);
      return limit;
    }),
    {
      type: ['integer', 'string'],
      minimum: 1,
      maximum: MAX_HISTORY_LIMIT,
      default: DEFAULT_HISTORY_LIMIT,
      description: 'Page size',
    },
  ),
);

export const pageCursor = optionalText('Opaque cursor from data.next_cursor of the previous page', 4096);
