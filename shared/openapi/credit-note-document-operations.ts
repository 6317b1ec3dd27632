/** The operations of a credit note's documents (docs/tax.md "Credit notes"), spread into ./operations.ts's table. */
import { type OperationSpec, READ_ERRORS } from './operation-spec.ts';

export const CREDIT_NOTE_DOCUMENT_OPERATIONS: Record<'credit-note-ubl' | 'credit-note-pdf', OperationSpec> = {
  'credit-note-ubl': {
    operationId: 'getCreditNoteUbl',
    summary: 'Get a credit note as an e-invoice (UBL 2.1 CreditNote)',
    description:
      'The credit note as a UBL 2.1 `CreditNote` meeting EN 16931 and Peppol BIS Billing 3.0 (docs/e-invoice.md): ' +
      '`cbc:CreditNoteTypeCode` 381, `cbc:ID` its `number`, `cac:BillingReference` naming the invoice it corrects (its ' +
      "number and issue date), the reason as the note, the parties as on the invoice's e-invoice, its lines with " +
      '`cbc:CreditedQuantity` (by amount: one line per VAT category the amount was split over), one tax subtotal per ' +
      'category and rate, totals that add up to its `total`, and its IRN when the account has an e-invoicing service id. ' +
      'The account needs an e-mail and a tax id, and the client an e-mail (422 `einvoice_incomplete`). An unknown or ' +
      "another account's invoice: 404 `invoice_not_found`; a number the invoice has no credit note of: 404 " +
      '`credit_note_not_found`. `Content-Disposition: attachment; filename="credit-note-<number>.xml"`.',
    tag: 'Invoices',
    parameters: ['ReferenceCode', 'CreditNoteNumber'],
    success: { status: 200, media: 'application/xml', description: 'The UBL XML.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'invoice_not_found', 'credit_note_not_found', 'einvoice_incomplete'],
  },
  'credit-note-pdf': {
    operationId: 'getCreditNotePdf',
    summary: 'Get a credit note as a PDF',
    description:
      'The credit note on A4, text selectable: the account, the client ("Bill to"), its number and date, the invoice it ' +
      'corrects, the reason, its lines (or its amount), the same tax split rows as the invoice, the total and what ' +
      "went to the invoice and to the client's credit. 404 as the e-invoice. " +
      '`Content-Disposition: inline; filename="credit-note-<number>.pdf"`.',
    tag: 'Invoices',
    parameters: ['ReferenceCode', 'CreditNoteNumber'],
    success: { status: 200, media: 'application/pdf', description: 'The PDF.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'invoice_not_found', 'credit_note_not_found'],
  },
};
