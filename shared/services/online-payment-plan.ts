/**
 * The transaction of a verified online payment (docs/getting-paid-online.md "Recording"), for
 * ./record-online-payment.ts: the payment as Paystack reported it — channel mapped, gateway fields, what was charged
 * and its fee — written with every write a manual payment makes (./payment-plan.ts) when the invoice takes some of
 * it, or alone when it takes none (a payment refunded whole); with the attempt naming its payment (the condition that
 * keeps one reference to one payment), the refund job when money goes back, and the client's saved card.
 */
import { type CalendarDate, formatTimestamp, toEpochSeconds } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import type { OnlinePaymentSplit } from '../domain/online-payment.ts';
import { type CheckoutAttempt, onlineChannel, type VerifiedCharge } from '../domain/online-recording.ts';
import { applyPayment, newPayment } from '../domain/payment-acceptance.ts';
import type { OnlinePayment, PaymentCard, PaymentRecord } from '../domain/payment-record.ts';
import { paymentRecorded } from '../representation/views.ts';
import { attemptRecorded, invoiceStillAt, refundedPaymentPut } from '../store/online-payments.ts';
import { receiptActions } from '../store/receipts.ts';
import { type RefundReason, refundJobPut } from '../store/refund-jobs.ts';
import type { TransactItem } from '../store/write-executor.ts';
import { newUlid } from '../ulid.ts';
import { type PaymentWrites, recordedPaymentWrites } from './payment-plan.ts';

export interface OnlineRecording {
  table: string;
  companyId: number;
  currency: string;
  todayForOverdue: CalendarDate;
  attempt: CheckoutAttempt;
  charge: VerifiedCharge;
  invoice: Invoice;
  split: OnlinePaymentSplit;
  paidOn: CalendarDate;
  ids: { id: number; previousPaymentId: number | undefined };
  /** The saved card the payment names, when the invoice asked for one (its items are the caller's). */
  card: PaymentCard | undefined;
  writeAttempt: number;
  /** The account e-mails a receipt for every payment. */
  sendReceipts: boolean;
}

/** The payment, its writes and answer, the attempt's condition and the refund job. */
export function onlinePaymentWrites(recording: OnlineRecording): PaymentWrites & { payment: PaymentRecord } {
  const { table, invoice, split, attempt } = recording;
  const now = formatTimestamp(new Date());
  const payment = onlinePayment(recording, now);
  const writes =
    split.creditKobo > 0 ? creditedWrites(recording, payment, now) : refundedWholeWrites(recording, payment);
  const refund =
    split.refundKobo > 0
      ? [
          refundJobPut(table, {
            jobId: `rfj_${newUlid()}`,
            companyId: recording.companyId,
            paymentId: payment.id,
            referenceCode: invoice.details.referenceCode,
            reference: attempt.reference,
            transactionId: recording.charge.transactionId,
            amountKobo: split.refundKobo,
            reason: refundReason(recording),
            createdAt: now,
          }),
        ]
      : [];
  return {
    payment,
    answer: writes.answer,
    actions: [...writes.actions, attemptRecorded(table, attempt.reference, payment.id, now), ...refund],
  };
}

function onlinePayment(recording: OnlineRecording, now: string): PaymentRecord {
  const { charge, split, invoice, ids, card } = recording;
  const online: OnlinePayment = {
    transactionId: charge.transactionId,
    reference: charge.reference,
    gatewayResponse: charge.gatewayResponse,
    message: charge.message,
    amountChargedKobo: charge.amountKobo,
    feesKobo: charge.feesKobo,
    ...(split.refundKobo > 0 ? { refund: { amountKobo: split.refundKobo, status: 'pending', id: null } } : {}),
    ...(card ? { card } : {}),
  };
  const request = { amountKobo: split.creditKobo, date: recording.paidOn, channel: onlineChannel(charge.channel) };
  const previous = split.creditKobo > 0 ? ids.previousPaymentId : undefined;
  const payment = newPayment(
    invoice,
    { id: ids.id, recordedId: newUlid(), previousPaymentId: previous },
    request,
    recording.currency,
    now,
  );
  return { ...payment, transactionDate: toEpochSeconds(recording.paidOn), online };
}

/** The invoice takes (some of) it: everything a manual payment writes. */
function creditedWrites(recording: OnlineRecording, payment: PaymentRecord, now: string): PaymentWrites {
  const { invoice } = recording;
  const balance = applyPayment(invoice.balance, payment.amountKobo, now);
  // The credit is at most the amount due read (splitOnlinePayment), so the same balance always accepts it.
  if (!balance.ok) throw new Error(`an online payment's credit was refused: ${balance.refusal.code}`);
  return recordedPaymentWrites({
    companyId: recording.companyId,
    todayForOverdue: recording.todayForOverdue,
    invoice,
    balance: balance.value,
    settles: balance.value.amountDueKobo === 0,
    payment,
    attempt: recording.writeAttempt,
    now,
    sendReceipts: recording.sendReceipts,
  });
}

/**
 * The invoice takes none of it (voided, already paid): the payment is kept — amount 0, `refund` the whole charge —
 * so the money shows in history and on the page until it is back; the invoice is untouched but must still be as read.
 */
function refundedWholeWrites(recording: OnlineRecording, payment: PaymentRecord): PaymentWrites {
  const { table, invoice } = recording;
  const answer = paymentRecorded(payment, invoice, recording.todayForOverdue);
  const recorded = { ...payment, viewBytes: Buffer.byteLength(JSON.stringify(answer.data)) };
  const actions: TransactItem[] = [
    invoiceStillAt(table, invoice),
    refundedPaymentPut(table, recorded),
    ...receiptActions(table, invoice.details.hostedToken, recorded),
  ];
  return { actions, answer };
}

function refundReason({ split, invoice }: OnlineRecording): RefundReason {
  if (split.outcome !== 'refunded') return 'excess';
  if (invoice.balance.deletedAt !== null) return 'voided';
  return invoice.balance.amountDueKobo === 0 ? 'already_paid' : 'unpayable';
}
