/**
 * The history request schemas (docs/api.md "Payment history and pagination"): period, custom dates, `limit`, `cursor`,
 * invoice history's filter.
 */
import * as z from 'zod/mini';
import { type CalendarDate, parseDayFirstDate } from '../domain/dates.ts';
import { DISPLAYED_PAYMENT_STATUSES } from '../domain/overdue.ts';
import { PERIODS } from '../domain/periods.ts';
import { addIssue, enumField, isBlank, meta, pageCursor, pageLimit } from './fields.ts';
import { optionalRecipient } from './send.ts';

const rawHistoryDate = (description: string) => z.optional(meta(z.unknown(), { type: 'string', description }));

type PeriodShape = { period: ReturnType<typeof enumField<typeof PERIODS>> } & Record<
  'start' | 'end',
  ReturnType<typeof rawHistoryDate>
>;

const paymentHistoryFields = z.object({
  period: enumField(PERIODS, 'History period'),
  start: rawHistoryDate('Start date DD/MM/YYYY (required for custom; ignored otherwise)'),
  end: rawHistoryDate('End date DD/MM/YYYY (required for custom; ignored otherwise)'),
  limit: pageLimit,
  cursor: pageCursor,
});

/** start/end parsed for the custom period only (ignored otherwise, whatever they hold). */
const withPeriodDates = <S extends z.ZodMiniObject<PeriodShape>>(fields: S) =>
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

/**
 * The statuses an invoice is shown with, `overdue` included (docs/api.md "Overdue"): the filter matches what the
 * listing shows.
 */
export const PAYMENT_STATUSES = DISPLAYED_PAYMENT_STATUSES;

/**
 * `POST /invoices/history` (docs/api.md "Invoices: read, list, delete"): the payment history's period rules, plus an
 * optional `payment_status`.
 */
export const invoiceHistorySchema = withPeriodDates(
  z.extend(paymentHistoryFields, {
    payment_status: enumField(PAYMENT_STATUSES, 'Only invoices in this payment state', { optional: true }),
  }),
);

/** `POST /clients/{id}/statement`: the period rules of payment history; a statement is not paged. */
export const clientStatementSchema = withPeriodDates(
  z.object({
    period: enumField(PERIODS, 'Statement period'),
    start: rawHistoryDate('Start date DD/MM/YYYY (required for custom; ignored otherwise)'),
    end: rawHistoryDate('End date DD/MM/YYYY (required for custom; ignored otherwise)'),
  }),
);

/** `POST /clients/{id}/statement/send`: the statement's body, plus an optional recipient (docs/receivables.md). */
export const sendStatementSchema = withPeriodDates(
  z.object({
    period: enumField(PERIODS, 'Statement period'),
    start: rawHistoryDate('Start date DD/MM/YYYY (required for custom; ignored otherwise)'),
    end: rawHistoryDate('End date DD/MM/YYYY (required for custom; ignored otherwise)'),
    to: optionalRecipient("Recipient; default the client's email"),
  }),
);

export type PaymentHistoryInput = z.output<typeof paymentHistorySchema>;
export type ClientStatementInput = z.output<typeof clientStatementSchema>;
export type SendStatementInput = z.output<typeof sendStatementSchema>;
export type InvoiceHistoryInput = z.output<typeof invoiceHistorySchema>;

/** `POST /reports/tax` (docs/tax.md "Tax report"): the period rules of payment history; one answer, never paged. */
export const taxReportSchema = withPeriodDates(
  z.object({
    period: enumField(PERIODS, 'Tax report period'),
    start: rawHistoryDate('Start date DD/MM/YYYY (required for custom; ignored otherwise)'),
    end: rawHistoryDate('End date DD/MM/YYYY (required for custom; ignored otherwise)'),
  }),
);

export type TaxReportInput = z.output<typeof taxReportSchema>;
