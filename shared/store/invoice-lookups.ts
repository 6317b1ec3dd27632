/**
 * The items that find an invoice by something other than its reference code — its hosted page's token, its
 * `merchant_ref` — each naming the invoice's account and reference code. Put with the invoice (invoices.ts).
 */

import type { Item } from './items.ts';
import { type Key, keys } from './keys.ts';

/** The key that keeps `merchantRef` unique within the account. */
export const merchantRefKey = (companyId: number, merchantRef: string): Key => keys.merchantRef(companyId, merchantRef);

/**
 * The hosted link of an invoice: its token → its account, reference code and client (invoice-pages.ts: the client's
 * items are read with the invoice's).
 */
export function hostedLinkItem(
  token: string,
  link: { companyId: number; referenceCode: string; clientId: number },
): Item {
  return {
    ...keys.hostedLink(token),
    entity: 'hosted_link',
    company_id: link.companyId,
    reference_code: link.referenceCode,
    client_id: link.clientId,
  };
}

/** The item that keeps a merchant_ref unique within its account, naming its invoice. */
export function merchantRefItem(companyId: number, merchantRef: string, referenceCode: string): Item {
  return {
    ...keys.merchantRef(companyId, merchantRef),
    entity: 'merchant_ref',
    company_id: companyId,
    reference_code: referenceCode,
  };
}
