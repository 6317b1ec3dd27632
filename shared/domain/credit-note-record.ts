/**
 * A credit note as it is issued (docs/tax.md "Credit notes"; docs/decisions.md "Credit notes"): from the request — by
 * items (taxed as the invoice's VAT setting taxes them) or by an amount (split over the invoice's tax categories) — the
 * decision of credit-note.ts against the invoice as read, and the invoice's balance after it. Pure: the service reads,
 * asks here, and commits.
 */

import { type CreditNoteEffect, decideCreditNote } from './credit-note.ts';
import { type CalendarDate, toEpochSeconds } from './dates.ts';
import { CREDIT_NOTE_PREFIX, formatDocumentNumber } from './document-number.ts';
import { amountDueOf, type Invoice, type InvoiceBalance, invoiceTaxOf, paymentStatusOf } from './invoice.ts';
import type { InvoiceLineRequest } from './invoice-request.ts';
import { accept, type Decision, notFound, refuse } from './refusal.ts';
import { creditNoteByAmount, type TaxCategory, type TaxEntry, type TaxSplit, taxInvoice, type VatMode } from './tax.ts';

/** What is asked: a reason and either the lines credited or an amount (VAT included). */
export interface CreditNoteRequest {
  reason: string;
  items?: InvoiceLineRequest[] | undefined;
  /** In kobo, VAT included. */
  amount?: number | undefined;
}

export interface CreditNoteLine {
  name: string;
  description: string;
  quantity: number;
  unitCostKobo: number;
  discountKobo: number;
  tax: TaxCategory;
  netKobo: number;
}

export interface CreditNote {
  /** `cn_` + ULID. */
  id: string;
  /** `CN-000001`: the account's gapless credit-note sequence. */
  number: string;
  companyId: number;
  clientId: number;
  invoiceId: number;
  referenceCode: string;
  /** The invoice's number, when it has one. */
  invoiceNumber?: string;
  reason: string;
  currency: string;
  /** The invoice's VAT mode (its rate is in `taxes`). */
  vatMode: VatMode;
  subtotalKobo: number;
  discountTotalKobo: number;
  taxTotalKobo: number;
  totalKobo: number;
  taxes: TaxEntry[];
  /** Empty for a credit note by amount. */
  lines: CreditNoteLine[];
  /** Taken off the invoice's amount due, and what went to the client's credit: together the total. */
  effect: CreditNoteEffect;
  /** Unix seconds of 00:00 UTC of its issue day (account time zone), as an invoice's `issue_date`. */
  issueDate: number;
  /** YYYY-MM-DD HH:MM:SS (UTC). */
  createdAt: string;
}

/** A credit note as its invoice's hosted page and PDF list it. */
export interface CreditNoteSummary {
  number: string;
  reason: string;
  totalKobo: number;
  /** Unix seconds of 00:00 UTC of its issue day. */
  issueDate: number;
}

/** The split the request asks for, or `validation_failed` (a discount above its line, amounts past the maximum). */
export function requestedCreditSplit(request: CreditNoteRequest, invoice: Invoice): Decision<TaxSplit> {
  const { vat, taxes } = invoiceTaxOf(invoice);
  if (request.items === undefined) return accept(creditNoteByAmount(request.amount ?? 0, { vat, taxes }));
  const lines = request.items.map((line) => ({
    quantity: line.quantity,
    unitCostKobo: line.unit_cost,
    discountKobo: line.discount,
    tax: line.tax,
  }));
  return taxInvoice(lines, vat);
}

/** Who issues it and with what: the account, the new note's ids, today and now. */
export interface CreditNoteIssue {
  companyId: number;
  id: string;
  /** The account's last credit-note number given (0 before the first). */
  lastNumber: number;
  today: CalendarDate;
  now: string;
}

export interface IssuedCreditNote {
  note: CreditNote;
  /** The invoice's balance after it. */
  balance: InvoiceBalance;
}

/**
 * The credit note on `invoice` (undefined when there is none, or another account's: not found), or the refusal:
 * `validation_failed` for its lines, `invoice_deleted`, `credit_exceeds_invoice` (credit-note.ts).
 */
export function issueCreditNote(
  invoice: Invoice | undefined,
  request: CreditNoteRequest,
  issue: CreditNoteIssue,
): Decision<IssuedCreditNote> {
  if (!invoice || invoice.details.companyId !== issue.companyId) return refuse(notFound('invoice_not_found'));
  const split = requestedCreditSplit(request, invoice);
  if (!split.ok) return split;
  const { balance } = invoice;
  const facts = {
    invoiceTotalKobo: balance.totalKobo,
    earlierCreditNotesKobo: balance.creditNotesKobo ?? 0,
    amountDueKobo: balance.amountDueKobo,
    voided: balance.deletedAt !== null,
  };
  const effect = decideCreditNote(facts, split.value.totalKobo, request.items === undefined ? 'amount' : 'items');
  if (!effect.ok) return effect;
  const note = creditNoteOf(invoice, request, issue, { split: split.value, effect: effect.value });
  return accept({ note, balance: creditedBalance(balance, note, issue.now) });
}

function creditNoteOf(
  invoice: Invoice,
  request: CreditNoteRequest,
  issue: CreditNoteIssue,
  decided: { split: TaxSplit; effect: CreditNoteEffect },
): CreditNote {
  const { details } = invoice;
  const { split } = decided;
  return {
    id: issue.id,
    number: formatDocumentNumber(CREDIT_NOTE_PREFIX, issue.lastNumber + 1),
    companyId: details.companyId,
    clientId: details.clientId,
    invoiceId: details.id,
    referenceCode: details.referenceCode,
    ...(details.number === undefined ? {} : { invoiceNumber: details.number }),
    reason: request.reason,
    currency: details.currency,
    vatMode: invoiceTaxOf(invoice).vat.mode,
    subtotalKobo: split.subtotalKobo,
    discountTotalKobo: split.discountTotalKobo,
    taxTotalKobo: split.taxTotalKobo,
    totalKobo: split.totalKobo,
    taxes: split.taxes,
    lines: (request.items ?? []).map((line, index) => ({
      name: line.item,
      description: line.description,
      quantity: line.quantity,
      unitCostKobo: line.unit_cost,
      discountKobo: split.lines[index]!.discountKobo,
      tax: split.lines[index]!.tax,
      netKobo: split.lines[index]!.netKobo,
    })),
    effect: decided.effect,
    issueDate: toEpochSeconds(issue.today),
    createdAt: issue.now,
  };
}

/**
 * The invoice's balance after the credit note: less due by what it took off (`paid` when nothing is left), its total
 * counted against the next one's cap, a new version.
 */
export function creditedBalance(balance: InvoiceBalance, note: CreditNote, now: string): InvoiceBalance {
  const creditedKobo = (balance.creditedKobo ?? 0) + note.effect.amountDueReductionKobo;
  const after = { ...balance, creditedKobo, creditNotesKobo: (balance.creditNotesKobo ?? 0) + note.totalKobo };
  const paymentStatus = paymentStatusOf(balance.totalKobo, balance.amountPaidKobo, creditedKobo);
  const settles = paymentStatus === 'paid' && balance.paymentStatus !== 'paid';
  return {
    ...after,
    amountDueKobo: amountDueOf(after, balance.amountPaidKobo),
    paymentStatus,
    paidAt: settles ? now : balance.paidAt,
    version: balance.version + 1,
    updatedAt: now,
  };
}
