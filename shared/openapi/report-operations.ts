/**
 * The operations of the reports (docs/api.md "Aging", "Client statement"; docs/receivables.md "One client: the
 * statement"; docs/tax.md "Tax report").
 */
import type { RouteName } from '../routes.ts';
import { clientStatementSchema, sendStatementSchema, taxReportSchema } from '../schemas/history.ts';
import { agingReportSchema } from '../schemas/reports.ts';
import { COMMON_ERRORS, IDEMPOTENCY_ERRORS, type OperationSpec } from './operation-spec.ts';

export const REPORT_OPERATIONS = {
  'aging-report': {
    operationId: 'getAging',
    summary: 'Aging report (who owes what)',
    description:
      "What is outstanding on the account's open (not voided) invoices, in five buckets of days past due (`current`: " +
      "not yet due, the due date included; `1_30`, `31_60`, `61_90`, `over_90`) counted on `as_of`, the account's " +
      'date. `buckets` sum exactly to `total_outstanding`, on every page. With `client_id`, the totals are that ' +
      'client\'s. The page lists one row per client, largest outstanding first, or with `"invoices": true` the open ' +
      'invoices themselves (any creation date, oldest due first, each with `days_overdue`), optionally of one `bucket`. ' +
      "The body is optional. `Accept: text/csv` answers the page's rows as CSV.",
    tag: 'Reports',
    request: { name: 'AgingReportRequest', schema: agingReportSchema },
    success: { status: 200, schema: 'AgingReportResponse', description: 'The totals and one page.' },
    idempotent: false,
    errors: [...COMMON_ERRORS, 'invalid_cursor', 'client_not_found'],
  },
  'client-statement': {
    operationId: 'getClientStatement',
    summary: 'Client statement',
    description:
      "A client's statement of a period (payment history's `period`, `start` and `end` rules): the opening balance, " +
      'every invoice (on its issue day), payment (on its transaction date), reversal and void in date order with the ' +
      'balance after each, and the closing balance. Debits: invoices and reversals; credits: payments and voids. Not ' +
      'paged: more than 5,000 lines is 400 `statement_too_large` (ask for a shorter period). `Accept: text/csv` answers ' +
      'the lines as CSV; `Accept: application/pdf`, the statement as an A4 PDF (errors stay JSON).',
    tag: 'Reports',
    parameters: ['ClientId'],
    request: { name: 'ClientStatementRequest', schema: clientStatementSchema },
    success: { status: 200, schema: 'ClientStatementResponse', description: 'The statement.' },
    idempotent: false,
    errors: [...COMMON_ERRORS, 'invalid_period', 'statement_too_large', 'client_not_found'],
  },
  'send-client-statement': {
    operationId: 'sendClientStatement',
    summary: "E-mail a client's statement",
    description:
      'The statement of a period (the body of `POST /clients/{id}/statement`), e-mailed with its PDF attached: to the ' +
      "client's e-mail address, or to `to`. 200 with what was queued; the mailer reads the statement again and draws " +
      'it when it sends it (docs/receivables.md "One client: the statement"). No client e-mail and no `to`: 422 `recipient_missing`; ' +
      'more than 5,000 lines: 400 `statement_too_large`; a stage without a sender: 501 `mail_not_configured`. Retries ' +
      'are made safe by the `Idempotency-Key` header (a replay queues nothing new).',
    tag: 'Reports',
    parameters: ['ClientId'],
    request: { name: 'SendStatementRequest', schema: sendStatementSchema },
    success: { status: 200, schema: 'StatementQueuedResponse', description: 'The e-mail is queued.' },
    idempotent: true,
    errors: [
      ...COMMON_ERRORS,
      ...IDEMPOTENCY_ERRORS,
      'invalid_period',
      'statement_too_large',
      'client_not_found',
      'recipient_missing',
      'mail_not_configured',
    ],
  },
  'tax-report': {
    operationId: 'getTaxReport',
    summary: 'Tax report (VAT and withholding tax of a period)',
    description:
      "The account's output VAT of a period (payment history's `period`, `start` and `end` rules): per rate, from the " +
      'invoices issued (on their issue day) and the credit notes (on theirs, negative) in it; the taxable, zero-rated, ' +
      'exempt and outside-VAT (VAT `off`) nets; the discounts; the withholding tax clients deducted from payments (on ' +
      'their transaction date); and how many documents made them. A void or a payment reversal is a reversing entry on ' +
      'the day it was made: the report of an earlier period never changes. Not paged. `Accept: text/csv` answers it as ' +
      'CSV lines (one per rate, then each category, withholding tax and the total).',
    tag: 'Reports',
    request: { name: 'TaxReportRequest', schema: taxReportSchema },
    success: { status: 200, schema: 'TaxReportResponse', description: 'The report.' },
    idempotent: false,
    errors: [...COMMON_ERRORS, 'invalid_period'],
  },
} satisfies Partial<Record<RouteName, OperationSpec>>;
