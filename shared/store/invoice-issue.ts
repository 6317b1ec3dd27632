/**
 * What an invoice was issued with, on its body item (docs/tax.md; docs/data-design.md "Document numbers"): its number, issue
 * date, notes and terms, the VAT setting it was created with and its split, and each line's discount, tax category and
 * net. Every attribute is absent on invoices created before it existed; the domain reads their absence
 * (domain/invoice.ts `invoiceTaxOf`).
 */
import type { InvoiceDetails, InvoiceLine, InvoiceTax } from '../domain/invoice.ts';
import { TAX_CATEGORIES, type TaxCategory, type TaxEntry, VAT_MODES, type VatMode } from '../domain/tax.ts';
import type { Item } from './items.ts';

type IssueFields = Pick<InvoiceDetails, 'number' | 'issueDate' | 'notes' | 'terms' | 'tax' | 'inTaxReport'>;

export function invoiceIssueAttributes(details: IssueFields): Item {
  const { tax } = details;
  return {
    ...(details.number === undefined ? {} : { number: details.number }),
    ...(details.issueDate === undefined ? {} : { issue_date: details.issueDate }),
    ...(details.notes === undefined ? {} : { notes: details.notes }),
    ...(details.terms === undefined ? {} : { terms: details.terms }),
    ...(tax === undefined ? {} : { tax: taxAttributes(tax) }),
    ...(details.inTaxReport ? { in_tax_report: true } : {}),
  };
}

function taxAttributes(tax: InvoiceTax): Item {
  return {
    vat_mode: tax.vat.mode,
    vat_rate: tax.vat.rateUnits,
    subtotal: tax.subtotalKobo,
    discount_total: tax.discountTotalKobo,
    tax_total: tax.taxTotalKobo,
    taxes: tax.taxes.map((entry) => ({
      category: entry.category,
      rate: entry.rate,
      taxable: entry.taxableKobo,
      amount: entry.amountKobo,
    })),
  };
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function invoiceIssueFromItem(item: Item): IssueFields {
  const fields: IssueFields = {};
  const number = textOf(item.number);
  if (number !== undefined) fields.number = number;
  if (typeof item.issue_date === 'number') fields.issueDate = item.issue_date;
  const notes = textOf(item.notes);
  if (notes !== undefined) fields.notes = notes;
  const terms = textOf(item.terms);
  if (terms !== undefined) fields.terms = terms;
  if (item.tax && typeof item.tax === 'object') fields.tax = taxFromItem(item.tax as Item);
  if (item.in_tax_report === true) fields.inTaxReport = true;
  return fields;
}

const vatModeOf = (value: unknown): VatMode => VAT_MODES.find((mode) => mode === value) ?? 'off';
const categoryOf = (value: unknown): TaxCategory => TAX_CATEGORIES.find((category) => category === value) ?? 'standard';

function taxFromItem(tax: Item): InvoiceTax {
  const taxes = Array.isArray(tax.taxes) ? (tax.taxes as Item[]) : [];
  return {
    vat: { mode: vatModeOf(tax.vat_mode), rateUnits: Number(tax.vat_rate ?? 0) },
    subtotalKobo: Number(tax.subtotal),
    discountTotalKobo: Number(tax.discount_total ?? 0),
    taxTotalKobo: Number(tax.tax_total ?? 0),
    taxes: taxes.map(
      (entry): TaxEntry => ({
        name: 'VAT',
        category: categoryOf(entry.category),
        rate: String(entry.rate),
        taxableKobo: Number(entry.taxable),
        amountKobo: Number(entry.amount),
      }),
    ),
  };
}

/** A line's discount, tax category and net, when the invoice has them. */
export function lineTaxAttributes(line: InvoiceLine): Item {
  if (line.netKobo === undefined) return {};
  return { discount: line.discountKobo ?? 0, tax: line.tax ?? 'standard', net: line.netKobo };
}

export function lineTaxFromItem(line: Item): Pick<InvoiceLine, 'discountKobo' | 'tax' | 'netKobo'> {
  if (typeof line.net !== 'number') return {};
  return { discountKobo: Number(line.discount ?? 0), tax: categoryOf(line.tax), netKobo: line.net };
}
