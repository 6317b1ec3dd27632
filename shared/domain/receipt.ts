/**
 * A payment as an invoice's page and PDF list it (docs/getting-paid-online.md "Receipts"): its date, channel, amount
 * and whether it was reversed; for an online payment also what was charged and what is given back. Kept beside the
 * hosted page's link, so that the page reads its receipts with its link.
 */
import type { PaymentRecord } from './payment-record.ts';

export interface PaymentReceipt {
  paymentId: number;
  /** The payment's ULID (when it was recorded): orders the receipts. */
  recordedId: string;
  /** Unix seconds of the payment date, as the payment's `transaction_date`. */
  transactionDate: number;
  channel: string;
  /** What the invoice was credited. */
  amountKobo: number;
  /** Online payments: what Paystack charged, and what of it is refunded. */
  amountChargedKobo?: number;
  refundKobo?: number;
  /** YYYY-MM-DD HH:MM:SS (UTC), once reversed. */
  reversedAt?: string;
  /** Withholding tax the client deducted beside the amount paid (docs/tax.md "Withholding tax"). */
  whtKobo?: number;
}

export function receiptOf(payment: PaymentRecord): PaymentReceipt {
  const { online } = payment;
  return {
    paymentId: payment.id,
    recordedId: payment.recordedId,
    transactionDate: payment.transactionDate,
    channel: payment.channel,
    amountKobo: payment.amountKobo,
    ...(online ? { amountChargedKobo: online.amountChargedKobo } : {}),
    ...(online?.refund ? { refundKobo: online.refund.amountKobo } : {}),
    ...(payment.whtKobo ? { whtKobo: payment.whtKobo } : {}),
  };
}
