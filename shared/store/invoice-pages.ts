/**
 * The reads behind what a client sees of an invoice with its payments (docs/data-design.md "Getting paid online"):
 * the invoice, its account (and its logo), the account's Paystack connection, the invoice's receipts and its client's
 * virtual account. A hosted page: one Query of its token's partition (the link and the receipts), then one
 * BatchGetItem of the header, body, account, connection, logo and virtual account — two round trips. By reference code (the keyed PDF): the BatchGetItem, then the
 * receipts' Query.
 */
import type { CreditNoteSummary } from '../domain/credit-note-record.ts';
import type { Invoice } from '../domain/invoice.ts';
import type { Logo } from '../domain/logo.ts';
import type { PaymentReceipt } from '../domain/receipt.ts';
import type { VirtualAccount } from '../domain/virtual-account.ts';
import { accountLogoKey, logoFrom } from './account-logo.ts';
import { type Account, accountFromItem } from './accounts.ts';
import { batchGet, itemOf } from './batch.ts';
import { invoiceFrom, invoiceKeys } from './invoices.ts';
import { keys } from './keys.ts';
import { connectionFrom, type PaystackConnection, paystackConnectionKey } from './paystack-connections.ts';
import { readHostedPartition, readInvoiceReceipts } from './receipts.ts';
import { readVirtualAccount, virtualAccountFrom, virtualAccountKey } from './virtual-accounts.ts';

export interface InvoicePageReading {
  invoice: Invoice;
  account: Account;
  paystack: PaystackConnection;
  receipts: PaymentReceipt[];
  /** The merchant's logo, when it has one (docs/accounts.md "The logo"). */
  logo: Logo | undefined;
  creditNotes: CreditNoteSummary[];
  /** The invoice's client's virtual account (docs/bank-transfers.md), when it has one. */
  virtualAccount: VirtualAccount | undefined;
}

/**
 * The invoice, its account, logo and connection in one BatchGetItem — with the client's virtual account when the
 * client is known beforehand (a hosted link names it); else the virtual account is one GetItem more.
 */
async function readInvoiceAndAccount(companyId: number, referenceCode: string, clientId?: number) {
  const items = await batchGet([
    ...invoiceKeys(referenceCode),
    keys.account(companyId),
    paystackConnectionKey(companyId),
    accountLogoKey(companyId),
    ...(clientId === undefined ? [] : [virtualAccountKey(companyId, clientId)]),
  ]);
  const invoice = invoiceFrom(items, referenceCode);
  const accountItem = itemOf(items, keys.account(companyId));
  if (!invoice || !accountItem || invoice.details.companyId !== companyId) return undefined;
  const logo = logoFrom(items, companyId);
  const invoiceClient = invoice.details.clientId;
  const virtualAccount =
    clientId === invoiceClient
      ? virtualAccountFrom(items, companyId, invoiceClient)
      : await readVirtualAccount(companyId, invoiceClient);
  const paystack = connectionFrom(items, companyId);
  return { invoice, account: accountFromItem(accountItem), paystack, logo, virtualAccount };
}

/** One of the account's invoices by reference code and the account (one read); undefined when absent or another's. */
export async function findAccountInvoiceWithAccount(
  companyId: number,
  referenceCode: string,
): Promise<{ invoice: Invoice; account: Account } | undefined> {
  const items = await batchGet([...invoiceKeys(referenceCode), keys.account(companyId)]);
  const invoice = invoiceFrom(items, referenceCode);
  const accountItem = itemOf(items, keys.account(companyId));
  if (!invoice || !accountItem || invoice.details.companyId !== companyId) return undefined;
  return { invoice, account: accountFromItem(accountItem) };
}

/** The invoice behind a hosted page's token, with the rest; undefined when no invoice has the token. */
export async function findHostedInvoicePage(token: string): Promise<InvoicePageReading | undefined> {
  const { link, receipts, creditNotes } = await readHostedPartition(token);
  if (!link) return undefined;
  const found = await readInvoiceAndAccount(link.companyId, link.referenceCode, link.clientId);
  // The invoice must be the link's own: never another's.
  if (found?.invoice.details.hostedToken !== token) return undefined;
  return { ...found, receipts, creditNotes };
}

/** One of the account's invoices by reference code, with the rest; undefined when absent or another account's. */
export async function findAccountInvoicePage(
  companyId: number,
  referenceCode: string,
): Promise<InvoicePageReading | undefined> {
  const found = await readInvoiceAndAccount(companyId, referenceCode);
  if (!found) return undefined;
  return { ...found, ...(await readInvoiceReceipts(found.invoice.details.hostedToken)) };
}
