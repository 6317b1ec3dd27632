/**
 * Credit notes in the table (docs/tax.md "Credit notes"; docs/data-design.md "Credit notes"): each an immutable item in
 * its invoice's partition (`INVOICE#<ref>`, `CREDITNOTE#<number>`), and — when the invoice has a hosted page — a small
 * line in the page's partition (`HOSTED#<token>`), which the page's one Query reads with its receipts. Both are put in
 * the credit note's transaction, on condition they are new.
 */
import type { CreditNote, CreditNoteLine } from '../domain/credit-note-record.ts';
import type { Invoice } from '../domain/invoice.ts';
import type { Logo } from '../domain/logo.ts';
import { TAX_CATEGORIES, type TaxCategory, type TaxEntry, VAT_MODES, type VatMode } from '../domain/tax.ts';
import { accountLogoKey, logoFrom } from './account-logo.ts';
import { type Account, accountFromItem } from './accounts.ts';
import { batchGet, itemOf } from './batch.ts';
import { invoiceFrom, invoiceKeys } from './invoices.ts';
import type { Item } from './items.ts';
import { CREDIT_NOTE_PREFIX, keys } from './keys.ts';
import { queryAll } from './query-all.ts';
import { putNew, type TransactItem } from './write-executor.ts';

/** The puts of a new credit note: its item, and its line on the invoice's hosted page when it has one. */
export function newCreditNoteActions(table: string, note: CreditNote, hostedToken: string | undefined): TransactItem[] {
  const actions = [putNew(table, creditNoteItem(note))];
  if (hostedToken !== undefined)
    actions.push(
      putNew(table, {
        ...keys.hostedCreditNote(hostedToken, note.number),
        entity: 'hosted_credit_note',
        company_id: note.companyId,
        number: note.number,
        reason: note.reason,
        total: note.totalKobo,
        issue_date: note.issueDate,
      }),
    );
  return actions;
}

function creditNoteItem(note: CreditNote): Item {
  return {
    ...keys.creditNote(note.referenceCode, note.number),
    entity: 'credit_note',
    credit_note_id: note.id,
    number: note.number,
    company_id: note.companyId,
    client_id: note.clientId,
    invoice_id: note.invoiceId,
    reference_code: note.referenceCode,
    ...(note.invoiceNumber === undefined ? {} : { invoice_number: note.invoiceNumber }),
    reason: note.reason,
    currency: note.currency,
    vat_mode: note.vatMode,
    subtotal: note.subtotalKobo,
    discount_total: note.discountTotalKobo,
    tax_total: note.taxTotalKobo,
    total: note.totalKobo,
    taxes: note.taxes.map((entry) => ({
      category: entry.category,
      rate: entry.rate,
      taxable: entry.taxableKobo,
      amount: entry.amountKobo,
    })),
    lines: note.lines.map((line) => ({
      name: line.name,
      description: line.description,
      quantity: line.quantity,
      unit_cost: line.unitCostKobo,
      discount: line.discountKobo,
      tax: line.tax,
      net: line.netKobo,
    })),
    applied_to_invoice: note.effect.amountDueReductionKobo,
    credited_to_client: note.effect.clientCreditKobo,
    issue_date: note.issueDate,
    created_at: note.createdAt,
  };
}

const categoryOf = (value: unknown): TaxCategory => TAX_CATEGORIES.find((category) => category === value) ?? 'standard';
const vatModeOf = (value: unknown): VatMode => VAT_MODES.find((mode) => mode === value) ?? 'off';

/** A credit note as its item holds it (the read side of `newCreditNoteActions`, for the reads to come: its PDF, its UBL). */
export function creditNoteFromItem(item: Item): CreditNote {
  const taxes = (Array.isArray(item.taxes) ? (item.taxes as Item[]) : []).map(
    (entry): TaxEntry => ({
      name: 'VAT',
      category: categoryOf(entry.category),
      rate: String(entry.rate),
      taxableKobo: Number(entry.taxable),
      amountKobo: Number(entry.amount),
    }),
  );
  const lines = (Array.isArray(item.lines) ? (item.lines as Item[]) : []).map(
    (line): CreditNoteLine => ({
      name: String(line.name),
      description: String(line.description),
      quantity: Number(line.quantity),
      unitCostKobo: Number(line.unit_cost),
      discountKobo: Number(line.discount),
      tax: categoryOf(line.tax),
      netKobo: Number(line.net),
    }),
  );
  return {
    id: String(item.credit_note_id),
    number: String(item.number),
    companyId: Number(item.company_id),
    clientId: Number(item.client_id),
    invoiceId: Number(item.invoice_id),
    referenceCode: String(item.reference_code),
    ...(typeof item.invoice_number === 'string' ? { invoiceNumber: item.invoice_number } : {}),
    reason: String(item.reason),
    currency: String(item.currency),
    vatMode: vatModeOf(item.vat_mode),
    subtotalKobo: Number(item.subtotal),
    discountTotalKobo: Number(item.discount_total),
    taxTotalKobo: Number(item.tax_total),
    totalKobo: Number(item.total),
    taxes,
    lines,
    effect: {
      amountDueReductionKobo: Number(item.applied_to_invoice),
      clientCreditKobo: Number(item.credited_to_client),
    },
    issueDate: Number(item.issue_date),
    createdAt: String(item.created_at),
  };
}

/** A credit note with its invoice and account, as its PDF and e-invoice are made from them. */
export interface CreditNoteReading {
  note: CreditNote;
  invoice: Invoice;
  account: Account;
  /** The account's logo, when asked for (the PDF draws it) and there is one. */
  logo?: Logo | undefined;
}

/**
 * One of the account's credit notes by its invoice's reference code and its number, in one BatchGetItem (the invoice's
 * header and body, the account, the note, and the logo when `withLogo`): `invoice` undefined when the invoice is absent
 * or another account's, `note` undefined when the invoice has no credit note of that number.
 */
export async function findAccountCreditNote(
  companyId: number,
  referenceCode: string,
  number: string,
  withLogo: boolean,
): Promise<Partial<CreditNoteReading>> {
  const noteKey = keys.creditNote(referenceCode, number);
  const logoKeys = withLogo ? [accountLogoKey(companyId)] : [];
  const items = await batchGet([...invoiceKeys(referenceCode), keys.account(companyId), noteKey, ...logoKeys]);
  const invoice = invoiceFrom(items, referenceCode);
  const accountItem = itemOf(items, keys.account(companyId));
  if (!invoice || !accountItem || invoice.details.companyId !== companyId) return {};
  const noteItem = itemOf(items, noteKey);
  return {
    invoice,
    account: accountFromItem(accountItem),
    ...(noteItem ? { note: creditNoteFromItem(noteItem) } : {}),
    ...(withLogo ? { logo: logoFrom(items, companyId) } : {}),
  };
}

/** Every credit note of an invoice, read consistently (a void takes them into account: docs/tax.md "Tax report"). */
export async function queryCreditNotes(referenceCode: string): Promise<CreditNote[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.invoiceHeader(referenceCode).PK, ':prefix': CREDIT_NOTE_PREFIX },
  });
  return items.map(creditNoteFromItem);
}
