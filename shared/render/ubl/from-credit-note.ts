/**
 * A credit note as the e-invoice's model (docs/e-invoice.md "From a credit note"): a UBL CreditNote with the parties,
 * references and line mapping of its invoice's e-invoice (./from-invoice.ts), its own number and issue date, the
 * invoice it credits as the billing reference, and its reason as the note. A credit note by items has those lines,
 * taxed by the invoice's VAT setting as the note was; one by amount has one line per VAT category the amount was split
 * over (one line when the invoice has one category), priced VAT included as the split was made, so the renderer's
 * totals are the credit note's to the kobo.
 */
import type { CreditNote } from '../../domain/credit-note-record.ts';
import { fromEpochSeconds } from '../../domain/dates.ts';
import { invoiceIrn } from '../../domain/document-number.ts';
import { type Invoice, invoiceTaxOf } from '../../domain/invoice.ts';
import { accept, type Decision, refuse } from '../../domain/refusal.ts';
import { type TaxCategory, UBL_TAX_CATEGORY, type VatSetting } from '../../domain/tax.ts';
import type { UblDocument, UblLine } from './document.ts';
import {
  categoryOf,
  customerOf,
  incompleteEInvoice,
  issuedOn,
  missingForEInvoice,
  present,
  supplierOf,
  type UblMerchant,
  ublLine,
} from './from-invoice.ts';

export interface UblCreditNoteInput {
  note: CreditNote;
  /** The invoice it credits. */
  invoice: Invoice;
  merchant: UblMerchant;
}

/** The credit note's e-invoice model, or 422 `einvoice_incomplete` as its invoice's would be. */
export function decideUblCreditNote(input: UblCreditNoteInput): Decision<UblDocument> {
  const missing = missingForEInvoice(input);
  return missing.length === 0 ? accept(ublCreditNoteDocument(input)) : refuse(incompleteEInvoice(missing));
}

/**
 * The credit note's model. Its IRN, when the account has a service id, is made as an invoice's from its own number
 * and issue date (docs/decisions.md "Credit notes' documents").
 */
export function ublCreditNoteDocument({ note, invoice, merchant }: UblCreditNoteInput): UblDocument {
  const vat = invoiceTaxOf(invoice).vat;
  const issueDate = fromEpochSeconds(note.issueDate);
  const byAmount = note.lines.length === 0;
  return {
    type: 'CreditNote',
    number: note.number,
    issueDate,
    currency: note.currency,
    pricesIncludeVat: byAmount || vat.mode === 'inclusive',
    ...present('note', note.reason),
    ...(merchant.einvoiceServiceId ? { irn: invoiceIrn(note.number, merchant.einvoiceServiceId, issueDate) } : {}),
    supplier: supplierOf(merchant),
    customer: customerOf(invoice),
    lines: byAmount ? amountLines(note, vat) : note.lines.map((line, index) => ublLine(index, line, vat)),
    creditedInvoice: {
      number: invoice.details.number ?? String(invoice.details.id),
      issueDate: issuedOn(invoice, merchant.timeZone),
    },
  };
}

const CATEGORY_WORDS: Record<TaxCategory, string> = {
  standard: 'standard-rated',
  zero: 'zero-rated',
  exempt: 'exempt',
};

/**
 * A credit note by amount: one line per VAT category with a part of the amount, priced at that part VAT included;
 * without VAT (the invoice's setting `off`), one line not subject to VAT.
 */
function amountLines(note: CreditNote, vat: VatSetting): UblLine[] {
  const name = note.reason.trim() || 'Credit';
  const parts = note.taxes.filter((entry) => entry.taxableKobo + entry.amountKobo > 0);
  if (vat.mode === 'off' || parts.length === 0)
    return [{ id: '1', name, quantity: 1, unitPriceKobo: note.totalKobo, category: UBL_TAX_CATEGORY.off }];
  return parts.map((entry, index) => ({
    id: String(index + 1),
    name: parts.length === 1 ? name : `${name} (${CATEGORY_WORDS[entry.category]})`,
    quantity: 1,
    unitPriceKobo: entry.taxableKobo + entry.amountKobo,
    ...categoryOf(entry.category, vat),
  }));
}
