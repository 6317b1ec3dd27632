/**
 * docs/tax.md "Tax report": what each document adds to its day's tax row, and the report of any grouping of rows is
 * the sum of its documents — invoices less credit notes, voids reversing what their invoice still counted, withholding
 * tax less its reversals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../shared/domain/invoice.ts';
import type { PaymentRecord } from '../../shared/domain/payment-record.ts';
import {
  TAX_CATEGORIES,
  type TaxLineInput,
  taxInvoice,
  type VatMode,
  type VatSetting,
} from '../../shared/domain/tax.ts';
import {
  creditNoteTax,
  invoiceDocument,
  invoiceIssuedTax,
  invoiceVoidedTax,
  sumTaxFigures,
  type TaxedDocument,
  type TaxFigures,
  taxReportOf,
  withholdingReversedTax,
  withholdingTax,
} from '../../shared/domain/tax-report.ts';

/** An invoice as the report reads it: its split, its total, and whether it is counted in the rows. */
function invoiceOf(lines: TaxLineInput[], vat: VatSetting, counted = true): Invoice {
  const split = taxInvoice(lines, vat);
  if (!split.ok) throw new Error('the generated lines are valid');
  const { taxes, subtotalKobo, discountTotalKobo, taxTotalKobo, totalKobo } = split.value;
  return {
    details: {
      tax: { vat, subtotalKobo, discountTotalKobo, taxTotalKobo, taxes },
      ...(counted ? { inTaxReport: true } : {}),
    },
    balance: { totalKobo },
  } as unknown as Invoice;
}

/** A credit note of `invoice` for some of its lines, taxed as the invoice. */
function creditNoteOf(invoice: Invoice, lines: TaxLineInput[]): TaxedDocument & { taxKobo: number } {
  const vat = invoice.details.tax!.vat;
  const split = taxInvoice(lines, vat);
  if (!split.ok) throw new Error('the generated lines are valid');
  return {
    mode: vat.mode,
    rateUnits: vat.rateUnits,
    taxes: split.value.taxes,
    discountKobo: split.value.discountTotalKobo,
    totalKobo: split.value.totalKobo,
    taxKobo: split.value.taxTotalKobo,
  };
}

const payment = (whtKobo: number, counted = true) =>
  ({ whtKobo, ...(counted ? { inTaxReport: true } : {}) }) as unknown as PaymentRecord;

const line = (unitCostKobo: number, tax: TaxLineInput['tax'] = 'standard', discountKobo = 0): TaxLineInput => ({
  quantity: 1,
  unitCostKobo,
  tax,
  discountKobo,
});

const EXCLUSIVE: VatSetting = { mode: 'exclusive', rateUnits: 75_000 };

describe('tax day figures', () => {
  it('an invoice adds its split; a credit note takes its own off; the report nets them per rate', () => {
    const invoice = invoiceOf([line(100_000), line(50_000, 'zero'), line(30_000, 'exempt', 10_000)], EXCLUSIVE);
    const note = creditNoteOf(invoice, [line(20_000)]);
    const report = taxReportOf([invoiceIssuedTax(invoice), creditNoteTax(note)]);
    expect(report.rates).toEqual([{ rateUnits: 75_000, taxableKobo: 80_000, vatKobo: 7_500 - 1_500 }]);
    expect(report.figures).toMatchObject({ zeroRatedKobo: 50_000, exemptKobo: 20_000, discountKobo: 10_000 });
    expect(report.figures).toMatchObject({ invoices: 1, creditNotes: 1, voids: 0 });
    expect(report.totalKobo).toBe(invoice.balance.totalKobo - note.totalKobo);
  });

  it('VAT off is outside VAT: the total, no rate', () => {
    const invoice = invoiceOf([line(100_000, 'standard', 5_000)], { mode: 'off', rateUnits: 75_000 });
    const report = taxReportOf([invoiceIssuedTax(invoice)]);
    expect(report.rates).toEqual([]);
    expect(report.figures.outsideVatKobo).toBe(95_000);
    expect(report.totalKobo).toBe(95_000);
  });

  it('keeps each rate apart: an invoice keeps the rate it was created with', () => {
    const before = invoiceOf([line(100_000)], EXCLUSIVE);
    const after = invoiceOf([line(100_000)], { mode: 'exclusive', rateUnits: 100_000 });
    const report = taxReportOf([invoiceIssuedTax(after), invoiceIssuedTax(before)]);
    expect(report.rates.map((rate) => [rate.rateUnits, rate.vatKobo])).toEqual([
      [75_000, 7_500],
      [100_000, 10_000],
    ]);
  });

  it('a void reverses what its invoice still counted (less its credit notes); an uncounted invoice’s changes nothing', () => {
    const invoice = invoiceOf([line(100_000), line(40_000, 'exempt')], EXCLUSIVE);
    const note = creditNoteOf(invoice, [line(40_000, 'exempt')]);
    const voided = invoiceVoidedTax(invoice, [note])!;
    const report = taxReportOf([invoiceIssuedTax(invoice), creditNoteTax(note), voided]);
    expect(report.totalKobo).toBe(0);
    expect(report.vatKobo).toBe(0);
    expect(report.figures.exemptKobo).toBe(0);
    expect(report.figures).toMatchObject({ invoices: 1, creditNotes: 1, voids: 1 });
    expect(invoiceVoidedTax(invoiceOf([line(100_000)], EXCLUSIVE, false), [])).toBeUndefined();
  });

  it('withholding tax: a payment adds it, its reversal takes it off; none, or never counted, writes nothing', () => {
    const report = taxReportOf([withholdingTax(payment(5_000))!, withholdingReversedTax(payment(5_000))!]);
    expect(report.figures).toMatchObject({ whtKobo: 0, whtPayments: 1, whtReversals: 1 });
    expect(withholdingTax(payment(0))).toBeUndefined();
    expect(withholdingReversedTax(payment(5_000, false))).toBeUndefined();
  });
});

