/**
 * History reads: one Query on the listing index (./listing-index.ts: payments, or invoice headers), a page at a
 * time; the invoices a page needs are read by store/invoices.ts `loadInvoices`.
 */
import type { PaymentRecord } from '../domain/payment-record.ts';
import { paymentFromItem } from './items.ts';
import { invoiceIndexKeys, paymentIndexKeys, referenceCodeOf } from './keys.ts';
import { isPositionIn, type ListingPosition, listingPage } from './listing-index.ts';

export interface PaymentPage {
  payments: PaymentRecord[];
  /** Each payment's position (where a page that continues right after it starts), in page order. */
  positions: ListingPosition[];
  /** Where the next page starts; undefined on the last page. */
  next: ListingPosition | undefined;
}

/** True when a history position (a cursor's) lies in this account's part of the payments index. */
export const isAccountHistoryPosition = (position: ListingPosition, companyId: number): boolean =>
  isPositionIn(position, paymentIndexKeys.partition(companyId));

/** Newest transaction date first, then newest recorded first; dates are inclusive YYYY-MM-DD. */
export async function queryPayments(
  companyId: number,
  from: string,
  to: string,
  limit: number,
  after?: ListingPosition,
): Promise<PaymentPage> {
  const partition = paymentIndexKeys.partition(companyId);
  const range = { from: paymentIndexKeys.rangeStart(from), to: paymentIndexKeys.rangeEnd(to) };
  const page = await listingPage({ partition, range, limit, after });
  return { payments: page.items.map(paymentFromItem), positions: page.positions, next: page.next };
}

/** True when a history position lies in this account's part of the invoices index. */
export const isAccountInvoicePosition = (position: ListingPosition, companyId: number): boolean =>
  isPositionIn(position, invoiceIndexKeys.partition(companyId));

export interface InvoiceHeaderPage {
  /** Reference codes in page order. */
  referenceCodes: string[];
  positions: ListingPosition[];
  next: ListingPosition | undefined;
}

/** The filter on the stored header: its `payment_status` is one of `statuses`, and it is voided or not (`voided`). */
function statusFilter(stored: { statuses: string[]; voided: boolean } | undefined) {
  if (!stored) return undefined;
  const names = stored.statuses.map((_, i) => `:status${i}`);
  const values = Object.fromEntries(stored.statuses.map((status, i) => [`:status${i}`, status]));
  const deleted = stored.voided ? 'attribute_exists(deleted_at)' : 'attribute_not_exists(deleted_at)';
  return { expression: `payment_status IN (${names.join(', ')}) AND ${deleted}`, values };
}

/**
 * An account's invoices listed in [`from`, `to`] (UTC `YYYY-MM-DD HH:MM:SS`, inclusive: their creation, or the start of
 * a back- or forward-dated issue day), newest first; with `stored`, only headers in those stored states (a filter: a
 * page may hold fewer than `limit` and still continue).
 */
export async function queryInvoices(
  companyId: number,
  range: { from: string; to: string },
  limit: number,
  options: {
    after?: ListingPosition | undefined;
    stored?: { statuses: string[]; voided: boolean } | undefined;
  },
): Promise<InvoiceHeaderPage> {
  const page = await listingPage({
    partition: invoiceIndexKeys.partition(companyId),
    range: { from: invoiceIndexKeys.rangeStart(range.from), to: invoiceIndexKeys.rangeEnd(range.to) },
    filter: statusFilter(options.stored),
    limit,
    after: options.after,
  });
  return {
    referenceCodes: page.items.map((item) => referenceCodeOf(String(item.PK))),
    positions: page.positions,
    next: page.next,
  };
}
