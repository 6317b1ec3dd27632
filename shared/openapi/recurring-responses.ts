/** The response shapes of recurring invoices (docs/recurring-invoices.md): a series, and the routes' answers. */
import { SCHEDULE_UNITS } from '../domain/recurring-schedule.ts';
import { digits, nullValue, object, ref, type Schema, string, timestamp, unixDate } from './schema-builders.ts';

const Schedule = object("The series' schedule, as given (dates as `due_date` is shown).", {
  every: { type: 'integer', description: 'Units between periods' },
  unit: string('The unit of `every`', { enum: [...SCHEDULE_UNITS] }),
  start: unixDate("Period 1's issue date, the anchor"),
  due_in_days: { type: 'integer', description: "Each invoice's due date is its issue date plus this" },
  end: {
    description: 'After N periods, or the last date a period may be issued on',
    oneOf: [
      object('After N periods.', { after: { type: 'integer', description: 'Period N is the last' } }),
      object('On a date.', { on: unixDate('The last date a period may be issued on') }),
    ],
  },
});

const RecurringInvoice = object(
  'A recurring invoice: the series that issues one invoice per period.',
  {
    id: string('`rec_` + ULID', { pattern: '^rec_[0-9A-HJKMNP-TV-Z]{26}$' }),
    status: string('`active`, `paused`, `completed` (its last period issued) or `cancelled`', {
      enum: ['active', 'paused', 'completed', 'cancelled'],
    }),
    schedule: Schedule,
    send: { type: 'boolean', description: "Whether each period's invoice is e-mailed to its client" },
    next_issue_date: nullValue("The next period's issue date (as `due_date` is shown) while `active`, else null"),
    issued_count: { type: 'integer', description: 'Invoices created so far' },
    client_id: digits('The client every invoice names'),
    fee_bearer: string('Who bears the fees', { enum: ['account', 'client'] }),
    card_token_last4: string('Last 4 characters of the `card_token`, when one was given', { maxLength: 4 }),
    last_error: {
      description: "Why the sweep paused the series (a period's invoice was refused), else null",
      oneOf: [
        { type: 'null' },
        object('The refusal.', {
          code: string('The error code add invoice answered'),
          message: string('Its message'),
          period: { type: 'integer', description: 'The period not created' },
        }),
      ],
    },
    created_at: timestamp('Creation time'),
    updated_at: timestamp('Last change'),
  },
  ['card_token_last4'],
);

const answer = (description: string, data: Schema, message?: string): Schema =>
  object(
    description,
    {
      status: { type: 'string', const: 'success' },
      ...(message === undefined ? {} : { message: { type: 'string', examples: [message] } }),
      data,
    },
    [],
  );

export const RECURRING_SCHEMAS: Record<string, Schema> = {
  RecurringInvoice,
  RecurringInvoiceCreatedResponse: answer('The series.', ref('RecurringInvoice'), 'Recurring invoice created.'),
  RecurringInvoiceResponse: object(
    'The series (after a pause, resume or cancel, with a message saying which).',
    {
      status: { type: 'string', const: 'success' },
      message: {
        type: 'string',
        examples: ['Recurring invoice paused.', 'Recurring invoice resumed.', 'Recurring invoice cancelled.'],
      },
      data: ref('RecurringInvoice'),
    },
    ['message'],
  ),
  RecurringInvoiceListResponse: answer(
    'Series, one page.',
    object('One page.', {
      recurring_invoices: { type: 'array', items: ref('RecurringInvoice') },
      next_cursor: nullValue('Pass as `cursor` for the next page; null on the last page'),
    }),
  ),
};
