/**
 * The e-invoice route (docs/e-invoice.md "The API"): `GET /invoices/{reference_code}/ubl` answers the invoice as UBL
 * XML that passes the UBL content models and the EN 16931 / Peppol rules (test/support/ubl-rules.ts), with its number,
 * its IRN once the account has a service id, and the totals the API shows; another account's invoice is 404.
 */
import { describe, expect, it } from 'vitest';
import { clearAuthCache } from '../../shared/http/auth.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { EINVOICE_ITEMS, einvoicingAccount } from '../support/accounts.ts';
import { call, createInvoice, newAccount } from '../support/api.ts';
import { fatalIds, readUbl, validateUbl } from '../support/ubl-validation.ts';

/** Neither party has a Peppol identifier: each e-mail endpoint (`EM`) is one CL008 (docs/e-invoice.md "Endpoints"). */
const EM_FINDINGS = ['PEPPOL-EN16931-CL008', 'PEPPOL-EN16931-CL008'];

const ubl = (key: string, referenceCode: string) =>
  call('invoice-ubl', { key, pathParameters: { reference_code: referenceCode } });

describe('GET /invoices/{reference_code}/ubl', () => {
  it('answers a valid UBL 2.1 invoice with the number, the IRN and the totals the invoice shows', async () => {
    const { key } = await einvoicingAccount();
    const invoice = await createInvoice(key, { items: EINVOICE_ITEMS, issue_date: '01/15/2026' });
    const result = await ubl(key, invoice.reference_code);
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(result.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice.reference_code}.xml"`);
    const findings = validateUbl(result.rawBody);
    expect(fatalIds(findings), JSON.stringify(findings, null, 1)).toEqual(EM_FINDINGS);
    const read = readUbl(result.rawBody);
    expect(read('/*/cbc:ID')).toEqual([invoice.number]);
    expect(read('/*/cbc:IssueDate')).toEqual(['2026-01-15']);
    expect(read('/*/cac:AdditionalDocumentReference/cbc:ID')).toEqual([
      `${invoice.number.replace(/[^A-Za-z0-9]/g, '')}-94ND90NR-20260115`,
    ]);
    expect(read('//cac:AccountingSupplierParty//cac:PartyTaxScheme/cbc:CompanyID')).toEqual(['NG12345678-0001']);
    expect(read('//cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount')).toEqual([invoice.total]);
    expect(read('/*/cac:TaxTotal/cbc:TaxAmount')).toEqual([invoice.tax_total]);
    expect(read('/*/cac:InvoiceLine')).toHaveLength(3);
  });

  it('carries no IRN without a service id, and a VAT-off invoice is valid as not subject to VAT', async () => {
    const { key, account } = await newAccount();
    await updateAccount(account.companyId, { profile: { email: 'billing@plain.example', taxId: '87654321-0001' } });
    clearAuthCache();
    const invoice = await createInvoice(key);
    const result = await ubl(key, invoice.reference_code);
    expect(result.status).toBe(200);
    expect(fatalIds(validateUbl(result.rawBody))).toEqual(EM_FINDINGS);
    const read = readUbl(result.rawBody);
    expect(read('/*/cac:AdditionalDocumentReference/cbc:ID')).toEqual([]);
    expect(read('//cac:ClassifiedTaxCategory/cbc:ID')).toEqual(['O']);
  });

  it("is 404 for another account's invoice or an unknown one, 401 without a key", async () => {
    const { key } = await einvoicingAccount();
    const other = await einvoicingAccount();
    const invoice = await createInvoice(key);
    const foreign = await ubl(other.key, invoice.reference_code);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('invoice_not_found');
    expect((await ubl(key, 'NOSUCHINVOICE0000000')).status).toBe(404);
    expect((await call('invoice-ubl', { pathParameters: { reference_code: invoice.reference_code } })).status).toBe(
      401,
    );
  });

  it('is 422 einvoice_incomplete naming what the account lacks, and 409 for a voided invoice', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const incomplete = await ubl(key, invoice.reference_code);
    expect(incomplete.status).toBe(422);
    expect(incomplete.body.code).toBe('einvoice_incomplete');
    expect(incomplete.body.errors.map((error: { field: string }) => error.field)).toEqual([
      'account.email',
      'account.tax_id',
    ]);
    const voidable = await einvoicingAccount();
    const voided = await createInvoice(voidable.key);
    const deleted = await call('delete-invoice', {
      key: voidable.key,
      pathParameters: { reference_code: voided.reference_code },
    });
    expect(deleted.status).toBe(200);
    expect((await ubl(voidable.key, voided.reference_code)).status).toBe(409);
  });
});
