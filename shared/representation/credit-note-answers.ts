/**
 * What the credit-note route answers (docs/tax.md "Credit notes"): the credit note — its number, reason, the split it
 * credits (as an invoice's, by the invoice's VAT setting), what it took off the amount due and what went to the
 * client's credit — and, on its creation, its invoice after it. The `credit_note.created` event carries the same.
 */

import type { CreditNote } from '../domain/credit-note-record.ts';
import type { CalendarDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { formatKobo } from '../domain/money.ts';
import { success } from '../outcome.ts';
import { type Answer, invoiceView } from './views.ts';

export const CREDIT_NOTE_CREATED = 'Credit note created successfully.';

export function creditNoteView(note: CreditNote) {
  return {
    id: note.id,
    number: note.number,
    reference_code: note.referenceCode,
    invoice_number: note.invoiceNumber ?? null,
    client_id: String(note.clientId),
    reason: note.reason,
    currency: note.currency,
    issue_date: String(note.issueDate),
    created_at: note.createdAt,
    vat_mode: note.vatMode,
    items: note.lines.map((line) => ({
      name: line.name,
      item: line.name,
      description: line.description,
      quantity: String(line.quantity),
      unit_cost: formatKobo(line.unitCostKobo),
      discount: formatKobo(line.discountKobo),
      tax: line.tax,
      net: formatKobo(line.netKobo),
    })),
    subtotal: formatKobo(note.subtotalKobo),
    discount_total: formatKobo(note.discountTotalKobo),
    tax_total: formatKobo(note.taxTotalKobo),
    total: formatKobo(note.totalKobo),
    taxes: note.taxes.map((entry) => ({
      name: entry.name,
      category: entry.category,
      rate: entry.rate,
      taxable: formatKobo(entry.taxableKobo),
      amount: formatKobo(entry.amountKobo),
    })),
    applied_to_invoice: formatKobo(note.effect.amountDueReductionKobo),
    credited_to_client: formatKobo(note.effect.clientCreditKobo),
  };
}

/** The new credit note with its invoice after it (and the invoice's client). */
export const creditNoteCreated = (note: CreditNote, invoice: Invoice, today: CalendarDate): Answer =>
  success(
    201,
    { ...creditNoteView(note), invoice: invoiceView(invoice, { today, withClient: true }) },
    CREDIT_NOTE_CREATED,
  );
