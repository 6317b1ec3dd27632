/**
 * A credit note's documents (docs/tax.md "Credit notes"): `GET /invoices/{reference_code}/credit-notes/{number}/ubl`
 * answers a UBL CreditNote that passes the UBL content models and the EN 16931 / Peppol rules
 * (test/support/ubl-rules.ts), field by field the credit note the API issued; `…/pdf` answers its PDF, whose text
 * layer (pdftotext) reads the account, "Bill to", the number, the date, the invoice it corrects, the reason, the lines
 * or the amount, the tax split and the totals. Another account's invoice, an unknown number or another invoice's
 * number is 404.
 */
import { describe, expect, it } from 'vitest';
import { EINVOICE_ITEMS, einvoicingAccount } from '../support/accounts.ts';
import { call, createInvoice, newAccount } from '../support/api.ts';
import { pdfText } from '../support/pdf-text.ts';
import { fatalIds, readUbl, validateUbl } from '../support/ubl-validation.ts';

const EM_FINDINGS = ['PEPPOL-EN16931-CL008', 'PEPPOL-EN16931-CL008'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const document = (route: 'credit-note-ubl' | 'credit-note-pdf', key: string | undefined, ref: string, number: string) =>
  call(route, { ...(key ? { key } : {}), pathParameters: { reference_code: ref, number } });

async function creditNote(key: string, ref: string, body: Record<string, unknown>) {
  const result = await call('create-credit-note', { key, pathParameters: { reference_code: ref }, body });
  expect(result.status, result.rawBody).toBe(201);
  return result.body.data;
}

/** A note's `issue_date` (Unix seconds of its day) as YYYY-MM-DD and as the PDF writes it (`29 Nov 2026`). */
function dayOf(issueDate: string): { iso: string; text: string } {
  const date = new Date(Number(issueDate) * 1000);
  const text = `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  return { iso: date.toISOString().slice(0, 10), text };
}

const pdfOf = (result: { rawBody: string }) => pdfText(Buffer.from(result.rawBody, 'base64')).replace(/\s+/g, ' ');

describe('GET /invoices/{reference_code}/credit-notes/{number}/ubl', () => {
  it('answers a valid UBL CreditNote, field by field the credit note by items', async () => {
    const { key } = await einvoicingAccount();
    const invoice = await createInvoice(key, { items: EINVOICE_ITEMS, issue_date: '01/15/2026' });
    const note = await creditNote(key, invoice.reference_code, {
      reason: 'Rice returned',
      items: EINVOICE_ITEMS.slice(0, 2),
    });
    const result = await document('credit-note-ubl', key, invoice.reference_code, note.number);
    expect(result.status, result.rawBody).toBe(200);
    expect(result.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(result.headers['content-disposition']).toBe(`attachment; filename="credit-note-${note.number}.xml"`);
    const findings = validateUbl(result.rawBody);
    expect(fatalIds(findings), JSON.stringify(findings, null, 1)).toEqual(EM_FINDINGS);
    const read = readUbl(result.rawBody);
    const day = dayOf(note.issue_date);
    expect(read('/cn:CreditNote/cbc:ID')).toEqual([note.number]);
    expect(read('/cn:CreditNote/cbc:CreditNoteTypeCode')).toEqual(['381']);
    expect(read('/cn:CreditNote/cbc:IssueDate')).toEqual([day.iso]);
    expect(read('/cn:CreditNote/cbc:Note')).toEqual(['Rice returned']);
    expect(read('/*/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID')).toEqual([invoice.number]);
    expect(read('/*/cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate')).toEqual(['2026-01-15']);
    expect(read('/*/cac:AdditionalDocumentReference/cbc:ID')).toEqual([
      `${note.number.replace('-', '')}-94ND90NR-${day.iso.replaceAll('-', '')}`,
    ]);
    expect(read('//cac:AccountingSupplierParty//cac:PartyTaxScheme/cbc:CompanyID')).toEqual(['NG12345678-0001']);
    expect(read('//cac:AccountingSupplierParty//cbc:RegistrationName')).toEqual(['Adaeze Textiles Limited']);
    expect(read('//cac:AccountingCustomerParty//cbc:RegistrationName')).toEqual(['Ada Obi']);
    expect(read('/*/cac:CreditNoteLine/cbc:CreditedQuantity')).toEqual(['3', '2']);
    expect(read('/*/cac:CreditNoteLine/cac:Item/cbc:Name')).toEqual(['Design', 'Rice']);
    expect(read('/*/cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory/cbc:ID')).toEqual(['S', 'Z']);
    expect(read('/*/cac:TaxTotal/cac:TaxSubtotal/cbc:TaxAmount')).toEqual(
      note.taxes.map((entry: { amount: string }) => entry.amount),
    );
    expect(read('/*/cac:TaxTotal/cbc:TaxAmount')).toEqual([note.tax_total]);
    expect(read('//cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toEqual([note.total]);
    expect(read('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toEqual([note.total]);
  });

  it('a credit note by amount is one line; without VAT, one line not subject to VAT', async () => {
    const taxed = await einvoicingAccount();
    const single = await createInvoice(taxed.key);
    const byAmount = await creditNote(taxed.key, single.reference_code, { reason: 'Goodwill', amount: '1075.00' });
    const result = await document('credit-note-ubl', taxed.key, single.reference_code, byAmount.number);
    expect(fatalIds(validateUbl(result.rawBody))).toEqual(EM_FINDINGS);
    const read = readUbl(result.rawBody);
    expect(read('/*/cac:CreditNoteLine/cac:Item/cbc:Name')).toEqual(['Goodwill']);
    expect(read('/*/cac:CreditNoteLine/cac:Item/cac:ClassifiedTaxCategory/cbc:ID')).toEqual(['S']);
    expect(read('/*/cac:TaxTotal/cbc:TaxAmount')).toEqual([byAmount.tax_total]);
    expect(byAmount.tax_total).toBe('75.00');
    expect(read('//cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toEqual(['1075.00']);
    const plain = await einvoicingAccount('off');
    const invoice = await createInvoice(plain.key);
    const note = await creditNote(plain.key, invoice.reference_code, { reason: 'Goodwill', amount: '2500.00' });
    const off = await document('credit-note-ubl', plain.key, invoice.reference_code, note.number);
    expect(fatalIds(validateUbl(off.rawBody))).toEqual(EM_FINDINGS);
    const readOff = readUbl(off.rawBody);
    expect(readOff('//cac:ClassifiedTaxCategory/cbc:ID')).toEqual(['O']);
    expect(readOff('//cac:LegalMonetaryTotal/cbc:PayableAmount')).toEqual(['2500.00']);
  });

  it('is 422 einvoice_incomplete for an account without e-mail and tax id', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const note = await creditNote(key, invoice.reference_code, { reason: 'Goodwill', amount: '1.00' });
    const result = await document('credit-note-ubl', key, invoice.reference_code, note.number);
    expect([result.status, result.body.code]).toEqual([422, 'einvoice_incomplete']);
  });
});

describe('GET /invoices/{reference_code}/credit-notes/{number}/pdf', () => {
  it('draws the account, Bill to, the number, the date, the invoice, the reason, the lines and the split', async () => {
    const { key } = await einvoicingAccount();
    const invoice = await createInvoice(key, { items: EINVOICE_ITEMS, issue_date: '01/15/2026' });
    const note = await creditNote(key, invoice.reference_code, {
      reason: 'Rice returned',
      items: EINVOICE_ITEMS.slice(0, 2),
    });
    const result = await document('credit-note-pdf', key, invoice.reference_code, note.number);
    expect(result.status, result.rawBody).toBe(200);
    expect(result.headers['content-type']).toBe('application/pdf');
    expect(result.headers['content-disposition']).toBe(`inline; filename="credit-note-${note.number}.pdf"`);
    const text = pdfOf(result);
    for (const shown of [
      'Adaeze Textiles Limited',
      'CREDIT NOTE',
      'BILL TO Ada Obi',
      note.number,
      `Date ${dayOf(note.issue_date).text}`,
      `Corrects invoice ${invoice.number}`,
      'of 15 Jan 2026',
      'REASON Rice returned',
      'Design',
      'Rice',
      'Zero-rated',
      `VAT 7.5% on ₦${Number(note.taxes[0].taxable).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
      `Total credited ₦${Number(note.total).toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
    ])
      expect(text).toContain(shown);
  });

  it('a credit note by amount is one row crediting the invoice', async () => {
    const { key } = await einvoicingAccount('off');
    const invoice = await createInvoice(key);
    const note = await creditNote(key, invoice.reference_code, { reason: 'Late delivery', amount: '2500.00' });
    const text = pdfOf(await document('credit-note-pdf', key, invoice.reference_code, note.number));
    expect(text).toContain(`Credit on invoice ${invoice.number} 1 ₦2,500.00 ₦2,500.00`);
    expect(text).toContain('Total credited ₦2,500.00');
    expect(text).toContain('Applied to the invoice ₦2,500.00');
  });
});

describe('credit-note documents: isolation and unknown numbers', () => {
  it.each(['credit-note-ubl', 'credit-note-pdf'] as const)(
    "%s: another account's invoice, an unknown number, another invoice's note are 404; no key is 401",
    async (route) => {
      const { key } = await einvoicingAccount();
      const other = await einvoicingAccount();
      const invoice = await createInvoice(key);
      const second = await createInvoice(key);
      const note = await creditNote(key, invoice.reference_code, { reason: 'Goodwill', amount: '1.00' });
      const foreign = await document(route, other.key, invoice.reference_code, note.number);
      expect([foreign.status, foreign.body.code]).toEqual([404, 'invoice_not_found']);
      const unknown = await document(route, key, invoice.reference_code, 'CN-999999');
      expect([unknown.status, unknown.body.code]).toEqual([404, 'credit_note_not_found']);
      const elsewhere = await document(route, key, second.reference_code, note.number);
      expect([elsewhere.status, elsewhere.body.code]).toEqual([404, 'credit_note_not_found']);
      const malformed = await document(route, key, invoice.reference_code, 'cn-000001');
      expect([malformed.status, malformed.body.code]).toEqual([404, 'credit_note_not_found']);
      expect((await document(route, undefined, invoice.reference_code, note.number)).status).toBe(401);
    },
  );
});
