/**
 * Recording a payment from Paystack's word (docs/getting-paid-online.md "Recording"), pure: the checkout attempt the
 * service issued, the transaction as Paystack's verify reports it (in this module's own terms: the outbound client
 * maps Paystack's JSON onto it), the channel a payment gets, and whether and how a verified transaction is recorded.
 */
import { type CalendarDate, todayIn } from './dates.ts';
import type { Invoice } from './invoice.ts';
import { acceptsPayments } from './invoice-deletion.ts';
import {
  checkoutAmount,
  type FeeBearer,
  type OnlinePaymentSplit,
  type PaystackFees,
  splitOnlinePayment,
} from './online-payment.ts';

/** The card behind a card payment, as Paystack's authorization describes it. */
export interface CardAuthorization {
  /** Paystack's `authorization_code`: charges the card again; kept sealed, never shown. */
  code: string;
  reusable: boolean;
  brand: string;
  last4: string;
  expMonth: string;
  expYear: string;
  /** Paystack's card signature: the same card of the same customer has the same one (null when not given). */
  signature: string | null;
}

/** A transaction as Paystack's `GET /transaction/verify/{reference}` reports it. */
export interface VerifiedCharge {
  reference: string;
  /** Paystack's status: `success` only for money received (`failed`, `abandoned`, `ongoing`, `pending`, `reversed`…). */
  status: string;
  amountKobo: number;
  currency: string;
  /** Paystack's transaction id, as a string (the payment's `payment_id`). */
  transactionId: string;
  /** Paystack's channel as given (`card`, `bank_transfer`, `ussd`, `dedicated_nuban`…). */
  channel: string;
  gatewayResponse: string;
  message: string;
  /** When it was paid (an ISO instant), or null when Paystack gives none. */
  paidAt: string | null;
  /** Paystack's processing fee on it, in kobo. */
  feesKobo: number;
  authorization?: CardAuthorization | undefined;
  /** A transfer to a dedicated virtual account (channel `dedicated_nuban`): whose account, from whom, with what words. */
  transfer?: TransferDetails | undefined;
}

/** What Paystack reports of a transfer into a dedicated virtual account. */
export interface TransferDetails {
  /** The Paystack customer the account belongs to (`CUS_…`). */
  customerCode: string;
  /** The dedicated account the money arrived in. */
  receiverAccountNumber: string;
  senderName: string;
  senderBank: string;
  /** As Paystack gives it (masked but for the last digits). */
  senderAccountNumber: string;
  narration: string;
}

/** The channel a payment records for Paystack's channel: the API's own names where there is one, else as given. */
export function onlineChannel(paystackChannel: string): string {
  switch (paystackChannel) {
    case 'card':
      return 'Card';
    case 'bank':
    case 'bank_transfer':
    case 'dedicated_nuban':
      return 'BankTransfer';
    case 'ussd':
      return 'USSD';
    default:
      return paystackChannel;
  }
}

/**
 * One press of an invoice's pay button: the reference sent to Paystack and what was asked, kept before Paystack is
 * called. A payment is recorded only for a reference the service issued, once (`recordedPaymentId`).
 */
export interface CheckoutAttempt {
  reference: string;
  companyId: number;
  referenceCode: string;
  invoiceId: number;
  /** The checkout amount asked (fee included when the client bears it). */
  expectedKobo: number;
  /** The invoice's amount due when the button was pressed. */
  amountDueKobo: number;
  feeBearer: FeeBearer;
  /** The account's fee settings when the button was pressed: a payment is split with these. */
  fees: PaystackFees;
  /** YYYY-MM-DD HH:MM:SS (UTC). */
  createdAt: string;
  /** The payment recorded for it; absent until then. */
  recordedPaymentId?: number;
}

/** `<reference_code>-<ULID>`: unique per attempt (a ULID never repeats), and names the invoice to whoever reads it. */
export const checkoutReference = (referenceCode: string, ulid: string): string => `${referenceCode}-${ulid}`;

/** What a reference the service issues looks like; anything else is no attempt of ours (and is never read). */
export const CHECKOUT_REFERENCE_PATTERN = /^[A-Za-z0-9]{1,64}-[0-9A-HJKMNP-TV-Z]{26}$/;

export const feeBearerOf = (feeBearer: string): FeeBearer => (feeBearer === 'account' ? 'account' : 'client');

