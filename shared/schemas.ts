/**
 * Request schemas, declared once (zod 4). Handlers validate with them, the OpenAPI document is
 * generated from them, and the idempotency fingerprint is computed from their normalised output.
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
import type { ClientChanges } from './domain/client.ts';
import { type CalendarDate, parseDayFirstDate, parseMonthFirstDate } from './domain/dates.ts';
import type { InvoiceRequest, MetadataValue, NewClientRequest } from './domain/invoice-request.ts';
import { AMOUNT_NEGATIVE, parseAmount, parseQuantity } from './domain/money.ts';
import { PERIODS } from './domain/periods.ts';
import type { ParseResult } from './domain/result.ts';

export const MAX_TEXT = 500;
export const MAX_ITEMS = 100;
export const MAX_HISTORY_LIMIT = 500;
export const DEFAULT_HISTORY_LIMIT = 100;

// As zod classic does on first use: English messages unless a locale is already configured (the only zod
// message our schemas can surface is z.object's "Invalid input: expected object, received …" for a nested value).
if (!z.config().localeError) z.config(en());

/** A transform's context: zod/mini passes the parse payload itself. */
type Ctx = z.core.ParsePayload;
type RawIssue = {
  code?: string;
  message: string;
  path?: PropertyKey[];
  params?: Record<string, unknown>;
  input?: unknown;
};

/** What zod classic's `ctx.addIssue` does inside a transform: a `custom` issue carrying the input value. */
function addIssue(ctx: Ctx, issue: RawIssue): void {
  const raw = { ...issue };
  raw.code ??= 'custom';
  if (!('input' in raw)) raw.input = ctx.value;
  ctx.issues.push(raw as z.core.$ZodRawIssue);
}

function fail(ctx: Ctx, code: string, message: string): typeof z.NEVER {
  addIssue(ctx, { code: 'custom', message, params: { code } });
  return z.NEVER;
}

/** `z.unknown().transform(parse)` of zod classic. */
const field = <T>(parse: (value: unknown, ctx: Ctx) => T) => z.pipe(z.unknown(), z.transform<unknown, T>(parse));

/** `.meta(data)` of zod classic: JSON Schema keywords for the OpenAPI document, in zod's global registry. */
function meta<S extends z.ZodMiniType>(schema: S, data: Record<string, unknown>): S {
  (schema as z.ZodMiniType).register(z.globalRegistry, data as z.core.GlobalMeta);
  return schema;
}

const isAbsent = (value: unknown): boolean => value === undefined || value === null;
/** Optional fields: absent, null and "" all mean "not given" (the original SDKs send empty strings). */
const isBlank = (value: unknown): boolean => isAbsent(value) || (typeof value === 'string' && value.trim() === '');

