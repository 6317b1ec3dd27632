/** The operation of the reminders route (docs/api.md "Reminders"), spread into OPERATIONS (./operations.ts). */
import type { RouteName } from '../routes.ts';
import { remindersSchema } from '../schemas/reminders.ts';
import { COMMON_ERRORS, IDEMPOTENCY_ERRORS } from './error-sets.ts';
import type { OperationSpec } from './operations.ts';

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
    errors: [...COMMON_ERRORS, ...IDEMPOTENCY_ERRORS, 'invoice_not_found', 'invoice_deleted'],
  },
};
