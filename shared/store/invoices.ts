/**
 * Invoices in the table: a small header (the balance a payment rewrites) and an immutable body, both
 * under the reference code; a payment; the merchant_ref that keeps references unique per account.
 * Every invariant of a write is a condition of its transaction (docs/data-design.md).
 */
import type { Invoice, InvoiceBalance } from '../domain/invoice.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { putNew } from './actions.ts';
import { itemOf } from './batch.ts';
import {
  balanceAttributes,
  balanceFromItem,
  detailsFromItem,
  hostedLinkItem,
  type Item,
  invoiceBodyItem,
  invoiceHeaderItem,
  paymentAttributes,
  paymentFromItem,
  paymentItem,
} from './items.ts';
import { type Key, keys } from './keys.ts';
import { TABLE } from './table.ts';
import type { TransactItem } from './write-executor.ts';

/** The wake index's key attributes (GSI2), removed when an invoice stops being open. */
export const WAKE_INDEX_ATTRIBUTES = `${TABLE.wakeIndex.partitionKey}, ${TABLE.wakeIndex.sortKey}`;

/** The two items of an invoice, for a batch read. */
export const invoiceKeys = (referenceCode: string): Key[] => [
  keys.invoiceHeader(referenceCode),
  keys.invoiceBody(referenceCode),
];

/** The invoice among a batch read's items; undefined when either of its items is missing. */
export function invoiceFrom(items: Map<string, Item>, referenceCode: string): Invoice | undefined {
  const header = itemOf(items, keys.invoiceHeader(referenceCode));
  const body = itemOf(items, keys.invoiceBody(referenceCode));
  return header && body ? { details: detailsFromItem(body), balance: balanceFromItem(header) } : undefined;
}

/**
 * The transaction of a payment: rewrite the invoice header from `before` to `after`, and put the payment.
 * The version pins the state the decision was made on; the balance conditions restate the invariants
 * themselves, so no interleaving can overpay or lose an update.
 */
export function paymentTransaction(
  table: string,
  before: InvoiceBalance,
  after: InvoiceBalance,
  payment: PaymentRecord,
): TransactItem[] {
  const balance = balanceAttributes(after);
  return [
    {
      Update: {
        TableName: table,
        Key: keys.invoiceHeader(payment.referenceCode),
        ConditionExpression:
          'company_id = :company AND version = :version AND amount_due >= :amount AND amount_due > :zero AND attribute_not_exists(deleted_at)',
        UpdateExpression:
          'SET amount_paid = :amount_paid, amount_due = :amount_due, payment_status = :payment_status, paid_at = :paid_at, ' +
          'payments_count = :payments_count, latest_payment = :latest_payment, version = :next_version, updated_at = :updated_at' +
          // Settled: out of the wake index (GSI2), so the sweep never reads it again.
          (after.amountDueKobo === 0 ? ` REMOVE ${WAKE_INDEX_ATTRIBUTES}` : ''),
        ExpressionAttributeValues: {
          ':company': payment.companyId,
          ':version': before.version,
          ':amount': payment.amountKobo,
          ':zero': 0,
          ':amount_paid': balance.amount_paid,
          ':amount_due': balance.amount_due,
          ':payment_status': balance.payment_status,
          ':paid_at': balance.paid_at,
          ':payments_count': balance.payments_count,
          ':latest_payment': paymentAttributes(payment),
          ':next_version': balance.version,
          ':updated_at': balance.updated_at,
        },
      },
    },
    putNew(table, paymentItem(payment)),
  ];
}

/**
 * The transaction of a deletion (void): set `deleted_at` on the header, on condition that it is still the state
 * the decision read (its version: a payment committed meanwhile changes it) and still has no payment.
 */
export function deletionTransaction(
  table: string,
  referenceCode: string,
  companyId: number,
  before: InvoiceBalance,
  after: InvoiceBalance,
): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: keys.invoiceHeader(referenceCode),
      ConditionExpression:
        'company_id = :company AND version = :version AND amount_paid = :zero AND attribute_not_exists(deleted_at)',
      UpdateExpression: `SET deleted_at = :deleted_at, version = :next_version, updated_at = :updated_at REMOVE ${WAKE_INDEX_ATTRIBUTES}`,
      ExpressionAttributeValues: {
        ':company': companyId,
        ':version': before.version,
        ':zero': 0,
        ':deleted_at': after.deletedAt,
        ':next_version': after.version,
        ':updated_at': after.updatedAt,
      },
    },
  };
}

/** The latest payment an invoice header keeps a copy of (GET /payments/{reference_code} reads it in one round trip). */
export function latestPaymentFrom(items: Map<string, Item>, referenceCode: string): PaymentRecord | undefined {
  const latest = itemOf(items, keys.invoiceHeader(referenceCode))?.latest_payment;
  return latest && typeof latest === 'object' ? paymentFromItem(latest as Item) : undefined;
}

/** The key that keeps `merchantRef` unique within the account. */
export const merchantRefKey = (companyId: number, merchantRef: string): Key => keys.merchantRef(companyId, merchantRef);

/**
 * The puts of a new invoice (header, body, its hosted link, and its merchant_ref when it has one), each on condition
 * it is new.
 */
export function newInvoiceActions(table: string, invoice: Invoice): TransactItem[] {
  const { details } = invoice;
  const actions = [putNew(table, invoiceHeaderItem(invoice)), putNew(table, invoiceBodyItem(details))];
  if (details.hostedToken !== undefined)
    actions.push(putNew(table, hostedLinkItem(details.hostedToken, details.companyId, details.referenceCode)));
  if (details.merchantRef !== undefined) {
    const item = {
      ...merchantRefKey(details.companyId, details.merchantRef),
      entity: 'merchant_ref',
      company_id: details.companyId,
      reference_code: details.referenceCode,
    };
    actions.push(putNew(table, item));
  }
  return actions;
}
