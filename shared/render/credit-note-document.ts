/**
 * A credit note as its client reads it (docs/tax.md "Credit notes"), as a pure value its PDF is drawn from: who it is
 * from and for ("Bill to", as on the invoice), its number and date, the invoice it corrects, the reason, the lines (or
 * the amount), the same tax split rows the invoice shows (./document-split.ts), the total and where it went.
 */
import type { CreditNote } from '../domain/credit-note-record.ts';
import { fromEpochSeconds } from '../domain/dates.ts';
import { type Invoice, invoiceTaxOf } from '../domain/invoice.ts';
import { type SplitRow, splitRows } from './document-split.ts';
import {
  clientOf,
  type DocumentLine,
  documentLine,
  type InvoiceDocument,
  issuedOn,
  type Merchant,
  merchantOf,
  type ShownDate,
  showDate,
} from './invoice-document.ts';
import { formatMoney } from './money-format.ts';

export interface CreditNoteDocument {
  merchant: InvoiceDocument['merchant'];
  client: InvoiceDocument['client'];
  /** `CN-000001`. */
  number: string;
  issued: ShownDate;
  /** The invoice it corrects: its number (or id before numbers), reference code and issue date. */
  invoice: { number: string; referenceCode: string; issued: ShownDate };
  reason: string;
  currency: string;
  /** The lines credited; empty for a credit note by amount. */
  lines: DocumentLine[];
  split: SplitRow[];
  total: string;
  /** What it took off the invoice's amount due, and what went to the client's credit. */
  appliedToInvoice: string;
  creditedToClient: string;
  /** `credit-note-CN-000001.pdf`: letters, digits, dots and dashes only. */
  fileName: string;
}

export interface CreditNoteDocumentInput {
  note: CreditNote;
  invoice: Invoice;
  merchant: Merchant;
}

export function creditNoteDocument({ note, invoice, merchant }: CreditNoteDocumentInput): CreditNoteDocument {
  const money = (kobo: number) => formatMoney(kobo, note.currency);
  const tax = {
    vat: invoiceTaxOf(invoice).vat,
    subtotalKobo: note.subtotalKobo,
    discountTotalKobo: note.discountTotalKobo,
    taxTotalKobo: note.taxTotalKobo,
    taxes: note.taxes,
  };
  const { details } = invoice;
  return {
    merchant: merchantOf(merchant),
    client: clientOf(invoice),
    number: note.number,
    issued: showDate(fromEpochSeconds(note.issueDate)),
    invoice: {
      number: details.number ?? String(details.id),
      referenceCode: details.referenceCode,
      issued: showDate(issuedOn(invoice, merchant.timeZone)),
    },
    reason: note.reason,
    currency: note.currency,
    lines: note.lines.map((line) => documentLine(tax, line, money)),
    split: splitRows(tax, money),
    total: money(note.totalKobo),
    appliedToInvoice: money(note.effect.amountDueReductionKobo),
    creditedToClient: money(note.effect.clientCreditKobo),
    fileName: `credit-note-${note.number.replace(/[^A-Za-z0-9-]/g, '')}.pdf`,
  };
}
