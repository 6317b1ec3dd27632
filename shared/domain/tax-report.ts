/**
 * The tax report (docs/tax.md "Tax report"), pure: what each document adds to its day's tax row, and a period's report
 * as the sum of its day rows. Invoices count on their issue day, credit notes (negative) on theirs, withholding tax on
 * its payment's transaction date. A void or a reversal never rewrites an earlier day: it is a reversing entry on the day
 * it happened, so the report of a closed period stays what it was (docs/decisions.md "Tax report").
 */
import type { CreditNote } from './credit-note-record.ts';
import type { Invoice } from './invoice.ts';
import type { PaymentRecord } from './payment-record.ts';
import type { TaxEntry, VatMode } from './tax.ts';

/** Standard-rated sales at one rate: their net (after discounts, without VAT) and their VAT. Kobo. */
export interface RateAmounts {
  taxableKobo: number;
  vatKobo: number;
}

/**
 * What a day (or a period) of documents adds up to. `standard` is keyed by the rate in ten-thousandths of a percent
 * (domain/tax.ts), as a string: an account may change its rate, and an invoice keeps the rate it was created with.
 */
export interface TaxFigures {
  standard: Record<string, RateAmounts>;
  zeroRatedKobo: number;
  exemptKobo: number;
  /** Invoices of an account with VAT `off`: outside VAT, their net only. */
  outsideVatKobo: number;
  discountKobo: number;
  /** Withholding tax deducted by clients from payments. */
  whtKobo: number;
  invoices: number;
  creditNotes: number;
  voids: number;
  whtPayments: number;
  whtReversals: number;
}

export const noTaxFigures = (): TaxFigures => ({
  standard: {},
  zeroRatedKobo: 0,
  exemptKobo: 0,
  outsideVatKobo: 0,
  discountKobo: 0,
  whtKobo: 0,
  invoices: 0,
  creditNotes: 0,
  voids: 0,
  whtPayments: 0,
  whtReversals: 0,
});

/** A document's split as the report reads it: an invoice's or a credit note's. */
export interface TaxedDocument {
  mode: VatMode;
  /** The rate the document was taxed at (the invoice's, for a credit note). */
  rateUnits: number;
  taxes: readonly TaxEntry[];
  discountKobo: number;
  /** Subtotal − discounts + tax: with VAT `off` it is all outside VAT. */
  totalKobo: number;
}

/** `sign` × the document's amounts, no counts. */
function figuresOf(document: TaxedDocument, sign: 1 | -1): TaxFigures {
  const figures = noTaxFigures();
  figures.discountKobo = sign * document.discountKobo;
  if (document.mode === 'off') {
    figures.outsideVatKobo = sign * document.totalKobo;
    return figures;
  }
  for (const entry of document.taxes) {
    if (entry.category === 'zero') figures.zeroRatedKobo += sign * entry.taxableKobo;
    else if (entry.category === 'exempt') figures.exemptKobo += sign * entry.taxableKobo;
    else
      figures.standard[String(document.rateUnits)] = {
        taxableKobo: sign * entry.taxableKobo,
        vatKobo: sign * entry.amountKobo,
      };
  }
  return figures;
}

/** The report's view of an invoice's split (an invoice created before VAT: outside VAT, its total). */
export function invoiceDocument(invoice: Invoice): TaxedDocument {
  const { tax } = invoice.details;
  if (!tax) return { mode: 'off', rateUnits: 0, taxes: [], discountKobo: 0, totalKobo: invoice.balance.totalKobo };
  return {
    mode: tax.vat.mode,
    rateUnits: tax.vat.rateUnits,
    taxes: tax.taxes,
    discountKobo: tax.discountTotalKobo,
    totalKobo: invoice.balance.totalKobo,
  };
}

/** The report's view of a credit note of `invoice` (taxed at the invoice's rate). */
export const creditNoteDocument = (note: CreditNote, invoice: Invoice): TaxedDocument => ({
  mode: note.vatMode,
  rateUnits: invoice.details.tax?.vat.rateUnits ?? 0,
  taxes: note.taxes,
  discountKobo: note.discountTotalKobo,
  totalKobo: note.totalKobo,
});

/** An issued invoice adds its amounts to its issue day. */
export const invoiceIssuedTax = (invoice: Invoice): TaxFigures => ({
  ...figuresOf(invoiceDocument(invoice), 1),
  invoices: 1,
});

