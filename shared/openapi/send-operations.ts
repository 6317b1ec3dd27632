/** The operations of the send routes (docs/api.md "Sending an invoice"), spread into OPERATIONS (./operations.ts). */
import type { ErrorCode } from '../http/errors.ts';
import type { RouteName } from '../routes.ts';
import { sendInvoiceSchema } from '../schemas/send.ts';
import { BODY_ERRORS, IDEMPOTENCY_ERRORS, READ_ERRORS } from './error-sets.ts';
import type { OperationSpec } from './operations.ts';

/**
 * What a send can answer besides success (both send routes): authentication and availability, the Idempotency-Key's
 * codes, and the send's own refusals.
 */
const SEND_ERRORS: readonly ErrorCode[] = [
  ...READ_ERRORS,
  ...IDEMPOTENCY_ERRORS,
  'invoice_not_found',
  'invoice_deleted',
  'recipient_missing',
  'mail_not_configured',
];

export const SEND_OPERATIONS: Record<Extract<RouteName, 'send-invoice' | 'email-invoice'>, OperationSpec> = {
  'send-invoice': {
    operationId: 'sendInvoice',
    summary: "Send an invoice by e-mail (the SDKs' call)",
    description:
      "Queues an e-mail of the invoice to its client's address (`client.email`): 200 with the invoice, `mail_status` " +
      '`queued`. The e-mail (HTML and text with the hosted link, the PDF attached) is sent asynchronously; `mail_status` ' +
      'then becomes `sent` (SES accepted it; `sent_at`), `failed` or `bounced` (`mail_error`), with the webhook events ' +
      '`invoice.sent` and `invoice.delivery_failed`. Sending again queues a new e-mail. Voided: 409 `invoice_deleted`; ' +
      'no client e-mail: 422 `recipient_missing`; a stage without a sender: 501 `mail_not_configured`.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    success: { status: 200, schema: 'InvoiceQueuedResponse', description: 'The e-mail is queued.' },
    idempotent: true,
    errors: [...SEND_ERRORS],
  },
  'email-invoice': {
    operationId: 'emailInvoice',
    summary: 'Send an invoice by e-mail, with recipients and a note',
    description:
      "As `GET /invoices/send/{reference_code}`, with an optional body: `to` (default the client's e-mail), `cc` (at " +
      'most 10 addresses) and `message` (a note to the client, at most 1,000 characters, shown in the e-mail). An empty ' +
      'body sends to the client. Retries are made safe by the `Idempotency-Key` header (a replay sends nothing new).',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    request: { name: 'SendInvoiceRequest', schema: sendInvoiceSchema },
    success: { status: 200, schema: 'InvoiceQueuedResponse', description: 'The e-mail is queued.' },
    idempotent: true,
    errors: [...BODY_ERRORS, ...SEND_ERRORS],
  },
};
