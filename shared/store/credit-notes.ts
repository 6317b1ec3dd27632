/**
 * Credit notes in the table (docs/tax.md "Credit notes"; docs/data-design.md "Credit notes"): each an immutable item in
 * its invoice's partition (`INVOICE#<ref>`, `CREDITNOTE#<number>`), and — when the invoice has a hosted page — a small
 * line in the page's partition (`HOSTED#<token>`), which the page's one Query reads with its receipts. Both are put in
 * the credit note's transaction, on condition they are new.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CreditNote, CreditNoteLine } from '../domain/credit-note-record.ts';
import { TAX_CATEGORIES, type TaxCategory, type TaxEntry, VAT_MODES, type VatMode } from '../domain/tax.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { CREDIT_NOTE_PREFIX, keys } from './keys.ts';
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

/** Every credit note of an invoice, read consistently (a void takes them into account: docs/tax.md "Tax report"). */
export async function queryCreditNotes(referenceCode: string): Promise<CreditNote[]> {
  const notes: CreditNote[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.invoiceHeader(referenceCode).PK, ':prefix': CREDIT_NOTE_PREFIX },
        ConsistentRead: true,
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    for (const item of result.Items ?? []) notes.push(creditNoteFromItem(item));
    after = result.LastEvaluatedKey;
  } while (after);
  return notes;
}
