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
  type Item,
  invoiceBodyItem,
  invoiceHeaderItem,
  paymentItem,
} from './items.ts';
import { type Key, keys } from './keys.ts';
import type { TransactItem } from './write-executor.ts';

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
          'company_id = :company AND version = :version AND amount_due >= :amount AND amount_due > :zero',
        UpdateExpression:
          'SET amount_paid = :amount_paid, amount_due = :amount_due, payment_status = :payment_status, paid_at = :paid_at, version = :next_version, updated_at = :updated_at',
        ExpressionAttributeValues: {
          ':company': payment.companyId,
          ':version': before.version,
          ':amount': payment.amountKobo,
          ':zero': 0,
          ':amount_paid': balance.amount_paid,
          ':amount_due': balance.amount_due,
          ':payment_status': balance.payment_status,
          ':paid_at': balance.paid_at,
          ':next_version': balance.version,
          ':updated_at': balance.updated_at,
        },
      },
    },
    putNew(table, paymentItem(payment)),
  ];
}

/** The key that keeps `merchantRef` unique within the account. */
export const merchantRefKey = (companyId: number, merchantRef: string): Key => keys.merchantRef(companyId, merchantRef);

/** The puts of a new invoice (header, body, and its merchant_ref when it has one), each on condition it is new. */
export function newInvoiceActions(table: string, invoice: Invoice): TransactItem[] {
  const { details } = invoice;
  const actions = [putNew(table, invoiceHeaderItem(invoice)), putNew(table, invoiceBodyItem(details))];
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
