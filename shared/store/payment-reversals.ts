/**
 * A payment's reversal in the table (docs/api.md "Reversing a payment"): what the decision reads, and one transaction
 * that marks the payment reversed, restores its invoice's balance and latest payment (store/invoices.ts
 * `reversalHeaderAction`) and moves it in its day's totals. The payment's own condition makes a second reversal fail; the header's version makes any concurrent payment,
 * reversal or deletion on the invoice re-read and decide again.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentRecord } from '../domain/payment-record.ts';
import type { AcceptedReversal, ReversalReading } from '../domain/payment-reversal.ts';
import { reversedDelta } from '../domain/period-totals.ts';
import { CREDIT_CHANNEL } from '../domain/transfer-allocation.ts';
import { itemOf } from './batch.ts';
import { clientCreditKey, creditFrom } from './client-credit.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import { invoiceFrom, invoiceKeys, latestPaymentFrom, reversalHeaderAction } from './invoices.ts';
import { type Item, paymentFromItem } from './items.ts';
import { type Key, keys } from './keys.ts';
import { dayTotalsUpdate } from './period-totals.ts';
import type { TransactItem } from './write-executor.ts';

async function getPayment(companyId: number, paymentId: number): Promise<PaymentRecord | undefined> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.payment(companyId, paymentId), ConsistentRead: true }),
  );
  return result.Item ? paymentFromItem(result.Item) : undefined;
}

/**
 * The keys a reversal's decision reads: the payment, its invoice, and the payments before it back to the newest
 * non-reversed one (needed only when it is the invoice's latest; usually one). Read one by one, because each names
 * the next; `extra` adds payments a previous attempt found missing.
 */
export async function reversalKeys(
  companyId: number,
  paymentId: number,
  extra: readonly number[] = [],
): Promise<Key[]> {
  const paymentKey = keys.payment(companyId, paymentId);
  const payment = await getPayment(companyId, paymentId);
  if (!payment) return [paymentKey];
  const chain: Key[] = [];
  for (let id = payment.previousPaymentId; id !== undefined; ) {
    chain.push(keys.payment(companyId, id));
    const earlier = await getPayment(companyId, id);
    id = earlier?.reversal ? earlier.previousPaymentId : undefined;
  }
  const extraKeys = extra.map((id) => keys.payment(companyId, id));
  // A payment from credit gives its amount back to the client's credit: its balance is decided on too.
  const creditKeys = fromCredit(payment) ? [clientCreditKey(companyId, payment.clientId)] : [];
  return [paymentKey, ...invoiceKeys(payment.referenceCode), ...chain, ...extraKeys, ...creditKeys];
}

/** What the decision needs, from one consistent batch read of `reversalKeys`. */
export function reversalReading(items: Map<string, Item>, companyId: number, paymentId: number): ReversalReading {
  const paymentItem = itemOf(items, keys.payment(companyId, paymentId));
  const payment = paymentItem ? paymentFromItem(paymentItem) : undefined;
  const earlier = new Map<number, PaymentRecord>();
  for (const item of items.values())
    if (item.entity === 'payment' && Number(item.company_id) === companyId) {
      const record = paymentFromItem(item);
      earlier.set(record.id, record);
    }
  return {
    payment,
    invoice: payment && invoiceFrom(items, payment.referenceCode),
    latestPaymentId: payment && latestPaymentFrom(items, payment.referenceCode)?.id,
    earlier,
    ...(payment && fromCredit(payment) ? { credit: creditFrom(items, companyId, payment.clientId) } : {}),
  };
}

const fromCredit = (payment: PaymentRecord) => payment.channel === CREDIT_CHANNEL;

/** Marks the payment reversed, on condition it was not already (its new view size keeps history's read planning). */
function paymentUpdate(table: string, payment: PaymentRecord, viewBytes: number): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: keys.payment(payment.companyId, payment.id),
      // Counted or not as decided: a migration counting an old payment meanwhile changes its reversal's delta.
      ConditionExpression: `company_id = :company AND attribute_not_exists(reversed_at) AND ${
        payment.inTotals ? 'in_totals = :in_totals' : 'attribute_not_exists(in_totals)'
      }`,
      UpdateExpression:
        'SET reversed_at = :reversed_at, reversal_reason = :reason, view_bytes = :view_bytes, in_totals = :in_totals',
      ExpressionAttributeValues: {
        ':company': payment.companyId,
        ':reversed_at': payment.reversal?.reversedAt,
        ':reason': payment.reversal?.reason,
        ':view_bytes': viewBytes,
        ':in_totals': true,
      },
    },
  };
}

/**
 * The reversal's transaction: the payment, the invoice header, the day's totals (events and the key's record are added
 * by the caller).
 */
export function reversalTransaction(table: string, accepted: AcceptedReversal, viewBytes: number): TransactItem[] {
  return [
    paymentUpdate(table, accepted.payment, viewBytes),
    reversalHeaderAction(table, accepted),
    dayTotalsUpdate(table, accepted.payment, reversedDelta(accepted.payment)),
  ];
}