/** A credit note takes its amounts off its issue day. */
export const creditNoteTax = (note: TaxedDocument): TaxFigures => ({ ...figuresOf(note, -1), creditNotes: 1 });

/**
 * A void takes off what the invoice still counted for — its amounts less its credit notes' — on the void day. An
 * invoice issued before tax rows were kept (`inTaxReport` unset) was never counted: its void changes nothing.
 */
export function invoiceVoidedTax(invoice: Invoice, creditNotes: readonly TaxedDocument[]): TaxFigures | undefined {
  if (invoice.details.inTaxReport !== true) return undefined;
  const left = sumTaxFigures([figuresOf(invoiceDocument(invoice), 1), ...creditNotes.map((n) => figuresOf(n, -1))]);
  return { ...negated(left), voids: 1 };
}

/** A payment with tax withheld adds it to its transaction date (none: nothing to write). */
export function withholdingTax(payment: PaymentRecord): TaxFigures | undefined {
  if (!payment.whtKobo) return undefined;
  return { ...noTaxFigures(), whtKobo: payment.whtKobo, whtPayments: 1 };
}

/** Its reversal takes the tax off again, on the day of the reversal (only if it was counted). */
export function withholdingReversedTax(payment: PaymentRecord): TaxFigures | undefined {
  if (!payment.whtKobo || payment.inTaxReport !== true) return undefined;
  return { ...noTaxFigures(), whtKobo: -payment.whtKobo, whtReversals: 1 };
}

function negated(figures: TaxFigures): TaxFigures {
  const standard: Record<string, RateAmounts> = {};
  for (const [rate, amounts] of Object.entries(figures.standard))
    standard[rate] = { taxableKobo: -amounts.taxableKobo, vatKobo: -amounts.vatKobo };
  return {
    ...figures,
    standard,
    zeroRatedKobo: -figures.zeroRatedKobo,
    exemptKobo: -figures.exemptKobo,
    outsideVatKobo: -figures.outsideVatKobo,
    discountKobo: -figures.discountKobo,
    whtKobo: -figures.whtKobo,
  };
}

const COUNTED = [
  'zeroRatedKobo',
  'exemptKobo',
  'outsideVatKobo',
  'discountKobo',
  'whtKobo',
  'invoices',
  'creditNotes',
  'voids',
  'whtPayments',
  'whtReversals',
] as const;

/** The sum of day rows (any order, any number of shards): a period's figures. */
export function sumTaxFigures(rows: readonly TaxFigures[]): TaxFigures {
  const sum = noTaxFigures();
  for (const row of rows) {
    for (const name of COUNTED) sum[name] += row[name];
    for (const [rate, amounts] of Object.entries(row.standard)) {
      const into = (sum.standard[rate] ??= { taxableKobo: 0, vatKobo: 0 });
      into.taxableKobo += amounts.taxableKobo;
      into.vatKobo += amounts.vatKobo;
    }
  }
  return sum;
}

/** A period's report: its figures, the rates in increasing order (a rate whose amounts netted to nothing is left out). */
export interface TaxReport {
  rates: { rateUnits: number; taxableKobo: number; vatKobo: number }[];
  vatKobo: number;
  taxableKobo: number;
  figures: TaxFigures;
  /** Net sales of every category plus the VAT on them: Σ the documents' totals. */
  totalKobo: number;
}

export function taxReportOf(rows: readonly TaxFigures[]): TaxReport {
  const figures = sumTaxFigures(rows);
  const rates = Object.entries(figures.standard)
    .map(([rate, amounts]) => ({ rateUnits: Number(rate), ...amounts }))
    .filter((rate) => rate.taxableKobo !== 0 || rate.vatKobo !== 0)
    .sort((a, b) => a.rateUnits - b.rateUnits);
  const vatKobo = rates.reduce((sum, rate) => sum + rate.vatKobo, 0);
  const taxableKobo = rates.reduce((sum, rate) => sum + rate.taxableKobo, 0);
  const net = taxableKobo + figures.zeroRatedKobo + figures.exemptKobo + figures.outsideVatKobo;
  return { rates, vatKobo, taxableKobo, figures, totalKobo: net + vatKobo };
}