/** Why a payment can be offered online, or why not: paid, voided, another currency than NGN, no Paystack key. */
export type CheckoutRefusal = 'paid' | 'void' | 'currency' | 'not_connected';

/**
 * The checkout amount of an invoice, or why it cannot be paid online. Only NGN invoices: Paystack charges the amount in
 * the invoice's own currency, and the checkout amount is computed with Nigerian fees.
 */
export function checkoutOffer(
  invoice: Invoice,
  fees: PaystackFees | undefined,
): { ok: true; amountKobo: number; feeBearer: FeeBearer } | { ok: false; refusal: CheckoutRefusal } {
  const { balance, details } = invoice;
  if (!acceptsPayments(balance)) return { ok: false, refusal: 'void' };
  if (balance.amountDueKobo <= 0) return { ok: false, refusal: 'paid' };
  if (details.currency !== 'NGN') return { ok: false, refusal: 'currency' };
  if (!fees) return { ok: false, refusal: 'not_connected' };
  const feeBearer = feeBearerOf(details.feeBearer);
  return { ok: true, amountKobo: checkoutAmount(balance.amountDueKobo, feeBearer, fees), feeBearer };
}

/** Why a verified transaction records nothing. */
export type IgnoredBecause =
  | 'unknown_reference'
  | 'not_successful'
  | 'not_ngn'
  | 'no_amount'
  | 'reference_mismatch'
  | 'invoice_missing';

export type RecordingDecision =
  | { kind: 'ignore'; because: IgnoredBecause }
  | { kind: 'already_recorded'; paymentId: number }
  | { kind: 'record'; split: OnlinePaymentSplit; paidOn: CalendarDate; saveCard: boolean };

export interface RecordingFacts {
  /** The account the word came for (the webhook's hook, the hosted page's invoice). */
  companyId: number;
  /** The attempt of that reference, as read (undefined: the service never issued it). */
  attempt: CheckoutAttempt | undefined;
  charge: VerifiedCharge;
  /** The attempt's invoice, as read. */
  invoice: Invoice | undefined;
  timeZone: string;
  /** The instant the recording is made: the date when Paystack gives no `paid_at`. */
  now: Date;
}

/**
 * Whether a verified transaction is recorded: only `success` in NGN, for a reference this service issued for that
 * account's invoice, once. The split (credit, refund, fee) is splitOnlinePayment's with the attempt's fee settings and
 * the invoice's state as read; the date is the day it was paid in the account's time zone; a reusable card is saved
 * when the invoice asked for it (`tokenize`) and the invoice took the payment.
 */
export function decideOnlineRecording(facts: RecordingFacts): RecordingDecision {
  const { attempt, charge, invoice } = facts;
  if (!attempt || attempt.companyId !== facts.companyId) return ignore('unknown_reference');
  if (attempt.recordedPaymentId !== undefined)
    return { kind: 'already_recorded', paymentId: attempt.recordedPaymentId };
  if (charge.reference !== attempt.reference) return ignore('reference_mismatch');
  if (charge.status !== 'success') return ignore('not_successful');
  if (charge.currency !== 'NGN') return ignore('not_ngn');
  if (!Number.isSafeInteger(charge.amountKobo) || charge.amountKobo < 1) return ignore('no_amount');
  if (!invoice || invoice.details.referenceCode !== attempt.referenceCode) return ignore('invoice_missing');
  const split = splitOnlinePayment({
    amountDueKobo: invoice.balance.amountDueKobo,
    voided: !acceptsPayments(invoice.balance),
    feeBearer: attempt.feeBearer,
    fees: attempt.fees,
    verifiedKobo: charge.amountKobo,
  });
  const paidAt =
    charge.paidAt !== null && !Number.isNaN(Date.parse(charge.paidAt)) ? new Date(charge.paidAt) : facts.now;
  const saveCard =
    invoice.details.tokenize === true &&
    split.outcome !== 'refunded' &&
    onlineChannel(charge.channel) === 'Card' &&
    charge.authorization?.reusable === true;
  return { kind: 'record', split, paidOn: todayIn(facts.timeZone, paidAt), saveCard };
}

const ignore = (because: IgnoredBecause): RecordingDecision => ({ kind: 'ignore', because });
