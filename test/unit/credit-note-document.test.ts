/**
 * What a credit note's PDF shows (shared/render/credit-note-document.ts, docs/tax.md "Its documents"): the invoice it
 * corrects, its lines or none (by amount), the invoice's split rows on the credit note's own amounts, and where the
 * credit went.
 */
import { describe, expect, it } from 'vitest';
import { type CreditNoteRequest, issueCreditNote } from '../../shared/domain/credit-note-record.ts';
import type { Invoice } from '../../shared/domain/invoice.ts';
import { creditNoteDocument } from '../../shared/render/credit-note-document.ts';
import { invoiceOf, MERCHANT } from '../support/ubl-invoices.ts';

const TODAY = { year: 2030, month: 11, day: 20 };

function documentOf(invoice: Invoice, request: CreditNoteRequest) {
  const issue = { companyId: 7, id: 'cn_01', lastNumber: 0, today: TODAY, now: '2030-11-20 10:00:00' };
  const issued = issueCreditNote(invoice, request, issue);
  if (!issued.ok) throw issued.refusal;
  return creditNoteDocument({ note: issued.value.note, invoice, merchant: MERCHANT });
}

describe('creditNoteDocument', () => {
  it('by items: the lines, the invoice corrected, the split rows of its VAT basis and the total', () => {
    const invoice = invoiceOf(
      [
        { quantity: 2, unitCostKobo: 107_500, discountKobo: 0, tax: 'standard' },
        { quantity: 1, unitCostKobo: 50_000, discountKobo: 0, tax: 'exempt' },
      ],
      'inclusive',
    );
    const items = [
      { item: 'Chair', description: 'Black', quantity: 1, unit_cost: 107_500, discount: 0, tax: 'standard' as const },
      { item: 'Kit', description: '', quantity: 1, unit_cost: 50_000, discount: 0, tax: 'exempt' as const },
    ];
    const doc = documentOf(invoice, { reason: 'Returned', items });
    expect(doc.number).toBe('CN-000001');
    expect(doc.issued).toEqual({ text: '20 Nov 2030', iso: '2030-11-20' });
    expect(doc.invoice).toEqual({
      number: 'INV-000042',
      referenceCode: 'AB12CD34EF56GH78IJ90',
      issued: { text: '15 Nov 2030', iso: '2030-11-15' },
    });
    expect(doc.lines.map((line) => [line.name, line.quantity, line.lineTotal, line.taxLabel])).toEqual([
      ['Chair', '1', '₦1,075.00', undefined],
      ['Kit', '1', '₦500.00', 'Exempt from VAT'],
    ]);
    expect(doc.split).toEqual([
      { label: 'Subtotal (incl. VAT)', amount: '₦1,575.00' },
      { label: 'Included: VAT 7.5% on ₦1,000.00', amount: '₦75.00' },
      { label: 'Included: Exempt from VAT: ₦500.00', amount: '₦0.00' },
    ]);
    expect([doc.total, doc.appliedToInvoice, doc.creditedToClient]).toEqual(['₦1,575.00', '₦1,575.00', '₦0.00']);
    expect(doc.fileName).toBe('credit-note-CN-000001.pdf');
  });

  it('by amount: no lines (the PDF draws one row), VAT off: no split rows', () => {
    const invoice = invoiceOf([{ quantity: 1, unitCostKobo: 100_000, discountKobo: 0, tax: 'standard' }], 'off');
    const doc = documentOf(invoice, { reason: 'Goodwill', amount: 25_000 });
    expect(doc.lines).toEqual([]);
    expect(doc.split).toEqual([]);
    expect(doc.total).toBe('₦250.00');
    // Bill to as on the invoice: the person, then the company.
    expect([doc.client.name, doc.client.company]).toEqual(['Ada Obi', 'Obi Ventures']);
  });
});
