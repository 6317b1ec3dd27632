/**
 * The recurring-invoice request schemas (docs/recurring-invoices.md): `POST /recurring-invoices` is the add-invoice
 * body (its own fields, so that whatever add invoice takes a series takes too) without `due_date` — the schedule gives
 * each period's — plus `schedule` and `send`; and the list's query.
 */
import * as z from 'zod/mini';
import { type CalendarDate, parseMonthFirstDate, toIsoDate } from '../domain/dates.ts';
import { type RecurringSchedule, SCHEDULE_UNITS, type ScheduleEnd } from '../domain/recurring-schedule.ts';
import {
  addIssue,
  enumField,
  fail,
  field,
  isAbsent,
  isBlank,
  meta,
  pageCursor,
  pageLimit,
  parsedField,
} from './fields.ts';
import { type AddInvoiceInput, addInvoiceFields, addInvoiceRules, addInvoiceSchema } from './invoice.ts';

/** A whole number (a JSON integer or a string of digits); the schedule's ranges are the domain's (`scheduleError`). */
const wholeNumber = (description: string) =>
  meta(
    field((value, ctx): number => {
      if (isAbsent(value)) return fail(ctx, 'required', 'is required');
      const number = typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value) : value;
      if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 0) return number;
      return fail(ctx, 'invalid_integer', 'must be a whole number');
    }),
    { type: ['integer', 'string'], description },
  );

const date = (description: string) =>
  parsedField(parseMonthFirstDate, 'invalid_date', ['string'], `${description}, MM/DD/YYYY`);

const endSchema = z.union([
  z.object({ after: wholeNumber('The number of periods: period N is the last') }),
  z.object({ on: date('The last date a period may be issued on') }),
]);

const end = meta(
  field((value, ctx): ScheduleEnd => {
    if (isAbsent(value)) return fail(ctx, 'required', 'is required: {"after":N} or {"on":"MM/DD/YYYY"}');
    const record = typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    const keys = Object.keys(record).filter((key) => key === 'after' || key === 'on');
    if (keys.length !== 1) return fail(ctx, 'invalid_value', 'must be {"after":N} or {"on":"MM/DD/YYYY"}');
    const result = endSchema.safeParse({ [keys[0]!]: record[keys[0]!] });
    if (result.success) return result.data;
    for (const issue of result.error.issues) addIssue(ctx, { ...issue, path: issue.path });
    return z.NEVER;
  }),
  {
    description: 'When the series ends: after N periods, or on a date (the last period issued on or before it)',
    oneOf: [
      { type: 'object', required: ['after'], properties: { after: { type: ['integer', 'string'] } } },
      { type: 'object', required: ['on'], properties: { on: { type: 'string', examples: ['12/31/2027'] } } },
    ],
  },
);

export const scheduleSchema = z.object({
  every: wholeNumber('Units between periods: 1–156 weeks, 1–36 months or 1–3 years'),
  unit: enumField(SCHEDULE_UNITS, 'The unit of `every`'),
  start: date("Period 1's issue date, the anchor of every other (monthly from the 31st: 28/29 Feb, 31 Mar, 30 Apr)"),
  due_in_days: wholeNumber("Each invoice's due date is its issue date plus this (0–365)"),
  end,
});

const schedule = meta(
  field((value, ctx): z.output<typeof scheduleSchema> => {
    if (isAbsent(value)) return fail(ctx, 'required', 'is required');
    if (typeof value !== 'object' || Array.isArray(value)) return fail(ctx, 'invalid_type', 'must be an object');
    const result = scheduleSchema.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues) addIssue(ctx, { ...issue, path: issue.path });
    return z.NEVER;
  }),
  { $ref: '#/components/schemas/RecurringScheduleInput' },
);

const send = z.optional(
  meta(
    field((value, ctx): boolean | undefined => {
      if (isBlank(value)) return undefined;
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      return fail(ctx, 'invalid_enum', 'must be true or false');
    }),
    {
      type: ['boolean', 'string'],
      enum: [true, false, 'true', 'false'],
      description: "E-mail each period's invoice to its client when it is created (default false)",
    },
  ),
);

/** A series' invoices cannot share one merchant_ref (it is unique per invoice): refused, not silently dropped. */
const noMerchantRef = z.optional(
  meta(
    field((value, ctx): undefined => {
      if (isBlank(value)) return undefined;
      return fail(ctx, 'invalid_value', 'is not taken by a recurring invoice: it must be unique per invoice');
    }),
    { type: 'string', description: 'Not taken: each invoice of a series would need its own' },
  ),
);

// The dates are the schedule's: each period's invoice is issued on its period's date and due `due_in_days` after.
const recurringFields = z.extend(z.omit(addInvoiceFields, { due_date: true, issue_date: true }), {
  merchant_ref: noMerchantRef,
  schedule,
  send,
});

export const recurringInvoiceSchema = recurringFields.check(addInvoiceRules);

export type RecurringInvoiceInput = z.output<typeof recurringInvoiceSchema>;

export const listRecurringSchema = z.object({ limit: pageLimit, cursor: pageCursor });
export type ListRecurringInput = z.output<typeof listRecurringSchema>;

export function toSchedule(input: RecurringInvoiceInput['schedule']): RecurringSchedule {
  return { every: input.every, unit: input.unit, start: input.start, dueInDays: input.due_in_days, end: input.end };
}

/** The add-invoice fields of a body, as sent (what each period's invoice is made from, its dates aside). */
export function invoiceTemplateOf(body: unknown): Record<string, unknown> {
  const record = (body ?? {}) as Record<string, unknown>;
  const notTemplated = ['due_date', 'issue_date', 'merchant_ref'];
  const fields = Object.keys(addInvoiceFields.shape).filter((name) => !notTemplated.includes(name));
  return Object.fromEntries(fields.filter((name) => record[name] !== undefined).map((name) => [name, record[name]]));
}

const monthFirst = (date: CalendarDate): string => {
  const [year, month, day] = toIsoDate(date).split('-');
  return `${month}/${day}/${year}`;
};

/**
 * A period's add-invoice input: the series' template with the period's issue and due dates, through the add-invoice schema as
 * it is now; undefined when the template no longer passes it (the sweep pauses the series and says why).
 */
export function periodInvoiceInput(
  template: Record<string, unknown>,
  period: { issueDate: CalendarDate; dueDate: CalendarDate },
) {
  const dates = { issue_date: monthFirst(period.issueDate), due_date: monthFirst(period.dueDate) };
  const result = addInvoiceSchema.safeParse({ ...template, ...dates });
  return result.success ? (result.data satisfies AddInvoiceInput) : undefined;
}
