/** The recurring-invoice operations of the OpenAPI document (docs/recurring-invoices.md), merged with operations.ts. */
import type { RecurringRouteName } from '../routes.ts';
import { recurringInvoiceSchema } from '../schemas/recurring.ts';
import { COMMON_ERRORS, IDEMPOTENCY_ERRORS, type OperationSpec, READ_ERRORS } from './operation-spec.ts';

const CHANGES = {
  pause: {
    summary: 'Pause a recurring invoice',
    does:
      'No invoice is created while it is paused; periods whose dates pass meanwhile are never created. Pausing a ' +
      'paused series changes nothing.',
  },
  resume: {
    summary: 'Resume a recurring invoice',
    does:
      'It goes on from the first period whose issue date is today or later (account time zone): no burst of the ' +
      'periods missed while paused. `completed` when none is left. Resuming an active series changes nothing; ' +
      'resuming clears `last_error`.',
  },
  cancel: {
    summary: 'Cancel a recurring invoice',
    does: 'For good: no further invoice. Its invoices stay as they are. Cancelling a cancelled series changes nothing.',
  },
} as const;

function change(action: keyof typeof CHANGES): OperationSpec {
  const { summary, does } = CHANGES[action];
  return {
    operationId: `${action}RecurringInvoice`,
    summary,
    description: `${does} 200 with the series. A completed or cancelled series: 409 \`recurring_status_conflict\`.`,
    tag: 'Recurring invoices',
    parameters: ['RecurringId'],
    success: { status: 200, schema: 'RecurringInvoiceResponse', description: 'The series after the change.' },
    idempotent: true,
    errors: [...READ_ERRORS, ...IDEMPOTENCY_ERRORS, 'recurring_not_found', 'recurring_status_conflict'],
  };
}

export const RECURRING_OPERATIONS: Record<RecurringRouteName, OperationSpec> = {
  'create-recurring-invoice': {
    operationId: 'createRecurringInvoice',
    summary: 'Create a recurring invoice',
    description:
      'The add-invoice body without `due_date` (and without `merchant_ref`, unique per invoice), plus `schedule` and ' +
      '`send`. Period n is issued on `start` moved by (n − 1) × `every` units, the day clamped to the month (from ' +
      'the 31st: 28/29 Feb, 31 Mar, 30 Apr), never drifting; its invoice is created once, from 06:00 that day in the ' +
      "account's time zone, due `due_in_days` later, with `recurring_id` and `period`. A start in the past anchors " +
      'the dates; the series begins at the first period not passed. An inline `client` is created (or found by its ' +
      'email) now: every invoice names that client.',
    tag: 'Recurring invoices',
    request: { name: 'CreateRecurringInvoiceRequest', schema: recurringInvoiceSchema },
    success: { status: 201, schema: 'RecurringInvoiceCreatedResponse', description: 'The series.' },
    idempotent: true,
    errors: [
      ...COMMON_ERRORS,
      ...IDEMPOTENCY_ERRORS,
      'tokenization_not_enabled',
      'invalid_card_token',
      'client_not_found',
    ],
  },
  'list-recurring-invoices': {
    operationId: 'listRecurringInvoices',
    summary: 'List recurring invoices',
    description:
      'The series of the account, newest first, whatever their status. `limit` (1–500, default 100) and `cursor` ' +
      '(from `data.next_cursor`) are query parameters.',
    tag: 'Recurring invoices',
    parameters: ['Limit', 'Cursor'],
    success: { status: 200, schema: 'RecurringInvoiceListResponse', description: 'One page of series.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'validation_failed', 'invalid_cursor'],
  },
  'get-recurring-invoice': {
    operationId: 'getRecurringInvoice',
    summary: 'Get a recurring invoice',
    description: 'The series: its status, schedule, `next_issue_date` and `issued_count`.',
    tag: 'Recurring invoices',
    parameters: ['RecurringId'],
    success: { status: 200, schema: 'RecurringInvoiceResponse', description: 'The series.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'recurring_not_found'],
  },
  'pause-recurring-invoice': change('pause'),
  'resume-recurring-invoice': change('resume'),
  'cancel-recurring-invoice': change('cancel'),
};
