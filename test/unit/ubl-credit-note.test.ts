/**
 * A credit note as an e-invoice (shared/render/ubl/from-credit-note.ts, docs/e-invoice.md "From a credit note"): the
 * UBL CreditNote the mapping builds renders, passes the UBL content models and the EN 16931 / Peppol rules
 * (test/support/ubl-rules.ts, which read the CreditNote namespace as the Invoice one), names the invoice it credits,
 * and shows the totals the credit note was issued with — by items and by amount, on each VAT basis.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CreditNote, type CreditNoteRequest, issueCreditNote } from '../../shared/domain/credit-note-record.ts';
import type { Invoice } from '../../shared/domain/invoice.ts';
import { formatKobo } from '../../shared/domain/money.ts';
import { TAX_CATEGORIES, type VatMode } from '../../shared/domain/tax.ts';
import { renderUbl } from '../../shared/render/engines.ts';
import { ublCreditNoteDocument } from '../../shared/render/ubl/from-credit-note.ts';
import { invoiceOf, type LineSpec, MERCHANT } from '../support/ubl-invoices.ts';
import { fatalIds, readUbl, validateUbl } from '../support/ubl-validation.ts';

const EM_FINDINGS = ['PEPPOL-EN16931-CL008', 'PEPPOL-EN16931-CL008'];
const TODAY = { year: 2030, month: 11, day: 20 };

const MIXED: LineSpec[] = [
  { quantity: 3, unitCostKobo: 150_050, discountKobo: 50, tax: 'standard' },
  { quantity: 1, unitCostKobo: 250_000, discountKobo: 0, tax: 'exempt' },
  { quantity: 2, unitCostKobo: 99_999, discountKobo: 1_000, tax: 'zero' },
];

function noteOn(invoice: Invoice, request: CreditNoteRequest): CreditNote {
  const issue = { companyId: 7, id: 'cn_01', lastNumber: 4, today: TODAY, now: '2030-11-20 10:00:00' };
  const issued = issueCreditNote(invoice, request, issue);
  if (!issued.ok) throw issued.refusal;
  return issued.value.note;
}

const byItems = (specs: LineSpec[]): CreditNoteRequest => ({
  reason: 'Goods returned',
  items: specs.map((spec, index) => ({
    item: `Item ${index + 1}`,
    description: '',
    quantity: spec.quantity,
    unit_cost: spec.unitCostKobo,
    discount: spec.discountKobo,
    tax: spec.tax,
  })),
});

async function renderedValid(note: CreditNote, invoice: Invoice, merchant = MERCHANT) {
  const xml = await renderUbl(ublCreditNoteDocument({ note, invoice, merchant }));
  const findings = validateUbl(xml);
  expect(fatalIds(findings), JSON.stringify(findings, null, 1)).toEqual(EM_FINDINGS);
  expect(findings.filter((f) => f.flag === 'warning')).toEqual([]);
  return readUbl(xml);
}

function expectTotals(read: (xpath: string) => string[], note: CreditNote): void {
  expect(read('/cn:CreditNote/cac:TaxTotal/cbc:TaxAmount')).toEqual([formatKobo(note.taxTotalKobo)]);
  expect(read('//cac:LegalMonetaryTotal/cbc:LineExtensionAmount')).toEqual([
    formatKobo(note.subtotalKobo - note.discountTotalKobo),
  ]);
  expect(read('//cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toEqual([formatKobo(note.totalKobo)]);
  expect(read('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toEqual([formatKobo(note.totalKobo)]);
}

describe('ublCreditNoteDocument', () => {
  it('a credit note by items on each VAT basis: a valid CreditNote with its lines and totals', async () => {
    for (const mode of ['exclusive', 'inclusive', 'off'] as const) {
      const invoice = invoiceOf(MIXED, mode);
      const note = noteOn(invoice, byItems(MIXED.slice(0, 2)));
      const read = await renderedValid(note, invoice);
      expect(read('/cn:CreditNote/(cbc:ID, cbc:CreditNoteTypeCode, cbc:IssueDate)')).toEqual([
        'CN-000005',
        '2030-11-20',
        '381',
      ]);
      expect(read('/cn:CreditNote/cac:BillingReference/cac:InvoiceDocumentReference/(cbc:ID, cbc:IssueDate)')).toEqual([
        'INV-000042',
        '2030-11-15',
      ]);
      expect(read('/cn:CreditNote/cbc:Note')).toEqual(['Goods returned']);
      expect(read('/*/cac:CreditNoteLine/cbc:CreditedQuantity')).toEqual(['3', '1']);
      expect(read('/*/cac:InvoiceLine')).toEqual([]);
      expect(read('//cac:PaymentMeans')).toEqual([]);
      const categories = read('/*/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID');
      expect(categories).toEqual(mode === 'off' ? ['O'] : ['S', 'E']);
      expectTotals(read, note);
    }
  });

  it('a credit note by amount: one line per VAT category the amount was split over, the split’s own VAT', async () => {
    for (const mode of ['exclusive', 'inclusive', 'off'] as const) {
      const invoice = invoiceOf(MIXED, mode);
      const note = noteOn(invoice, { reason: 'Goodwill', amount: 123_457 });
      const read = await renderedValid(note, invoice);
      expect(read('/*/cac:CreditNoteLine/cbc:CreditedQuantity')).toEqual(mode === 'off' ? ['1'] : ['1', '1', '1']);
      expect(read('/*/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toEqual(
        mode === 'off' ? ['O'] : ['S', 'Z', 'E'],
      );
      expectTotals(read, note);
    }
    const single = invoiceOf([MIXED[0]!], 'exclusive');
    const one = await renderedValid(noteOn(single, { reason: 'Goodwill', amount: 10_750 }), single);
    expect(one('/*/cac:CreditNoteLine/cac:Item/cbc:Name')).toEqual(['Goodwill']);
    expect(one('/*/cac:TaxTotal/cbc:TaxAmount')).toEqual(['7.50']);
  });

  it('carries its own IRN (its number, the service id, its issue date), none without a service id', async () => {
    const invoice = invoiceOf(MIXED, 'exclusive');
    const note = noteOn(invoice, { reason: 'Goodwill', amount: 5_000 });
    const read = await renderedValid(note, invoice);
    expect(read('/*/cac:AdditionalDocumentReference/cbc:ID')).toEqual(['CN000005-94ND90NR-20301120']);
    const without = await renderedValid(note, invoice, { ...MERCHANT, einvoiceServiceId: undefined });
    expect(without('/*/cac:AdditionalDocumentReference/cbc:ID')).toEqual([]);
  });

  it('any credit note the rules accept is a valid CreditNote with its total (property)', async () => {
    const line = fc.record({
      quantity: fc.integer({ min: 1, max: 50 }),
      unitCostKobo: fc.integer({ min: 1, max: 5_000_000 }),
      tax: fc.constantFrom(...TAX_CATEGORIES),
    });
    const specs = fc
      .array(line, { minLength: 1, maxLength: 4 })
      .map((lines) => lines.map((l) => ({ ...l, discountKobo: 0 })));
    const request = fc.oneof(
      fc.constant<'items'>('items'),
      fc.integer({ min: 1, max: 1_000_000 }).map((permille) => ({ permille })),
    );
    await fc.assert(
      fc.asyncProperty(
        specs,
        fc.constantFrom<VatMode>('off', 'exclusive', 'inclusive'),
        request,
        async (lines, mode, by) => {
          const invoice = invoiceOf(lines, mode);
          const amount =
            by === 'items' ? undefined : Math.max(1, Math.floor((invoice.balance.totalKobo * by.permille) / 1_000_000));
          const note = noteOn(invoice, amount === undefined ? byItems(lines) : { reason: 'Credit', amount });
          expectTotals(await renderedValid(note, invoice), note);
        },
      ),
      { numRuns: 25 },
    );
  });
});
