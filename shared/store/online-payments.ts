/**
 * Getting paid online in the table (docs/data-design.md "Getting paid online"): the checkout attempt of each reference
 * the service issues to Paystack — the item whose conditional write makes one reference record at most one payment —
 * and the conditions a recording's transaction holds the invoice to. The refund job a recording puts when money must
 * go back is store/refund-jobs.ts's.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Invoice } from '../domain/invoice.ts';
import type { FeeBearer, PaystackFees } from '../domain/online-payment.ts';
import type { CheckoutAttempt } from '../domain/online-recording.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { itemOf } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import { type Item, paymentItem } from './items.ts';
import { type Key, keys } from './keys.ts';
import type { TransactItem } from './write-executor.ts';
import { putNew } from './write-executor.ts';

export const checkoutAttemptKey = (reference: string): Key => keys.checkoutAttempt(reference);

/** Puts a new attempt before Paystack is called; a reference is never used twice (`attribute_not_exists`). */
export async function putCheckoutAttempt(attempt: CheckoutAttempt): Promise<void> {
  const { fees } = attempt;
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...checkoutAttemptKey(attempt.reference),
        entity: 'checkout_attempt',
        company_id: attempt.companyId,
        reference: attempt.reference,
        reference_code: attempt.referenceCode,
        invoice_id: attempt.invoiceId,
        expected_amount: attempt.expectedKobo,
        amount_due: attempt.amountDueKobo,
        fee_bearer: attempt.feeBearer,
        fees: {
          percent_bp: fees.percentBasisPoints,
          flat: fees.flatKobo,
          flat_from: fees.flatFromKobo,
          cap: fees.capKobo,
        },
        created_at: attempt.createdAt,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export function attemptFromItem(item: Item | undefined): CheckoutAttempt | undefined {
  if (item?.entity !== 'checkout_attempt') return undefined;
  const fees = (item.fees ?? {}) as Item;
  return {
    reference: String(item.reference),
    companyId: Number(item.company_id),
    referenceCode: String(item.reference_code),
    invoiceId: Number(item.invoice_id),
    expectedKobo: Number(item.expected_amount),
    amountDueKobo: Number(item.amount_due),
    feeBearer: item.fee_bearer as FeeBearer,
    fees: {
      percentBasisPoints: Number(fees.percent_bp),
      flatKobo: Number(fees.flat),
      flatFromKobo: Number(fees.flat_from),
      capKobo: Number(fees.cap),
    } satisfies PaystackFees,
    createdAt: String(item.created_at),
    ...(typeof item.payment_id === 'number' ? { recordedPaymentId: item.payment_id } : {}),
  };
}

export const attemptFrom = (items: Map<string, Item>, reference: string): CheckoutAttempt | undefined =>
  attemptFromItem(itemOf(items, checkoutAttemptKey(reference)));

export async function readCheckoutAttempt(reference: string): Promise<CheckoutAttempt | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: checkoutAttemptKey(reference), ConsistentRead: true }),
  );
  return attemptFromItem(out.Item);
}

/**
 * The attempt's side of a recording: it names its payment, on condition that it names none yet — so of two recordings
 * of one reference (a webhook and the client's return, a retried webhook), exactly one commits.
 */
export function attemptRecorded(table: string, reference: string, paymentId: number, now: string): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: checkoutAttemptKey(reference),
      ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(payment_id)',
      UpdateExpression: 'SET payment_id = :payment, recorded_at = :now',
      ExpressionAttributeValues: { ':payment': paymentId, ':now': now },
    },
  };
}

/**
 * The invoice is still as read (its version): a payment refunded whole leaves the header alone, yet its decision — the
 * invoice takes none of it — must not commit on a state that has changed since (a reversal re-opening it).
 */
export function invoiceStillAt(table: string, invoice: Invoice): TransactItem {
  return {
    ConditionCheck: {
      TableName: table,
      Key: keys.invoiceHeader(invoice.details.referenceCode),
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': invoice.balance.version },
    },
  };
}

/** The payment of an online charge the invoice took none of: its item alone, on condition that it is new. */
export const refundedPaymentPut = (table: string, payment: PaymentRecord): TransactItem =>
  putNew(table, paymentItem(payment));
