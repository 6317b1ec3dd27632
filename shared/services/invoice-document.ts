/**
 * The invoice as its client sees it (shared/render/invoice-document.ts), read for the hosted page, the PDFs and the
 * mailer: the invoice, its account's profile, the account's today (overdue) and the invoice's hosted link.
 */
import { todayForOverdue } from '../clock.ts';
import type { Invoice } from '../domain/invoice.ts';
import { visibleInvoice } from '../domain/invoice.ts';
import { notFound } from '../domain/refusal.ts';
import { hostedUrlOrNull } from '../hosted-url.ts';
import { type InvoiceDocument, invoiceDocument } from '../render/invoice-document.ts';
import type { Account } from '../store/accounts.ts';
import { findHostedInvoice, findInvoiceWithAccount } from '../store/invoice-documents.ts';
import type { RequestContext } from './context.ts';

/** The document of an invoice of `account`, as the client sees it today. */
export function documentOf(invoice: Invoice, account: Account): InvoiceDocument {
  return invoiceDocument({
    invoice,
    merchant: { name: account.name, timeZone: account.timeZone, profile: account.profile },
    today: todayForOverdue(account.timeZone),
    hostedUrl: hostedUrlOrNull(invoice.details.hostedToken),
  });
}

/**
 * The document behind a hosted page's token (its pattern was checked with the route's path: shared/path-parameters.ts);
 * 404 `invoice_not_found` for a token no invoice has. A voided invoice's document has status `void`: the page and its PDF answer 410 with it.
 */
export async function hostedInvoiceDocument(token: string): Promise<InvoiceDocument> {
  const found = await findHostedInvoice(token);
  if (!found) throw notFound('invoice_not_found');
  return documentOf(found.invoice, found.account);
}

/**
 * The document of one of the account's invoices, by reference code (`GET /invoices/{reference_code}/pdf`); 404
 * `invoice_not_found` when absent or another account's. The profile is read with the invoice (one BatchGetItem), so
 * it is current even while the authenticated account is cached.
 */
export async function accountInvoiceDocument(context: RequestContext, referenceCode: string): Promise<InvoiceDocument> {
  const { companyId } = context.account;
  const found = await findInvoiceWithAccount(companyId, referenceCode);
  const visible = visibleInvoice(found?.invoice, companyId);
  if (!visible.ok || !found) throw notFound('invoice_not_found');
  return documentOf(visible.value, found.account);
}
