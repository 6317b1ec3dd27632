/**
 * The invoice as its client sees it (shared/render/invoice-document.ts), read for the hosted page, the PDFs and the
 * mailer: the invoice, its account's profile, the account's today (overdue) and the invoice's hosted link.
 */
import { todayForOverdue } from '../clock.ts';
import { HOSTED_TOKEN_PATTERN } from '../domain/hosted-token.ts';
import type { Invoice } from '../domain/invoice.ts';
import { visibleInvoice } from '../domain/invoice.ts';
import { NotFoundError } from '../errors.ts';
import { hostedUrlOrNull } from '../hosted-url.ts';
import { type InvoiceDocument, invoiceDocument } from '../render/invoice-document.ts';
import type { Account } from '../store/accounts.ts';
import { findHostedInvoice, findInvoiceWithAccount } from '../store/invoice-documents.ts';

/** Reference codes are 20 alphanumerics; anything else names no invoice (and is never sent to the database). */
const REFERENCE_CODE = /^[A-Za-z0-9]{1,64}$/;

const notFound = () => new NotFoundError('invoice_not_found', 'Invoice not found');

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
 * The document behind a hosted page's token; 404 `invoice_not_found` for a token no invoice has (a malformed one is
 * never looked up). A voided invoice's document has status `void`: the page and its PDF answer 410 with it.
 */
export async function hostedInvoiceDocument(token: string): Promise<InvoiceDocument> {
  if (!HOSTED_TOKEN_PATTERN.test(token)) throw notFound();
  const found = await findHostedInvoice(token);
  if (!found) throw notFound();
  return documentOf(found.invoice, found.account);
}

/**
 * The document of one of the account's invoices, by reference code (`GET /invoices/{reference_code}/pdf`); 404
 * `invoice_not_found` when absent or another account's. The profile is read with the invoice (one BatchGetItem), so
 * it is current even while the authenticated account is cached.
 */
export async function accountInvoiceDocument(account: Account, referenceCode: string): Promise<InvoiceDocument> {
  if (!REFERENCE_CODE.test(referenceCode)) throw notFound();
  const found = await findInvoiceWithAccount(account.companyId, referenceCode);
  const visible = visibleInvoice(found?.invoice, account.companyId);
  if (!visible.ok || !found) throw notFound();
  return documentOf(visible.value, found.account);
}
