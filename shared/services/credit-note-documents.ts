/**
 * A credit note's own documents (docs/tax.md "Credit notes"): its e-invoice (a UBL CreditNote) and its PDF. One read
 * of the note with its invoice and account, then the pure mapping; the handler renders, loading each engine only then.
 * 404 `invoice_not_found` for an unknown or another account's invoice, `credit_note_not_found` for a number the
 * invoice has no credit note of.
 */
import { notFound } from '../domain/refusal.ts';
import { type CreditNoteDocument, creditNoteDocument } from '../render/credit-note-document.ts';
import type { UblDocument } from '../render/ubl/document.ts';
import { decideUblCreditNote } from '../render/ubl/from-credit-note.ts';
import { type CreditNoteReading, findAccountCreditNote } from '../store/credit-notes.ts';
import type { RequestContext } from './context.ts';
import { ublMerchantOf } from './invoice-ubl.ts';

/** Which credit note: its invoice's reference code and its number. */
export interface CreditNoteAddress {
  referenceCode: string;
  number: string;
}

async function readCreditNote(
  context: RequestContext,
  { referenceCode, number }: CreditNoteAddress,
  withLogo: boolean,
): Promise<CreditNoteReading> {
  const found = await findAccountCreditNote(context.account.companyId, referenceCode, number, withLogo);
  if (!found.invoice || !found.account) throw notFound('invoice_not_found');
  if (!found.note) throw notFound('credit_note_not_found');
  return { note: found.note, invoice: found.invoice, account: found.account, logo: found.logo };
}

/** `GET /invoices/{reference_code}/credit-notes/{number}/ubl`: the model, or 422 `einvoice_incomplete`. */
export async function accountCreditNoteUbl(context: RequestContext, address: CreditNoteAddress): Promise<UblDocument> {
  const { note, invoice, account } = await readCreditNote(context, address, false);
  const decision = decideUblCreditNote({ note, invoice, merchant: ublMerchantOf(account) });
  if (!decision.ok) throw decision.refusal;
  return decision.value;
}

/** `GET /invoices/{reference_code}/credit-notes/{number}/pdf`: what the PDF shows. */
export async function accountCreditNoteDocument(
  context: RequestContext,
  address: CreditNoteAddress,
): Promise<CreditNoteDocument> {
  const { note, invoice, account, logo } = await readCreditNote(context, address, true);
  const merchant = { name: account.name, timeZone: account.timeZone, profile: account.profile };
  return creditNoteDocument({ note, invoice, merchant: logo ? { ...merchant, logo } : merchant });
}
