/** The add-invoice request schema (docs/api.md "Add invoice"), with the flat client node-payant sends. */
import * as z from 'zod/mini';
import { compareDates, parseMonthFirstDate } from '../domain/dates.ts';
import type { InvoiceRequest, MetadataValue } from '../domain/invoice-request.ts';
import { parseAmount, parseQuantity } from '../domain/money.ts';
import { TAX_CATEGORIES } from '../domain/tax.ts';
import { newClientSchema } from './client.ts';
import {
  addIssue,
  characterCount,
  enumField,
  FEE_BEARERS,
  fail,
  field,
  isAbsent,
  isBlank,
  MAX_ITEMS,
  MAX_TEXT,
  meta,
  optionalAmount,
  optionalText,
  parsedField,
  positiveIntegerId,
  RECIPIENTS,
  requiredText,
} from './fields.ts';

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
  discount: optionalAmount('Discount on the line (money), at most quantity × unit_cost; default 0 (docs/tax.md)'),
  tax: enumField(TAX_CATEGORIES, 'VAT category of the line (default standard): zero-rated or exempt supplies', {
    optional: true,
  }),
});

/** A boolean sent as `true`/`false` or their strings (the SDKs send strings); blank is absent. */
const optionalBoolean = (description: string) =>
  z.optional(
    meta(
      field((value, ctx): boolean | undefined => {
        if (isBlank(value)) return undefined;
        if (value === true || value === 'true') return true;
        if (value === false || value === 'false') return false;
        return fail(ctx, 'invalid_enum', 'must be "true" or "false"');
      }),
      { type: ['string', 'boolean'], enum: ['true', 'false', true, false], description },
    ),
  );

const tokenize = optionalBoolean('Tokenize the card used to pay this invoice (must be enabled for the account).');

/** The longest `notes` and `terms`. */
export const MAX_NOTE = 2000;

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
        if (key.length === 0 || characterCount(key) > 40)
          return fail(ctx, 'invalid_value', 'keys must be 1 to 40 characters');
        // These two keys cannot be stored as a DynamoDB map (the SDK's marshalling drops or rejects them).
        if (RESERVED_METADATA_KEYS.has(key))
          return fail(ctx, 'invalid_value', 'keys must not be "__proto__" or "constructor"');
        if (typeof entry === 'string') {
          if (characterCount(entry) > MAX_TEXT)
            return fail(ctx, 'too_long', `values must be at most ${MAX_TEXT} characters`);
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

/** The `items` of add invoice, as a credit note by items takes them too (shared/schemas/credit-note.ts). */
export const invoiceItemsField = items;

/** The add-invoice body's fields (a recurring invoice's body is these, its due date aside: schemas/recurring.ts). */
export const addInvoiceFields = z.object({
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
  issue_date: z.optional(
    meta(
      field((value, ctx) => {
        if (isBlank(value)) return undefined;
        const parsed = parseMonthFirstDate(value);
        return parsed.ok ? parsed.value : fail(ctx, 'invalid_date', parsed.message);
      }),
      { type: 'string', description: 'Issue date, MM/DD/YYYY; default today (account time zone); not after due_date' },
    ),
  ),
  notes: optionalText('Notes to the client, shown on the page, the PDF and the e-mail (≤ 2,000 characters)', MAX_NOTE),
  terms: optionalText('Terms of the invoice, shown on the page, the PDF and the e-mail (≤ 2,000 characters)', MAX_NOTE),
  reminders_paused: optionalBoolean("Create the invoice with its reminders paused (docs/receivables.md 'Reminders')."),
});

/** The rules across add invoice's fields: one of client and client_id, the issue date not after the due date, recipient_id with a wallet. */
export const addInvoiceRules = z.superRefine(
  (
    input: Pick<z.output<typeof addInvoiceFields>, 'client' | 'client_id' | 'recipient' | 'recipient_id'> &
      Partial<Pick<z.output<typeof addInvoiceFields>, 'issue_date' | 'due_date'>>,
    ctx,
  ) => {
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
    if (input.issue_date && input.due_date && compareDates(input.issue_date, input.due_date) > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['issue_date'],
        message: 'must not be after due_date (MM/DD/YYYY)',
        params: { code: 'invalid_date' },
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
  },
);

export const addInvoiceSchema = addInvoiceFields.check(addInvoiceRules);

/** The client fields node-payant sends at the top level of an add-invoice body ("flat client"). */
export const FLAT_CLIENT_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'company_name',
  'address',
  'website',
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