/** A required value parsed by a domain parser; `code` names the per-field error. */
function parsedField<T>(
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

function requiredText(description: string, max = MAX_TEXT) {
  return meta(
    field((value, ctx): string => {
      if (isAbsent(value)) return fail(ctx, 'required', 'is required');
      if (typeof value !== 'string') return fail(ctx, 'invalid_type', 'must be a string');
      const text = value.trim();
      if (text === '') return fail(ctx, 'required', 'must not be empty');
      if (text.length > max) return fail(ctx, 'too_long', `must be at most ${max} characters`);
      return text;
    }),
    { type: 'string', minLength: 1, maxLength: max, description },
  );
}

function optionalText(description: string, max = MAX_TEXT) {
  return z.optional(
    meta(
      field((value, ctx): string | undefined => {
        if (isBlank(value)) return undefined;
        if (typeof value !== 'string') return fail(ctx, 'invalid_type', 'must be a string');
        const text = value.trim();
        if (text.length > max) return fail(ctx, 'too_long', `must be at most ${max} characters`);
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
function enumField<const T extends readonly string[]>(
  values: T,
  description: string,
  options: EnumOptions & { optional: true },
): ReturnType<typeof optionalEnum<T>>;
function enumField<const T extends readonly string[]>(
  values: T,
  description: string,
  options?: EnumOptions & { optional?: false },
): ReturnType<typeof requiredEnum<T>>;
function enumField<const T extends readonly string[]>(values: T, description: string, options: EnumOptions = {}) {
  const caseInsensitive = options.caseInsensitive ?? false;
  return options.optional
    ? optionalEnum(values, description, caseInsensitive)
    : requiredEnum(values, description, caseInsensitive);
}

const positiveAmount = (value: unknown): ParseResult<number> => {
  const result = parseAmount(value);
  if ((result.ok && result.value === 0) || (!result.ok && result.message === AMOUNT_NEGATIVE))
    return { ok: false, message: 'must be greater than zero' };
  return result;
};

const EMAIL =
  /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE = /^\+?\d{7,15}$/;

const email = meta(
  field((value, ctx): string => {
    if (isAbsent(value)) return fail(ctx, 'required', 'is required');
    if (typeof value !== 'string') return fail(ctx, 'invalid_type', 'must be a string');
    const text = value.trim();
    if (text.length > 254 || !EMAIL.test(text))
      return fail(ctx, 'invalid_email', 'must be a valid email address, e.g. "ada@example.com"');
    return text;
  }),
  {
    type: 'string',
    format: 'email',
    maxLength: 254,
    description: 'Email address; clients are unique per account by email (case-insensitive).',
  },
);

const phone = meta(
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

const positiveIntegerId = (value: unknown): ParseResult<number> => {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^[1-9]\d{0,14}$/.test(text)) return { ok: false, message: 'must be a positive integer' };
  return { ok: true, value: Number(text) };
};

export const CLIENT_TYPES = ['Customer', 'Staff', 'Vendor'] as const;
export const FEE_BEARERS = ['account', 'client'] as const;
export const RECIPIENTS = ['account', 'wallet'] as const;
export const CHANNELS = ['Cash', 'BankTransfer', 'POS', 'Cheque'] as const;

export const newClientSchema = meta(
  z.object({
    first_name: requiredText('First name'),
    last_name: requiredText('Last name'),
    email,
    phone,
    company_name: optionalText("The client's company name; returned as the client's `name`"),
    address: optionalText('Postal address'),
    type: enumField(CLIENT_TYPES, 'Client type (default Customer); matched case-insensitively', {
      optional: true,
      caseInsensitive: true,
    }),
    settlement_bank: optionalText('Settlement bank code'),
    account_number: optionalText('Bank account number'),
  }),
  { description: 'A new client, created with the invoice unless one with the same email already exists.' },
);

export const invoiceItemSchema = z.object({
  item: requiredText('Item name (returned as `name` and `item`)'),
  description: requiredText('Item description'),
  unit_cost: parsedField(
    parseAmount,
    'invalid_amount',
    ['string', 'number'],
    'Decimal amount, at most 2 decimals; thousands separators allowed ("1,500.00"); may be zero',
  ),
  quantity: parsedField(parseQuantity, 'invalid_quantity', ['string', 'number'], 'Positive integer, at most 1,000,000'),
});

const tokenize = z.optional(
  meta(
    field((value, ctx): boolean | undefined => {
      if (isBlank(value)) return undefined;
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      return fail(ctx, 'invalid_enum', 'must be "true" or "false"');
    }),
    {
      type: ['string', 'boolean'],
      enum: ['true', 'false', true, false],
      description: 'Tokenize the card used to pay this invoice (must be enabled for the account).',
    },
  ),
);

export type { MetadataValue } from './domain/invoice-request.ts';

const RESERVED_METADATA_KEYS = new Set(['__proto__', 'constructor']);

/** A metadata number DynamoDB stores and returns unchanged: finite, a safe magnitude, no exponent form. */
const isStorableNumber = (value: number): boolean =>
  Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER && !/e/i.test(String(value));

const metadata = z.optional(
  meta(
    field((value, ctx): Record<string, MetadataValue> | undefined => {
      if (isBlank(value)) return undefined;
      let object: unknown = value;
      if (typeof value === 'string') {
        try {
          object = JSON.parse(value);
        } catch {
          return fail(ctx, 'invalid_type', 'must be an object or a JSON string of an object');
        }
      }
      if (typeof object !== 'object' || object === null || Array.isArray(object)) {
        return fail(ctx, 'invalid_type', 'must be an object or a JSON string of an object');
      }
      const entries = Object.entries(object);
      if (entries.length > 50) return fail(ctx, 'too_many', 'must have at most 50 keys');
      const result: Record<string, MetadataValue> = Object.create(null);
      for (const [key, entry] of entries) {
        if (key.length === 0 || key.length > 40) return fail(ctx, 'invalid_value', 'keys must be 1 to 40 characters');
        // These two keys cannot be stored as a DynamoDB map (the SDK's marshalling drops or rejects them).
        if (RESERVED_METADATA_KEYS.has(key))
          return fail(ctx, 'invalid_value', 'keys must not be "__proto__" or "constructor"');
        if (typeof entry === 'string') {
          if (entry.length > MAX_TEXT) return fail(ctx, 'too_long', `values must be at most ${MAX_TEXT} characters`);
        } else if (typeof entry === 'number') {
          // DynamoDB (and the SDK's marshalling) cannot store every double: 1e21 or 2**53 fail to marshal,
          // 5e-324 underflows. Accept the numbers that round-trip exactly: plain decimals within ±(2^53 − 1).
          if (!isStorableNumber(entry)) {
            return fail(
              ctx,
              'invalid_value',
              `number values must be plain decimals from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (no exponent)`,
            );
          }
        } else if (typeof entry !== 'boolean') {
          return fail(ctx, 'invalid_value', 'values must be strings, numbers or booleans');
        }
        result[key] = entry;
      }
      return { ...result };
    }),
    {
      type: ['object', 'string'],
      description:
        'Key-value pairs (≤ 50 keys, keys ≤ 40 chars, values strings/numbers/booleans, strings ≤ 500 chars), as an object or a JSON string; returned as an object.',
    },
  ),
);

const clientIdField = z.optional(
  meta(
    field((value, ctx): number | undefined => {
      if (isBlank(value)) return undefined;
      const result = positiveIntegerId(value);
      return result.ok ? result.value : fail(ctx, 'invalid_integer', result.message);
    }),
    { type: ['string', 'integer'], description: 'Identifier of an existing client of your account.' },
  ),
);

const clientField = z.optional(
  meta(
    field((value, ctx): z.output<typeof newClientSchema> | undefined => {
      if (isAbsent(value) || value === '') return undefined;
      const result = newClientSchema.safeParse(value);
      if (result.success) return result.data;
      for (const issue of result.error.issues) addIssue(ctx, { ...issue, path: issue.path });
      return z.NEVER;
    }),
    { $ref: '#/components/schemas/NewClient' },
  ),
);

const items = meta(
  field((value, ctx): z.output<typeof invoiceItemSchema>[] => {
    if (isAbsent(value)) return fail(ctx, 'required', 'is required');
    if (!Array.isArray(value)) return fail(ctx, 'invalid_type', 'must be an array of items');
    if (value.length === 0) return fail(ctx, 'too_few', 'must have at least 1 item');
    if (value.length > MAX_ITEMS) return fail(ctx, 'too_many', `must have at most ${MAX_ITEMS} items`);
    const result = z.array(invoiceItemSchema).safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) addIssue(ctx, { ...issue, path: issue.path });
    return z.NEVER;
  }),
  { type: 'array', minItems: 1, maxItems: MAX_ITEMS, items: { $ref: '#/components/schemas/InvoiceItemInput' } },
);

const addInvoiceFields = z.object({
  client: clientField,
  client_id: clientIdField,
  due_date: parsedField(parseMonthFirstDate, 'invalid_date', ['string'], 'Due date, MM/DD/YYYY'),
  fee_bearer: enumField(FEE_BEARERS, 'Who bears the fees'),
  items,
  tokenize,
  card_token: optionalText(
    'Token from an earlier tokenized transaction; stored, only its last 4 characters are returned',
  ),
  recipient: enumField(RECIPIENTS, 'Payment recipient (default account)', { optional: true }),
  recipient_id: optionalText('Wallet reference; required when recipient is wallet'),
  merchant_ref: optionalText('Your unique invoice reference (case-sensitive, ≤ 64 characters)', 64),
  metadata,
});

export const addInvoiceSchema = addInvoiceFields.check(
  z.superRefine((input: z.output<typeof addInvoiceFields>, ctx) => {
    const hasClient = input.client !== undefined;
    const hasClientId = input.client_id !== undefined;
    if (hasClient === hasClientId) {
      ctx.addIssue({
        code: 'custom',
        path: [hasClient ? 'client_id' : 'client'],
        message: hasClient ? 'send either client or client_id, not both' : 'either client or client_id is required',
        params: { code: hasClient ? 'conflict' : 'required' },
      });
    }
    if (input.recipient === 'wallet' && input.recipient_id === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['recipient_id'],
        message: 'is required when recipient is wallet',
        params: { code: 'required' },
      });
    }
  }),
);

export const addPaymentSchema = z.object({
  reference_code: requiredText('Reference code of the invoice (20 characters)', 64),
  date: parsedField(
    parseMonthFirstDate,
    'invalid_date',
    ['string'],
    'Payment date, MM/DD/YYYY; not after today in the account time zone',
  ),
  amount: parsedField(
    positiveAmount,
    'invalid_amount',
    ['string', 'number'],
    'Payment amount > 0; a decimal with optional thousands separators, e.g. "50,000.00"',
  ),
  channel: enumField(CHANNELS, 'Payment channel'),
});

const rawHistoryDate = (description: string) => z.optional(meta(z.unknown(), { type: 'string', description }));

/** `limit` of a listing (SPEC §8): a number or a numeric string, 1–500. */
const pageLimit = z.optional(
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

const pageCursor = optionalText('Opaque cursor from data.next_cursor of the previous page', 4096);

const paymentHistoryFields = z.object({
  period: enumField(PERIODS, 'History period'),
  start: rawHistoryDate('Start date DD/MM/YYYY (required for custom; ignored otherwise)'),
  end: rawHistoryDate('End date DD/MM/YYYY (required for custom; ignored otherwise)'),
  limit: pageLimit,
  cursor: pageCursor,
});

/** start/end parsed for the custom period only (ignored otherwise, whatever they hold). */
const withPeriodDates = <S extends typeof paymentHistoryFields>(fields: S) =>
  z.pipe(
    fields,
    // start/end are read only for the custom period (docs/api.md "Payment history and pagination": ignored otherwise, whatever they hold).
    z.transform((input: z.output<S>, ctx) => {
      const dates: { start?: CalendarDate; end?: CalendarDate } = {};
      if (input.period === 'custom') {
        for (const name of ['start', 'end'] as const) {
          const value = input[name];
          if (isBlank(value)) continue;
          const parsed = parseDayFirstDate(value);
          if (parsed.ok) dates[name] = parsed.value;
          else
            addIssue(ctx, { code: 'custom', path: [name], message: parsed.message, params: { code: 'invalid_date' } });
        }
      }
      return { ...input, ...dates, start: dates.start, end: dates.end };
    }),
  );

export const paymentHistorySchema = withPeriodDates(paymentHistoryFields);

/** The client fields node-payant sends at the top level of an add-invoice body ("flat client"). */
export const FLAT_CLIENT_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'company_name',
  'address',
  'type',
  'settlement_bank',
  'account_number',
] as const;
const FLAT_CLIENT_TRIGGERS = ['first_name', 'last_name', 'email', 'phone'] as const;

/**
 * The add-invoice body with a flat client folded into `client` (docs/api.md "Add invoice"): when neither `client` nor
 * `client_id` is sent but top-level client fields are, they are the client (their errors then name
 * `client.<field>`). Any other body is returned unchanged.
 */
export function withFlatClient(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const given = (key: string) => !isAbsent(record[key]) && record[key] !== '';
  if (given('client') || given('client_id') || !FLAT_CLIENT_TRIGGERS.some((key) => record[key] !== undefined))
    return body;
  const client: Record<string, unknown> = {};
  for (const key of FLAT_CLIENT_FIELDS) if (record[key] !== undefined) client[key] = record[key];
  return { ...record, client };
}

export type AddInvoiceInput = z.output<typeof addInvoiceSchema>;
// The request maps onto the domain's own input types as is: a change on either side that breaks this fails tsc.
export const toInvoiceRequest = (input: AddInvoiceInput): InvoiceRequest => input;
export const toNewClientRequest = (input: z.output<typeof newClientSchema>): NewClientRequest => input;
export type NewClientInput = z.output<typeof newClientSchema>;
export type AddPaymentInput = z.output<typeof addPaymentSchema>;
export type PaymentHistoryInput = z.output<typeof paymentHistorySchema>;
export type InvoiceHistoryInput = z.output<typeof invoiceHistorySchema>;
export type ListClientsInput = z.output<typeof listClientsSchema>;
export type ClientChangesInput = z.output<typeof updateClientSchema>;
export const toClientChanges = (input: ClientChangesInput): ClientChanges => input;

export const PAYMENT_STATUSES = ['unpaid', 'partially_paid', 'paid'] as const;

/** `POST /invoices/history` (SPEC §13): the payment history's period rules, plus an optional `payment_status`. */
export const invoiceHistorySchema = withPeriodDates(
  z.extend(paymentHistoryFields, {
    payment_status: enumField(PAYMENT_STATUSES, 'Only invoices in this payment state', { optional: true }),
  }),
);

/** `GET /clients` query parameters. */
export const listClientsSchema = z.object({ limit: pageLimit, cursor: pageCursor });

/** `POST /clients`: the client fields of add invoice's `client`, flat in the body. */
export const addClientSchema = newClientSchema;

/** `PUT /clients/{id}`: any of the client fields; those given are validated as for a new client and changed. */
export const updateClientSchema = z.partial(newClientSchema);

/** A path's client id: a positive integer, else no client is named (404). */
export function clientIdOf(value: string | undefined): number | undefined {
  const parsed = positiveIntegerId(value);
  return parsed.ok ? parsed.value : undefined;
}
