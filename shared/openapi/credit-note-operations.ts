/** The operations of credit notes (docs/tax.md "Credit notes"), spread into ./operations.ts's table. */
import type { ErrorCode } from '../http/errors.ts';
import { creditNoteSchema } from '../schemas/credit-note.ts';
import { COMMON_ERRORS, IDEMPOTENCY_ERRORS } from './operation-spec.ts';

export const CREDIT_NOTE_OPERATIONS = {
  'create-credit-note': {
    operationId: 'createCreditNote',
    summary: 'Issue a credit note on an invoice',
    description:
      'Corrects an issued invoice without editing it: `{"reason":…,"items":[…]}` (lines as add invoice takes them, ' +
      'taxed by the invoice\'s VAT setting) or `{"reason":…,"amount":"…"}` (VAT included, split over the invoice\'s ' +
      "VAT categories in proportion). The credit note takes the account's next gapless number (`CN-000001`, …). It " +
      "reduces the invoice's `amount_due` (`applied_to_invoice`); what exceeds it — the invoice was paid — becomes the " +
      "client's credit (`credited_to_client`, `credit_balance`). Never more than the invoice's total less its earlier " +
      'credit notes: 409 `credit_exceeds_invoice` (its error item carries `creditable`); a voided invoice takes none: 409 ' +
      '`invoice_deleted`. Event `credit_note.created`. Retries are made safe by the `Idempotency-Key` header.',
    tag: 'Invoices',
    request: { name: 'CreditNoteRequest', schema: creditNoteSchema },
    parameters: ['ReferenceCode'] as const,
    success: {
      status: 201,
      schema: 'CreditNoteCreatedResponse',
      description: 'Credit note issued; `data` is the credit note with its `invoice` after it.',
    },
    idempotent: true,
    errors: [
      ...COMMON_ERRORS,
      ...IDEMPOTENCY_ERRORS,
      'invoice_not_found',
      'invoice_deleted',
      'credit_exceeds_invoice',
    ] as readonly ErrorCode[],
  },
};
