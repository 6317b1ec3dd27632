/**
 * The invoice as its client sees it (shared/render/invoice-document.ts), read for the hosted page, the PDFs and the
 * mailer: the invoice, its account's profile, the account's today (overdue) and the invoice's hosted link; for the
 * page and the PDFs also its payments and, when it can be paid online, the pay button (docs/getting-paid-online.md).
 */
import { todayForOverdue } from '../clock.ts';
import type { Invoice } from '../domain/invoice.ts';
import { visibleInvoice } from '../domain/invoice.ts';
import type { Logo } from '../domain/logo.ts';
import { checkoutOffer } from '../domain/online-recording.ts';
import { notFound } from '../domain/refusal.ts';
import { hostedUrlOrNull } from '../hosted-url.ts';
import {
  type DocumentInput,
  type InvoiceDocument,
  invoiceDocument,
  type Merchant,
} from '../render/invoice-document.ts';
import type { Account } from '../store/accounts.ts';
import { findAccountInvoicePage, findHostedInvoicePage, type InvoicePageReading } from '../store/invoice-pages.ts';
import type { RequestContext } from './context.ts';

/** The document of an invoice of `account`, as the client sees it today. */
export function documentOf(
  invoice: Invoice,
  account: Account,
  shown: Pick<DocumentInput, 'payments' | 'virtualAccount'> = {},
  logo?: Logo,
): InvoiceDocument {
  return invoiceDocument({
    invoice,
    merchant: merchantOf(account, logo),
    today: todayForOverdue(account.timeZone),
    hostedUrl: hostedUrlOrNull(invoice.details.hostedToken),
    ...shown,
  });
}

/** Who a client's document is from: the account's name, time zone and profile, and its logo when it has one. */
export const merchantOf = (account: Account, logo: Logo | undefined): Merchant => ({
  name: account.name,
  timeZone: account.timeZone,
  profile: account.profile,
  ...(logo ? { logo } : {}),
});

/** The document of what was read: with its receipts, and the pay button when it can be paid online. */
export function pageDocumentOf(reading: InvoicePageReading): InvoiceDocument {
  const { invoice, account, paystack, receipts, creditNotes, logo, virtualAccount } = reading;
  const hostedUrl = hostedUrlOrNull(invoice.details.hostedToken);
  const offer = checkoutOffer(invoice, paystack.sealedKey ? paystack.fees : undefined);
  const payOnline =
    offer.ok && hostedUrl
      ? { amountKobo: offer.amountKobo, feeKobo: offer.amountKobo - invoice.balance.amountDueKobo, hostedUrl }
      : undefined;
  const payments = { receipts, creditNotes, ...(payOnline ? { payOnline } : {}) };
  return documentOf(invoice, account, { payments, virtualAccount }, logo);
}

/** What a hosted page's token leads to; 404 `invoice_not_found` for a token no invoice has. */
export async function hostedInvoiceReading(token: string): Promise<InvoicePageReading> {
  const found = await findHostedInvoicePage(token);
  if (!found) throw notFound('invoice_not_found');
  return found;
}

/**
 * The document behind a hosted page's token (its pattern was checked with the route's path: shared/path-parameters.ts);
 * 404 `invoice_not_found` for a token no invoice has. A voided invoice's document has status `void`: the page and its PDF answer 410 with it.
 */
export async function hostedInvoiceDocument(token: string): Promise<InvoiceDocument> {
  return pageDocumentOf(await hostedInvoiceReading(token));
}

/**
 * The document of one of the account's invoices, by reference code (`GET /invoices/{reference_code}/pdf`); 404
 * `invoice_not_found` when absent or another account's. The profile is read with the invoice (one BatchGetItem), so
 * it is current even while the authenticated account is cached.
 */
export async function accountInvoiceDocument(context: RequestContext, referenceCode: string): Promise<InvoiceDocument> {
  const { companyId } = context.account;
  const found = await findAccountInvoicePage(companyId, referenceCode);
  const visible = visibleInvoice(found?.invoice, companyId);
  if (!visible.ok || !found) throw notFound('invoice_not_found');
  return pageDocumentOf(found);
}
