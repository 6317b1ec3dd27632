/**
 * The invoice as an e-invoice (docs/e-invoice.md "The API"): one read of the invoice and its account, then the pure
 * mapping decides the document (or refuses); the handler renders it, loading the UBL engine only then.
 */
import { visibleInvoice } from '../domain/invoice.ts';
import { notFound } from '../domain/refusal.ts';
import type { UblDocument } from '../render/ubl/document.ts';
import { decideUblInvoice } from '../render/ubl/from-invoice.ts';
import type { Account } from '../store/accounts.ts';
import { findAccountInvoiceWithAccount } from '../store/invoice-pages.ts';
import type { RequestContext } from './context.ts';

/** `GET /invoices/{reference_code}/ubl`: 404 `invoice_not_found` when absent or another account's. */
export async function accountInvoiceUbl(context: RequestContext, referenceCode: string): Promise<UblDocument> {
  const { companyId } = context.account;
  const found = await findAccountInvoiceWithAccount(companyId, referenceCode);
  const visible = visibleInvoice(found?.invoice, companyId);
  if (!visible.ok || !found) throw notFound('invoice_not_found');
  const decision = decideUblInvoice({ invoice: visible.value, merchant: ublMerchantOf(found.account) });
  if (!decision.ok) throw decision.refusal;
  return decision.value;
}

/** The seller of an account's e-invoices and credit notes: its name, time zone, profile and e-invoicing service id. */
export const ublMerchantOf = (account: Account) => ({
  name: account.name,
  timeZone: account.timeZone,
  profile: account.profile,
  einvoiceServiceId: account.einvoiceServiceId,
});
