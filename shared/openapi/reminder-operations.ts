/** The operation of the reminders route (docs/api.md "Reminders"), spread into OPERATIONS (./operations.ts). */
import type { ErrorCode } from '../http/errors.ts';
import type { RouteName } from '../routes.ts';
import { remindersSchema } from '../schemas/reminders.ts';
import type { OperationSpec } from './operations.ts';

/** Spelled out, not spread from operations.ts (which imports this module). */
const REMINDERS_ERRORS: readonly ErrorCode[] = [
  'invalid_json',
  'validation_failed',
  'payload_too_large',
  'unsupported_media_type',
  'invalid_api_key',
  'internal_error',
  'service_unavailable',
  'invalid_idempotency_key',
  'idempotency_request_in_progress',
  'idempotency_key_reused',
  'outcome_unknown',
  'invoice_not_found',
  'invoice_deleted',
];

export const REMINDER_OPERATIONS: Record<Extract<RouteName, 'invoice-reminders'>, OperationSpec> = {
  'invoice-reminders': {
    operationId: 'changeInvoiceReminders',
    summary: "Pause or resume an invoice's reminders",
    description:
      '`{"paused":true}` stops the reminders of the account\'s schedule (`account:update --reminders`) for this ' +
      'invoice; `{"paused":false}` resumes them: the next sweep sends the reminder of the latest offset whose day has ' +
      'come, if it was not sent (resumed on its day, it goes that day); earlier ones missed during the pause are ' +
      'skipped, never sent in a burst. 200 with the invoice ' +
      '(`reminders_paused`, `reminders`). Repeating it changes nothing. Voided: 409 `invoice_deleted`. Retries are made ' +
      'safe by the `Idempotency-Key` header.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    request: { name: 'RemindersRequest', schema: remindersSchema },
    success: { status: 200, schema: 'InvoiceRemindersResponse', description: 'The reminders are paused or resumed.' },
    idempotent: true,
    errors: [...REMINDERS_ERRORS],
  },
};
