/**
 * The reads behind an invoice document (docs/data-design.md "Hosted pages and PDFs"): the invoice with its account
 * (the merchant's profile), found by a hosted page's token or by reference code.
 *
 * A token leads to its invoice through the item `HOSTED#<token>` (items.ts `hostedLinkItem`), put in add invoice's
 * transaction on condition that it is new (a token is unique per invoice: invoices.ts `newInvoiceActions`).
 * `GET /i/{token}` and its PDF: one GetItem of the link, then one BatchGetItem of the invoice's header and body and
 * the account — two round trips. The keyed PDF: the BatchGetItem alone.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Invoice } from '../domain/invoice.ts';
import { type Account, accountFromItem } from './accounts.ts';
import { batchGet, itemOf } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import { invoiceFrom, invoiceKeys } from './invoices.ts';
import { keys } from './keys.ts';

export interface InvoiceWithAccount {
  invoice: Invoice;
  account: Account;
}

/** The invoice (of `companyId`) and its account, in one BatchGetItem; undefined when either is missing. */
export async function findInvoiceWithAccount(
  companyId: number,
  referenceCode: string,
): Promise<InvoiceWithAccount | undefined> {
  const items = await batchGet([...invoiceKeys(referenceCode), keys.account(companyId)]);
  const invoice = invoiceFrom(items, referenceCode);
  const accountItem = itemOf(items, keys.account(companyId));
  if (!invoice || !accountItem || invoice.details.companyId !== companyId) return undefined;
  return { invoice, account: accountFromItem(accountItem) };
}

/** The invoice behind a token, with its account; undefined when no invoice has this token. */
export async function findHostedInvoice(token: string): Promise<InvoiceWithAccount | undefined> {
  const link = await documentClient().send(
    // Strongly consistent: a link opened the moment its invoice was created must be found.
    new GetCommand({ TableName: tableName(), Key: keys.hostedLink(token), ConsistentRead: true }),
  );
  const referenceCode = link.Item?.reference_code;
  const companyId = Number(link.Item?.company_id);
  if (typeof referenceCode !== 'string' || !Number.isSafeInteger(companyId)) return undefined;
  const found = await findInvoiceWithAccount(companyId, referenceCode);
  // The invoice must be the link's own: never another's.
  return found?.invoice.details.hostedToken === token ? found : undefined;
}
