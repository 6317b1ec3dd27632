/**
 * An invoice as an e-invoice (shared/render/ubl/from-invoice.ts, docs/e-invoice.md "From an invoice"): what the
 * mapping builds renders, passes the UBL content models and the EN 16931 / Peppol rules (test/support/ubl-rules.ts),
 * and shows the invoice's number, IRN and the totals the API computed for it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../shared/domain/invoice.ts';
import { formatKobo } from '../../shared/domain/money.ts';
import { TAX_CATEGORIES, type VatMode } from '../../shared/domain/tax.ts';
import { renderUbl } from '../../shared/render/engines.ts';
import { ublInvoiceDocument } from '../../shared/render/ubl/from-invoice.ts';
import { invoiceOf, type LineSpec, MERCHANT } from '../support/ubl-invoices.ts';
import { fatalIds, readUbl, validateUbl } from '../support/ubl-validation.ts';

/** Both parties have no Peppol identifier: their e-mail is their endpoint (`EM`), one CL008 each (docs/e-invoice.md). */
const EM_FINDINGS = ['PEPPOL-EN16931-CL008', 'PEPPOL-EN16931-CL008'];

async function renderedValid(invoice: Invoice, merchant = MERCHANT) {
  const xml = await renderUbl(ublInvoiceDocument({ invoice, merchant }));
  const findings = validateUbl(xml);
  expect(fatalIds(findings), JSON.stringify(findings, null, 1)).toEqual(EM_FINDINGS);
  expect(findings.filter((f) => f.flag === 'warning')).toEqual([]);
  return readUbl(xml);
}

const MIXED: LineSpec[] = [
  { quantity: 3, unitCostKobo: 150_050, discountKobo: 50, tax: 'standard' },
  { quantity: 1, unitCostKobo: 250_000, discountKobo: 0, tax: 'exempt' },
  { quantity: 2, unitCostKobo: 99_999, discountKobo: 1_000, tax: 'zero' },
];

describe('ublInvoiceDocument', () => {
  it('maps an invoice with VAT on each basis to a valid e-invoice whose totals are the invoice’s', async () => {
    for (const mode of ['exclusive', 'inclusive', 'off'] as const) {
      const invoice = invoiceOf(MIXED, mode, 100_000);
      const read = await renderedValid(invoice);
      expect(read('/*/cbc:ID')).toEqual(['INV-000042']);
      expect(read('/*/cbc:IssueDate')).toEqual(['2030-11-15']);
      expect(read('/*/cbc:DueDate')).toEqual(['2030-12-30']);
      expect(read('//cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toEqual([formatKobo(invoice.balance.totalKobo)]);
      expect(read('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toEqual([formatKobo(invoice.balance.amountDueKobo)]);
      expect(read('/*/cac:TaxTotal/cbc:TaxAmount')).toEqual([formatKobo(invoice.details.tax!.taxTotalKobo)]);
    }
  });

  it('writes the IRN from the number, the service id and the issue date, and none without a service id', async () => {
    const invoice = invoiceOf(MIXED, 'exclusive');
    const read = await renderedValid(invoice);
    expect(read('/*/cac:AdditionalDocumentReference/cbc:ID')).toEqual(['INV000042-94ND90NR-20301115']);
    const without = await renderedValid(invoice, { ...MERCHANT, einvoiceServiceId: undefined });
    expect(without('/*/cac:AdditionalDocumentReference/cbc:ID')).toEqual([]);
  });

  it('names the parties, the TIN with NG, the payee account, the notes and the terms', async () => {
    const read = await renderedValid(invoiceOf(MIXED, 'exclusive'));
    expect(read('//cac:AccountingSupplierParty//cbc:RegistrationName')).toEqual(['Acme Trading Ltd']);
    expect(read('//cac:AccountingSupplierParty//cac:PartyTaxScheme/cbc:CompanyID')).toEqual(['NG12345678-0001']);
    expect(read('//cac:AccountingCustomerParty//cbc:RegistrationName')).toEqual(['Obi Ventures']);
    expect(read('//cac:AccountingCustomerParty//cac:Country/cbc:IdentificationCode')).toEqual(['NG']);
    expect(read('//cac:PayeeFinancialAccount/cbc:ID')).toEqual(['1012345678']);
    expect(read('/*/cbc:Note')).toEqual(['Thank you for your business.']);
    expect(read('//cac:PaymentTerms/cbc:Note')).toEqual(['Net 45.']);
  });

  it('any invoice the tax rules accept is a valid e-invoice with the same total (property)', async () => {
    const line = fc.record({
      quantity: fc.integer({ min: 1, max: 500 }),
      unitCostKobo: fc.integer({ min: 1, max: 50_000_000 }),
      discountPercent: fc.integer({ min: 0, max: 100 }),
      tax: fc.constantFrom(...TAX_CATEGORIES),
    });
    const lines = fc.array(line, { minLength: 1, maxLength: 6 }).map((specs) =>
      specs.map(({ discountPercent, ...spec }) => ({
        ...spec,
        discountKobo: Math.floor((spec.quantity * spec.unitCostKobo * discountPercent) / 100),
      })),
    );
    await fc.assert(
      fc.asyncProperty(lines, fc.constantFrom<VatMode>('off', 'exclusive', 'inclusive'), async (specs, mode) => {
        const invoice = invoiceOf(specs, mode);
        const read = await renderedValid(invoice);
        expect(read('//cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toEqual([
          formatKobo(invoice.balance.totalKobo),
        ]);
      }),
      { numRuns: 25 },
    );
  });
});
