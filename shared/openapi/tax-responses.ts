/**
 * The response fields of an invoice's documents and taxes (docs/tax.md), each declared once and spread into the
 * invoice, item, payment, summary and statement line schemas (responses.ts, report-responses.ts). All additive.
 */
import { TAX_CATEGORIES, VAT_MODES } from '../domain/tax.ts';
import { money, nullValue, object, ref, type Schema, string, unixDate } from './schema-builders.ts';

export const INVOICE_ITEM_TAX_FIELDS = {
  discount: money('Discount on the line (0.00 when none)'),
  tax: string('VAT category of the line', { enum: [...TAX_CATEGORIES] }),
  net: money('quantity × unit_cost − discount, without VAT (on a VAT-inclusive invoice: VAT taken out)'),
};

const TaxEntry = object('The VAT of one category of the invoice’s lines.', {
  name: string('`VAT`', { enum: ['VAT'] }),
  category: string('`standard`, `zero` (zero-rated) or `exempt`', { enum: [...TAX_CATEGORIES] }),
  rate: string('Rate in percent as when the invoice was created, shortest form ("7.5"; "0" for zero and exempt)'),
  taxable: money('Σ net of the lines of the category'),
  amount: money('VAT of the category: rate × taxable, rounded half-up to the kobo once per invoice'),
});

export const INVOICE_TAX_FIELDS = {
  number: nullValue('Gapless per-account number with the account prefix (`INV-000001`); null on older invoices'),
  issue_date: {
    ...unixDate('Issue date'),
    type: ['string', 'null'],
    description: 'Issue date (Unix seconds of 00:00 UTC of the date, as a string); null on older invoices',
  },
  vat_mode: string('The account’s VAT setting when the invoice was created', { enum: [...VAT_MODES] }),
  subtotal: money('Σ quantity × unit_cost, before discounts (VAT-inclusive invoices: without their VAT)'),
  discount_total: money('Σ of the lines’ discounts'),
  tax_total: money('Σ of `taxes[].amount`; total = subtotal − discount_total + tax_total'),
  taxes: { type: 'array', description: 'VAT by category; `[]` when VAT is off', items: ref('TaxEntry') },
  notes: string('Notes to the client, when given (≤ 2,000 characters)'),
  terms: string('Terms of the invoice, when given (≤ 2,000 characters)'),
};

export const INVOICE_TAX_OPTIONAL = ['notes', 'terms'] as const;

export const PAYMENT_TAX_FIELDS = {
  wht_amount: money(
    'Withholding tax the client deducted; the invoice was credited amount + wht_amount (0.00 when none)',
  ),
  wht_reference: string('The withholding tax receipt or certificate number; "" when none'),
};

export const SUMMARY_TAX_FIELDS = {
  wht_total: money('Withholding tax deducted on the non-reversed payments of the range'),
};

export const STATEMENT_LINE_TAX_FIELDS = {
  number: nullValue('The invoice’s number (`INV-000001`); null for invoices created before numbers'),
  subtotal: money('Invoice lines only: the subtotal of its debit'),
  discount: money('Invoice lines only: its discounts'),
  tax: money('Invoice lines only: its VAT; debit = subtotal − discount + tax'),
};

export const STATEMENT_LINE_TAX_OPTIONAL = ['subtotal', 'discount', 'tax'] as const;

export const TAX_RESPONSE_SCHEMAS = { TaxEntry } satisfies Record<string, Schema>;
