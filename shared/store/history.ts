/**
 * History reads: one Query on the listing index (payments, or invoice headers), a page at a time; the invoices a page
 * needs are read by store/invoices.ts `loadInvoices`.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { indexPosition as positionOf } from './clients.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import { paymentFromItem } from './items.ts';
import { invoiceIndexKeys, paymentIndexKeys, referenceCodeOf } from './keys.ts';
import { TABLE } from './table.ts';

export interface PaymentPage {
  payments: PaymentRecord[];
  /** Each payment's position (exclusive start key of a page that continues right after it), by index. */
  positions: Record<string, string>[];
  /** Exclusive start key for the next page; undefined on the last page. */
  next: Record<string, string> | undefined;
}

/** True when a history position (a cursor's last evaluated key) lies in this account's part of the payments index. */
export function isAccountHistoryPosition(position: Record<string, string>, companyId: number): boolean {
  return position[TABLE.listingIndex.partitionKey] === paymentIndexKeys.partition(companyId);
}

/** Newest transaction date first, then newest recorded first; dates are inclusive YYYY-MM-DD. */
export async function queryPayments(
  companyId: number,
  from: string,
  to: string,
  limit: number,
  after?: Record<string, string>,
): Promise<PaymentPage> {
  const index = TABLE.listingIndex;
  // One extra item tells whether another page exists, so the last page says next_cursor: null.
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index.name,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
      ExpressionAttributeValues: {
        ':pk': paymentIndexKeys.partition(companyId),
        ':from': paymentIndexKeys.rangeStart(from),
        ':to': paymentIndexKeys.rangeEnd(to),
      },
      ScanIndexForward: false,
      Limit: limit + 1,
      ...(after ? { ExclusiveStartKey: after } : {}),
    }),
  );
  const items = result.Items ?? [];
  const pageItems = items.slice(0, limit);
  const last = pageItems[pageItems.length - 1];
  let next: Record<string, string> | undefined;
  if (items.length > limit && last) next = positionOf(last);
  else if (result.LastEvaluatedKey && last) next = positionOf(last);
  return { payments: pageItems.map(paymentFromItem), positions: pageItems.map(positionOf), next };
}

/** True when a history position lies in this account's part of the invoices index. */
export function isAccountInvoicePosition(position: Record<string, string>, companyId: number): boolean {
  return position[TABLE.listingIndex.partitionKey] === invoiceIndexKeys.partition(companyId);
}

export interface InvoiceHeaderPage {
  /** Reference codes in page order. */
  referenceCodes: string[];
  positions: Record<string, string>[];
  next: Record<string, string> | undefined;
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
    after?: Record<string, string> | undefined;
    stored?: { statuses: string[]; voided: boolean } | undefined;
  },
): Promise<InvoiceHeaderPage> {
  const index = TABLE.listingIndex;
  const filter = statusFilter(options.stored);
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index.name,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ...(filter ? { FilterExpression: filter.expression } : {}),
      ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
      ExpressionAttributeValues: {
        ':pk': invoiceIndexKeys.partition(companyId),
        ':from': invoiceIndexKeys.rangeStart(range.from),
        ':to': invoiceIndexKeys.rangeEnd(range.to),
        ...filter?.values,
      },
      ScanIndexForward: false,
      Limit: limit + 1,
      ...(options.after ? { ExclusiveStartKey: options.after } : {}),
    }),
  );
  const items = result.Items ?? [];
  const pageItems = items.slice(0, limit);
  const last = pageItems[pageItems.length - 1];
  let next: Record<string, string> | undefined;
  if (items.length > limit && last) next = positionOf(last);
  else if (result.LastEvaluatedKey) next = result.LastEvaluatedKey as Record<string, string>;
  return {
    referenceCodes: pageItems.map((item) => referenceCodeOf(String(item.PK))),
    positions: pageItems.map(positionOf),
    next,
  };
}
