/**
 * JSON Schema of the reports' responses (docs/api.md "Aging", "Client statement"): what
 * `shared/representation/report-views.ts` produces, held to every real response by the contract check, like
 * ./responses.ts.
 */
import { AGING_BUCKETS } from '../domain/aging.ts';
import { PERIODS } from '../domain/periods.ts';
import { LEDGER_LINE_TYPES } from '../domain/receivables.ts';
import { STATEMENT_QUEUED } from '../representation/report-views.ts';
import { RESPONSE_SCHEMAS } from './responses.ts';
import { money, object, ref, type Schema, string } from './schema-builders.ts';
import { STATEMENT_LINE_TAX_FIELDS, STATEMENT_LINE_TAX_OPTIONAL } from './tax-responses.ts';

const signedMoney = (description: string): Schema =>
  string(
    `${description}: decimal string with exactly two decimals, no separators; negative when the client is in credit`,
    {
      pattern: '^-?\\d+\\.\\d{2}$',
    },
  );
const dayFirst = (description: string): Schema =>
  string(`${description}, DD/MM/YYYY`, { pattern: '^\\d{2}/\\d{2}/\\d{4}$' });

const bucketNames: Record<string, string> = {
  current: 'Not yet due (the due date included)',
  '1_30': '1 to 30 days past due',
  '31_60': '31 to 60 days past due',
  '61_90': '61 to 90 days past due',
  over_90: 'More than 90 days past due',
};

const perBucket = (description: string, value: (bucket: string) => Schema): Schema =>
  object(description, Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, value(bucket)])));

const AgingBuckets = perBucket('Outstanding by days past due (in the account time zone, on `as_of`)', (bucket) =>
  money(bucketNames[bucket]!),
);
const AgingCounts = perBucket('Open invoices by days past due', (bucket) => ({
  type: 'integer',
  minimum: 0,
  description: bucketNames[bucket],
}));

const ClientAging = object("One client's outstanding invoices.", {
  client_id: { type: 'integer', description: 'Client identifier' },
  name: string('Company name, else first and last name'),
  total_outstanding: money("Σ amount_due of the client's open invoices"),
  buckets: ref('AgingBuckets'),
  unapplied_credit: money(
    "The client's credit not yet applied to an invoice (money held for it, not owed: not in the buckets); a client " +
      'holding credit has a row even with nothing outstanding',
  ),
});

const invoice = RESPONSE_SCHEMAS.Invoice as { properties: Schema; required: string[] };

const OpenInvoice = {
  ...invoice,
  description: 'An open invoice with its client and items, and how many days past due it is on `as_of`.',
  properties: {
    ...invoice.properties,
    days_overdue: { type: 'integer', minimum: 0, description: 'Days past the due date (0 up to and on it)' },
  },
  required: [...invoice.required, 'client', 'days_overdue'],
};

const agingHead = {
  as_of: dayFirst("The account's date the buckets are counted on"),
  currency: string('The account currency', { pattern: '^[A-Z]{3}$' }),
  total_outstanding: money('Σ amount_due of the open (not voided) invoices; the buckets sum to it exactly'),
  buckets: ref('AgingBuckets'),
  counts: ref('AgingCounts'),
  total_unapplied_credit: money(
    "Σ the clients' unapplied credit (the client of `client_id`'s only); not in `total_outstanding`",
  ),
};

const nextCursor: Schema = {
  type: ['string', 'null'],
  description: 'Opaque cursor for the next page; null on the last page',
};

const AgingReport = {
  description:
    'The totals (the whole account, or the client of `client_id`; the same on every page) and one page of client rows ' +
    '(largest outstanding first) or, with `"invoices": true`, of open invoices (oldest due first).',
  oneOf: [
    object('Client rows', {
      ...agingHead,
      clients: { type: 'array', description: 'Largest outstanding first', items: ref('ClientAging') },
      next_cursor: nextCursor,
    }),
    object('Open invoices', {
      ...agingHead,
      invoices: { type: 'array', description: 'Oldest due first', items: ref('OpenInvoice') },
      next_cursor: nextCursor,
    }),
  ],
};

const StatementLine = object(
  'One line of a statement.',
  {
    date: dayFirst('Invoice: issue day; payment: transaction date; reversal and void: the day they were made'),
    type: string('What happened', { enum: [...LEDGER_LINE_TYPES] }),
    reference_code: string('The invoice concerned'),
    description: string("Invoice: its items' names; payment: its channel; reversal: its reason"),
    debit: money('Invoice total or reversed amount (with its withholding tax) (0.00 otherwise)'),
    credit: money('Payment, withholding tax (`wht`) or voided amount (0.00 otherwise)'),
    balance: signedMoney('Balance after this line'),
    ...STATEMENT_LINE_TAX_FIELDS,
  },
  STATEMENT_LINE_TAX_OPTIONAL,
);