const lineArb = fc.record({
  quantity: fc.integer({ min: 1, max: 5 }),
  unitCostKobo: fc.integer({ min: 0, max: 5_000_000 }),
  tax: fc.constantFrom(...TAX_CATEGORIES),
  discountKobo: fc.constant(0),
});
const vatArb = fc.record({
  mode: fc.constantFrom<VatMode>('off', 'exclusive', 'inclusive'),
  rateUnits: fc.constantFrom(0, 50_000, 75_000, 100_000),
});
const documentArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 5 }),
  vat: vatArb,
  /** How many of its lines a credit note credits (0: none), and whether it is then voided. */
  credited: fc.nat({ max: 5 }),
  voided: fc.boolean(),
  whtKobo: fc.nat({ max: 100_000 }),
  reversed: fc.boolean(),
});

describe('the report is the sum of its documents (property)', () => {
  it('for any documents, in any order and grouping of rows', () => {
    fc.assert(
      fc.property(fc.array(documentArb, { maxLength: 12 }), fc.integer(), (documents, seed) => {
        const rows: TaxFigures[] = [];
        const expected = { total: 0, vat: 0, wht: 0, invoices: 0, notes: 0, voids: 0 };
        for (const document of documents) {
          const invoice = invoiceOf(document.lines, document.vat);
          rows.push(invoiceIssuedTax(invoice));
          expected.invoices += 1;
          const notes =
            document.credited > 0 ? [creditNoteOf(invoice, document.lines.slice(0, document.credited))] : [];
          for (const note of notes) rows.push(creditNoteTax(note));
          expected.notes += notes.length;
          const kept = document.voided ? 0 : 1;
          if (document.voided) rows.push(invoiceVoidedTax(invoice, notes)!);
          expected.voids += document.voided ? 1 : 0;
          const noteTotal = notes.reduce((sum, note) => sum + note.totalKobo, 0);
          const noteTax = notes.reduce((sum, note) => sum + note.taxKobo, 0);
          expected.total += kept * (invoice.balance.totalKobo - noteTotal);
          expected.vat += kept * ((invoice.details.tax?.taxTotalKobo ?? 0) - noteTax);
          const paid = withholdingTax(payment(document.whtKobo));
          if (paid) rows.push(paid);
          const reversed = document.reversed ? withholdingReversedTax(payment(document.whtKobo)) : undefined;
          if (reversed) rows.push(reversed);
          expected.wht += document.reversed ? 0 : document.whtKobo;
        }
        const grouped = groupRandomly(rows, seed);
        const report = taxReportOf(grouped);
        expect(report.totalKobo).toBe(expected.total);
        expect(report.vatKobo).toBe(expected.vat);
        expect(report.figures.whtKobo).toBe(expected.wht);
        expect(report.figures).toMatchObject({
          invoices: expected.invoices,
          creditNotes: expected.notes,
          voids: expected.voids,
        });
      }),
    );
  });

  it('an invoice’s document reads its split as the report counts it', () => {
    const invoice = invoiceOf([line(100_000)], EXCLUSIVE);
    expect(invoiceDocument(invoice)).toMatchObject({ mode: 'exclusive', rateUnits: 75_000, totalKobo: 107_500 });
  });
});

/** The rows summed in groups (as days and shards would hold them), in an order the seed picks. */
function groupRandomly(rows: TaxFigures[], seed: number): TaxFigures[] {
  const shuffled = [...rows].sort((a, b) => (hash(a, seed) % 7) - (hash(b, seed) % 7));
  const groups: TaxFigures[] = [];
  for (let i = 0; i < shuffled.length; i += 1 + (Math.abs(seed) % 3)) {
    groups.push(sumTaxFigures(shuffled.slice(i, i + 1 + (Math.abs(seed) % 3))));
  }
  return groups;
}

const hash = (figures: TaxFigures, seed: number) =>
  Math.abs(seed ^ (figures.outsideVatKobo + figures.zeroRatedKobo * 3 + figures.whtKobo * 7));
