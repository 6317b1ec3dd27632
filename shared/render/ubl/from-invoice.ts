/**
 * An invoice as the e-invoice's model (docs/e-invoice.md "From an invoice"): the stored invoice, its account's name,
 * profile and e-invoicing service id, mapped onto `UblDocument` with no reading and no XML. The amounts are the
 * invoice's own inputs (quantities, unit costs, discounts, categories and the rate it was created with); the renderer
 * derives the totals from them with the same one rounding per rate.
 */
import type { CalendarDate } from '../../domain/dates.ts';
import { fromEpochSeconds, todayIn } from '../../domain/dates.ts';
import { invoiceIrn } from '../../domain/document-number.ts';
import { type Invoice, invoiceTaxOf, type LineFacts } from '../../domain/invoice.ts';
import type { MerchantProfile } from '../../domain/merchant-profile.ts';
import { formatPercent } from '../../domain/percent.ts';
import { accept, type Decision, type FieldError, Refusal, refuse } from '../../domain/refusal.ts';
import { type TaxCategory, UBL_TAX_CATEGORY, VAT_RATE_DECIMALS, type VatSetting } from '../../domain/tax.ts';
import type { UblAddress, UblDocument, UblLine, UblParty, UblPayeeAccount } from './document.ts';

/** Who the invoice is from, as the account says. */
export interface UblMerchant {
  name: string;
  timeZone: string;
  profile: MerchantProfile;
  /** The account's e-invoicing service id (`account:update --einvoice-service-id`); the IRN needs it. */
  einvoiceServiceId?: string | undefined;
}

export interface UblInvoiceInput {
  invoice: Invoice;
  merchant: UblMerchant;
}

/**
 * The invoice's e-invoice model; 409 `invoice_deleted` for a voided invoice (it is not a document a buyer may
 * account for), or 422 `einvoice_incomplete` naming what the document cannot do without: the
 * account's e-mail (its electronic address: it has no Peppol identifier) and tax id (a VAT or tax identifier is
 * required of the seller), and the client's e-mail.
 */
export function decideUblInvoice(input: UblInvoiceInput): Decision<UblDocument> {
  if (input.invoice.balance.deletedAt !== null)
    return refuse(
      new Refusal('invoice_deleted', 'This invoice was voided; it has no e-invoice.', [
        { code: 'invoice_deleted', field: 'reference_code', message: 'the invoice was voided' },
      ]),
    );
  const missing = missingForEInvoice(input);
  return missing.length === 0 ? accept(ublInvoiceDocument(input)) : refuse(incompleteEInvoice(missing));
}

/** 422 `einvoice_incomplete`, naming each thing missing. */
export function incompleteEInvoice(missing: FieldError[]): Refusal {
  const what = missing.map((error) => error.message).join('; ');
  return new Refusal('einvoice_incomplete', `The e-invoice cannot be made without ${what}.`, missing);
}

/** What an e-invoice of the invoice (or of a credit note on it) cannot do without. */
export function missingForEInvoice({ invoice, merchant }: UblInvoiceInput): FieldError[] {
  const missing: FieldError[] = [];
  if (!merchant.profile.email?.trim())
    missing.push({
      code: 'required',
      field: 'account.email',
      message: "the account's e-mail (account:update --email)",
    });
  if (!merchant.profile.taxId?.trim())
    missing.push({
      code: 'required',
      field: 'account.tax_id',
      message: "the account's tax id (account:update --tax-id)",
    });
  if (!invoice.details.client.email.trim())
    missing.push({ code: 'required', field: 'client.email', message: "the client's e-mail" });
  return missing;
}

/** The invoice's e-invoice model (`decideUblInvoice` first checks that the renderer can make it). */
export function ublInvoiceDocument({ invoice, merchant }: UblInvoiceInput): UblDocument {
  const { details, balance } = invoice;
  const tax = invoiceTaxOf(invoice);
  const number = details.number ?? String(details.id);
  const issueDate = issuedOn(invoice, merchant.timeZone);
  const payee = payeeAccountOf(merchant.profile);
  return {
    type: 'Invoice',
    number,
    issueDate,
    dueDate: fromEpochSeconds(details.dueDate),
    currency: details.currency,
    pricesIncludeVat: tax.vat.mode === 'inclusive',
    ...present('note', details.notes),
    ...present('paymentTerms', details.terms),
    ...(merchant.einvoiceServiceId ? { irn: invoiceIrn(number, merchant.einvoiceServiceId, issueDate) } : {}),
    supplier: supplierOf(merchant),
    customer: customerOf(invoice),
    ...(payee ? { payeeAccount: payee } : {}),
    ...(balance.amountPaidKobo > 0 ? { prepaidKobo: balance.amountPaidKobo } : {}),
    lines: tax.lines.map((line, index) => ublLine(index, line, tax.vat)),
  };
}

/** The issue date, or for an invoice created before issue dates the day it was created in the merchant's zone. */
export function issuedOn(invoice: Invoice, timeZone: string): CalendarDate {
  const { issueDate, createdAt } = invoice.details;
  return issueDate === undefined
    ? todayIn(timeZone, new Date(`${createdAt.replace(' ', 'T')}Z`))
    : fromEpochSeconds(issueDate);
}

export function ublLine(index: number, line: LineFacts, vat: VatSetting): UblLine {
  const description = line.description.trim();
  return {
    id: String(index + 1),
    name: line.name,
    ...(description && description !== line.name ? { description } : {}),
    quantity: line.quantity,
    unitPriceKobo: line.unitCostKobo,
    ...(line.discountKobo > 0 ? { discountKobo: line.discountKobo } : {}),
    ...categoryOf(line.tax, vat),
  };
}

/** `O` without a rate when the invoice was created with VAT off; else `S` at its rate, `Z` and `E` at 0. */
export function categoryOf(tax: TaxCategory, vat: VatSetting): Pick<UblLine, 'category' | 'ratePercent'> {
  if (vat.mode === 'off') return { category: UBL_TAX_CATEGORY.off };
  if (tax === 'standard')
    return { category: UBL_TAX_CATEGORY.standard, ratePercent: formatPercent(vat.rateUnits, VAT_RATE_DECIMALS) };
  return { category: UBL_TAX_CATEGORY[tax], ratePercent: '0' };
}

export function supplierOf({ name, profile }: UblMerchant): UblParty {
  return {
    name,
    ...present('tin', profile.taxId),
    address: addressOf(profile.address ?? ''),
    ...present('email', profile.email),
    ...present('phone', profile.phone),
  };
}

/** The client's company, else the person's name, else the e-mail address (a party must have a name). */
export function customerOf(invoice: Invoice): UblParty {
  const { client } = invoice.details;
  const person = `${client.firstName} ${client.lastName}`.trim();
  const name = client.name.trim() || person || client.email;
  return {
    name,
    address: addressOf(client.address),
    ...present('email', client.email),
    ...present('phone', client.phone),
  };
}

function addressOf(text: string): UblAddress {
  return {
    lines: text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  };
}

function payeeAccountOf(profile: MerchantProfile): UblPayeeAccount | undefined {
  if (!profile.accountNumber) return undefined;
  return {
    accountNumber: profile.accountNumber,
    ...present('accountName', profile.accountName),
    ...present('bank', profile.bankName),
  };
}

/** `{ [key]: value }` when the value is non-blank text, else nothing (the model leaves unknown fields out). */
export function present<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  const text = value?.trim();
  return text ? ({ [key]: text } as Record<K, string>) : {};
}