const ClientStatement = object(
  'A client statement of a period: not paged (at most 5,000 lines).',
  {
    client: ref('Client'),
    period: string('The requested period', { enum: [...PERIODS] }),
    start: dayFirst('Effective first day'),
    end: dayFirst('Effective last day'),
    currency: string('The account currency', { pattern: '^[A-Z]{3}$' }),
    opening_balance: signedMoney("The client's balance before the first day: invoiced − voided − paid + reversed"),
    lines: { type: 'array', description: 'In date order, then in the order recorded', items: ref('StatementLine') },
    closing_balance: signedMoney('The balance after the last day: opening balance + debits − credits'),
    credit: object(
      "The client's credit (docs/bank-transfers.md): received, applied and refunded in the period, each change, and the credit now",
      {
        received: money('Credit received from transfers in the period'),
        applied: money(
          'Credit applied to invoices in the period (payments with channel Credit, and credit taken back by voiding ' +
            'the invoice its credit notes credited), net of payments from credit reversed',
        ),
        refunded: money('Credit refunded in the period, net of refunds that failed for good and gave it back'),
        balance: money('The credit now'),
        lines: {
          type: 'array',
          description: 'Each change in the period, oldest first',
          items: object('A change of credit.', {
            date: string('The day (YYYY-MM-DD)'),
            kind: {
              type: 'string',
              enum: ['received', 'applied', 'refunded', 'refund_failed', 'application_reversed'],
              description: 'What changed',
            },
            amount: money('How much'),
            reference: {
              description: "The transfer's reference, for credit received; else null",
              type: ['string', 'null'],
            },
          }),
        },
      },
    ),
  },
  ['credit'],
);

const StatementQueued = object('A statement e-mail, queued: the mailer draws the PDF and sends it.', {
  client_id: { type: 'integer', description: 'The client' },
  period: string('The requested period', { enum: [...PERIODS] }),
  start: dayFirst('Effective first day'),
  end: dayFirst('Effective last day'),
  to: string('Who it goes to', { format: 'email' }),
  mail_status: string('Always `queued`: the outcome is in `npm run cli -- mail:deliveries`', { enum: ['queued'] }),
  job_id: string('The mail job', { pattern: '^mail_[0-9A-HJKMNP-TV-Z]{26}$' }),
});

const signedAmount = (description: string): Schema =>
  string(`${description}: decimal string with exactly two decimals; negative when credit notes and voids exceed it`, {
    pattern: '^-?\\d+\\.\\d{2}$',
  });
const count = (description: string): Schema => ({ type: 'integer', description });

const TaxReport = object('The VAT and withholding tax of a period: not paged (docs/tax.md "Tax report").', {
  period: string('The requested period', { enum: [...PERIODS] }),
  start: dayFirst('Effective first day'),
  end: dayFirst('Effective last day'),
  currency: string('The account currency', { pattern: '^[A-Z]{3}$' }),
  output_vat: {
    type: 'array',
    description: 'Standard-rated sales per VAT rate (the rate each invoice was created with), lowest rate first',
    items: object('One rate.', {
      rate: string('The rate in percent, as set (`7.5`)'),
      taxable: signedAmount('Net of the lines at this rate, after discounts, without VAT'),
      vat: signedAmount('The VAT on them'),
    }),
  },
  vat_total: signedAmount('Σ output VAT'),
  taxable: signedAmount('Σ standard-rated net'),
  zero_rated: signedAmount('Net of the zero-rated lines'),
  exempt: signedAmount('Net of the exempt lines'),
  outside_vat: signedAmount('Net of the invoices of an account with VAT `off` (and of invoices created before VAT)'),
  discounts: signedAmount('Discounts given (already out of the nets above)'),
  total: signedAmount('Every net plus the VAT: Σ the totals of the invoices less the credit notes and voids'),
  wht_suffered: signedAmount('Withholding tax deducted by clients from payments, less what reversals took off'),
  counts: object('How many documents made the figures.', {
    invoices: count('Invoices issued in the period'),
    credit_notes: count('Credit notes issued in the period'),
    voids: count('Invoices voided in the period'),
    wht_payments: count('Payments with withholding tax in the period'),
    wht_reversals: count('Reversals in the period of payments with withholding tax'),
  }),
});

const queuedSuccess = (description: string, data: Schema, message: string): Schema => ({
  type: 'object',
  description,
  properties: {
    status: { type: 'string', const: 'success' },
    message: { type: 'string', description: 'Human-readable outcome', examples: [message] },
    data,
  },
  required: ['status', 'message', 'data'],
  additionalProperties: false,
});

const success = (description: string, data: Schema): Schema => ({
  type: 'object',
  description,
  properties: { status: { type: 'string', const: 'success' }, data },
  required: ['status', 'data'],
  additionalProperties: false,
});

/** `components.schemas` of the reports. */
export const REPORT_RESPONSE_SCHEMAS = {
  AgingBuckets,
  AgingCounts,
  ClientAging,
  OpenInvoice,
  AgingReport,
  AgingReportResponse: success('Aging totals and one page.', ref('AgingReport')),
  StatementLine,
  ClientStatement,
  ClientStatementResponse: success('The statement.', ref('ClientStatement')),
  TaxReport,
  TaxReportResponse: success('The tax report.', ref('TaxReport')),
  StatementQueued,
  StatementQueuedResponse: queuedSuccess('Queued for sending.', ref('StatementQueued'), STATEMENT_QUEUED),
} satisfies Record<string, Schema>;
