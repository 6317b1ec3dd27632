/**
 * Pure rules for reversing a payment recorded by mistake (docs/api.md "Reversing a payment"): the payment stays, marked
 * reversed; its invoice's balance is restored as if it had never been recorded, in the same transaction
 * (shared/store/payment-reversals.ts), so that `amount_paid` stays the sum of the non-reversed payments.
 */
import { type ClientCredit, returnAppliedCredit } from './client-credit.ts';
import { amountDueOf, type Invoice, type InvoiceBalance, paymentStatusOf } from './invoice.ts';
import { creditedKobo, type PaymentRecord } from './payment-record.ts';
import { accept, type Decision, notFound, Refusal, refuse } from './refusal.ts';
import { CREDIT_CHANNEL } from './transfer-allocation.ts';

export interface ReversalRequest {
  paymentId: number;
  reason: string;
}

/** What the invoice header's copy of its latest payment becomes: unchanged, another payment, or none. */
export type LatestPaymentChange = { kind: 'keep' } | { kind: 'set'; payment: PaymentRecord } | { kind: 'remove' };

export interface AcceptedReversal {
  /** The payment, now reversed. */
  payment: PaymentRecord;
  invoice: Invoice;
  /** The invoice's balance after the reversal. */
  balance: InvoiceBalance;
  latest: LatestPaymentChange;
  /** A payment from credit: the client's credit before and after its amount is given back. */
  credit?: { before: ClientCredit; after: ClientCredit };
}

/**
 * What the decision reads: the payment, its invoice, the id of the invoice's latest payment and the payments before it.
 */
export interface ReversalReading {
  payment: PaymentRecord | undefined;
  invoice: Invoice | undefined;
  latestPaymentId: number | undefined;
  /** Payments by id, at least those the latest one's `previousPaymentId` chain reaches up to a non-reversed one. */
  earlier: ReadonlyMap<number, PaymentRecord>;
  /** The client's credit: read when the payment is from credit (channel `Credit`), whose reversal gives it back. */
  credit?: ClientCredit;
}

export const paymentNotFound = () => notFound('payment_not_found');

/** The balance without `amountKobo`: never paid in full afterwards, so `paid_at` is cleared. */
export function withoutPayment(balance: InvoiceBalance, amountKobo: number, now: string): InvoiceBalance {
  const amountPaidKobo = balance.amountPaidKobo - amountKobo;
  if (amountPaidKobo < 0)
    throw new Error('a reversal would make amount_paid negative: the invoice and its payments disagree');
  return {
    ...balance,
    amountPaidKobo,
    amountDueKobo: amountDueOf(balance, amountPaidKobo),
    paymentStatus: paymentStatusOf(balance.totalKobo, amountPaidKobo, balance.creditedKobo),
    paidAt: null,
    paymentsCount: Math.max(0, balance.paymentsCount - 1),
    version: balance.version + 1,
    updatedAt: now,
  };
}

/**
 * The newest non-reversed payment from `start` back along `previousPaymentId`; `missing` names a payment the chain
 * needs that was not read (read again with it).
 */
export function newestStanding(
  start: number | undefined,
  earlier: ReadonlyMap<number, PaymentRecord>,
): { payment: PaymentRecord | undefined } | { missing: number } {
  for (let id = start; id !== undefined; ) {
    const payment = earlier.get(id);
    if (!payment) return { missing: id };
    if (!payment.reversal) return { payment };
    id = payment.previousPaymentId;
  }
  return { payment: undefined };
}

function latestAfter(reversed: PaymentRecord, reading: ReversalReading): LatestPaymentChange | { missing: number } {
  if (reading.latestPaymentId !== reversed.id) return { kind: 'keep' };
  const found = newestStanding(reversed.previousPaymentId, reading.earlier);
  if ('missing' in found) return found;
  return found.payment ? { kind: 'set', payment: found.payment } : { kind: 'remove' };
}

/**
 * Decides a reversal by `companyId`: another account's or an unknown payment is `payment_not_found`; a reversed one
 * is `payment_already_reversed`. `{ missing }` asks for one more earlier payment to be read.
 */
export function decideReversal(
  reading: ReversalReading,
  companyId: number,
  request: ReversalRequest,
  now: string,
): Decision<AcceptedReversal> | { missing: number } {
  const { payment, invoice } = reading;
  if (!payment || payment.companyId !== companyId || !invoice) return refuse(paymentNotFound());
  if (payment.reversal)
    return refuse(
      new Refusal('payment_already_reversed', 'This payment was already reversed.', [
        { code: 'payment_already_reversed', field: 'id', message: `reversed at ${payment.reversal.reversedAt}` },
      ]),
    );
  // Nothing of it was credited (docs/getting-paid-online.md "Refunds"): there is nothing to take back.
  if (payment.online && payment.amountKobo === 0)
    return refuse(
      new Refusal('payment_refunded', 'This payment was refunded whole; nothing of it was credited to reverse.', [
        { code: 'payment_refunded', field: 'id', message: 'the invoice took none of it: it is refunded' },
      ]),
    );
  const latest = latestAfter(payment, reading);
  if ('missing' in latest) return latest;
  return accept({
    payment: { ...payment, reversal: { reversedAt: now, reason: request.reason } },
    invoice,
    // What it credited, withholding tax included (docs/tax.md "Withholding tax"): both are restored.
    balance: withoutPayment(invoice.balance, creditedKobo(payment), now),
    latest,
    ...creditGivenBack(payment, reading.credit),
  });
}

/** A payment from credit reversed gives its amount back to the client's credit: credit is never lost. */
function creditGivenBack(payment: PaymentRecord, credit: ClientCredit | undefined): Pick<AcceptedReversal, 'credit'> {
  if (payment.channel !== CREDIT_CHANNEL) return {};
  if (!credit) throw new Error('a payment from credit is reversed without its client credit read');
  return { credit: { before: credit, after: returnAppliedCredit(credit, payment.amountKobo) } };
}
