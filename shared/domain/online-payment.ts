/**
 * Paying an invoice online through Paystack, pure (docs/decisions.md "The fee and what a payment credits"): the
 * processing fee, the amount the checkout charges for an invoice's amount due, and what a verified payment credits the invoice, what is
 * refunded and what pays the fee. Amounts are integer kobo; products that can pass 2^53 are taken in BigInt.
 */
import { MAX_AMOUNT_KOBO } from './money.ts';
import { parsePercent } from './percent.ts';
import type { ParseResult } from './result.ts';

/** Who bears the processing fee (an invoice's `fee_bearer`). */
export type FeeBearer = 'account' | 'client';

/** An account's Paystack fee settings. */
export interface PaystackFees {
  /** Of the amount charged, in basis points (1.5 % → 150); 0 to 10,000 (100 %). */
  percentBasisPoints: number;
  /** Added from `flatFromKobo` on. */
  flatKobo: number;
  /** The smallest charge the flat part is added to. */
  flatFromKobo: number;
  /** The most the whole fee can be. */
  capKobo: number;
}

/** Paystack's local-card pricing: 1.5 % plus ₦100 from ₦2,500, capped at ₦2,000. */
export const DEFAULT_PAYSTACK_FEES: Readonly<PaystackFees> = {
  percentBasisPoints: 150,
  flatKobo: 10_000,
  flatFromKobo: 250_000,
  capKobo: 200_000,
};

const BASIS_POINTS_PER_WHOLE = 10_000n;

/** The fee percent setting ("1.5", at most 2 decimals, 0–100) in basis points. */
export const parseFeePercent = (input: unknown): ParseResult<number> => parsePercent(input, 2);

/** Throws a RangeError unless every figure is an integer in range (a percent above 100 % would make no sense). */
export function assertFees(fees: PaystackFees): void {
  const { percentBasisPoints, flatKobo, flatFromKobo, capKobo } = fees;
  const inRange = (n: number, max: number) => Number.isSafeInteger(n) && n >= 0 && n <= max;
  if (!inRange(percentBasisPoints, 10_000)) throw new RangeError('fee percent must be 0–10,000 basis points');
  if (![flatKobo, flatFromKobo, capKobo].every((n) => inRange(n, MAX_AMOUNT_KOBO)))
    throw new RangeError('fee amounts must be whole kobo from 0 to the money maximum');
}

/**
 * Paystack's fee on a charge: percent of the charge, plus the flat part when the charge is at least `flatFromKobo`,
 * rounded up to the kobo, the whole capped.
 */
export function processingFee(chargeKobo: number, fees: PaystackFees): number {
  assertKobo(chargeKobo, 'charge');
  return Number(feeOf(BigInt(chargeKobo), fees));
}

function feeOf(charge: bigint, fees: PaystackFees): bigint {
  const percentPart = ceilDiv(charge * BigInt(fees.percentBasisPoints), BASIS_POINTS_PER_WHOLE);
  const flatPart = charge >= BigInt(fees.flatFromKobo) ? BigInt(fees.flatKobo) : 0n;
  const fee = percentPart + flatPart;
  const cap = BigInt(fees.capKobo);
  return fee < cap ? fee : cap;
}

/** What the merchant receives of a charge: the charge less its fee (negative when the fee exceeds the charge). */
const netOf = (charge: bigint, fees: PaystackFees): bigint => charge - feeOf(charge, fees);

/**
 * The amount the checkout charges for `amountDueKobo` (above zero). The account bearing the fee: the amount due. The
 * client bearing it: the smallest charge whose fee leaves at least the amount due.
 *
 * Why a search: charge − fee is non-decreasing below `flatFromKobo` and from it on (the percent part grows by at most
 * one kobo per kobo when the percent is at most 100 %, and the cap only flattens it), but drops where the flat part
 * starts. So the answer is the first charge reaching the amount due below the threshold, if any charge there does,
 * else the first from the threshold on — each found by bisection. A charge of `amountDue + cap` always suffices.
 */
export function checkoutAmount(amountDueKobo: number, feeBearer: FeeBearer, fees: PaystackFees): number {
  assertKobo(amountDueKobo, 'amount due');
  if (amountDueKobo < 1) throw new RangeError('checkoutAmount: the amount due must be above zero');
  assertFees(fees);
  if (feeBearer === 'account') return amountDueKobo;
  const due = BigInt(amountDueKobo);
  const threshold = BigInt(fees.flatFromKobo);
  if (due < threshold && netOf(threshold - 1n, fees) >= due)
    return Number(firstReaching(due, threshold - 1n, due, fees));
  const low = due > threshold ? due : threshold;
  return Number(firstReaching(low, low + BigInt(fees.capKobo), due, fees));
}

/** The smallest charge in [low, high] whose net reaches `due`, where the net is non-decreasing and net(high) ≥ due. */
function firstReaching(low: bigint, high: bigint, due: bigint, fees: PaystackFees): bigint {
  let [lo, hi] = [low, high];
  while (lo < hi) {
    const mid = (lo + hi) / 2n;
    if (netOf(mid, fees) >= due) hi = mid;
    else lo = mid + 1n;
  }
  return lo;
}

/** What the invoice was like when a verified online payment is recorded. */
export interface OnlinePaymentFacts {
  /** The invoice's amount due at recording: 0 when it is fully paid. */
  amountDueKobo: number;
  voided: boolean;
  feeBearer: FeeBearer;
  fees: PaystackFees;
  /** The amount Paystack verified it charged, above zero. */
  verifiedKobo: number;
}

/**
 * How a verified amount is split: `creditKobo` + `refundKobo` + `clientFeeKobo` = the verified amount.
 * - `paid`: the invoice is paid; what it could not take is refunded.
 * - `partial`: less than the invoice's checkout amount arrived (tampered); a partial payment, never paid.
 * - `refunded`: the invoice can take nothing (voided, already paid, or too little to leave anything after the fee);
 *   the whole amount goes back.
 */
export interface OnlinePaymentSplit {
  outcome: 'paid' | 'partial' | 'refunded';
  /** Credited to the invoice: the payment's amount (0 with `refunded`). */
  creditKobo: number;
  /** Given back through Paystack's refund. */
  refundKobo: number;
  /** Kept to pay the processing fee the client bears (0 when the account bears it). */
  clientFeeKobo: number;
}

/**
 * What a verified online payment credits, refunds and keeps for the fee. The invoice can take its checkout amount for
 * the amount due at recording (fee included when the client bears it): the amount due is credited and the rest
 * refunded. A short payment when the client bears the fee credits what it nets after Paystack's fee on the amount
 * actually charged — the client bears the fee on what they paid, as on a full payment — so it is always below the amount
 * due. When the account bears the fee, a short payment is credited whole.
 */
export function splitOnlinePayment(facts: OnlinePaymentFacts): OnlinePaymentSplit {
  const { amountDueKobo, feeBearer, fees, verifiedKobo } = facts;
  assertKobo(amountDueKobo, 'amount due');
  assertKobo(verifiedKobo, 'verified amount');
  if (verifiedKobo < 1) throw new RangeError('splitOnlinePayment: the verified amount must be above zero');
  const refundAll: OnlinePaymentSplit = {
    outcome: 'refunded',
    creditKobo: 0,
    refundKobo: verifiedKobo,
    clientFeeKobo: 0,
  };
  if (facts.voided || amountDueKobo === 0) return refundAll;
  const capacity = checkoutAmount(amountDueKobo, feeBearer, fees);
  if (verifiedKobo >= capacity) {
    const refundKobo = verifiedKobo - capacity;
    return { outcome: 'paid', creditKobo: amountDueKobo, refundKobo, clientFeeKobo: capacity - amountDueKobo };
  }
  const clientFeeKobo = feeBearer === 'client' ? processingFee(verifiedKobo, fees) : 0;
  if (clientFeeKobo >= verifiedKobo) return refundAll;
  return { outcome: 'partial', creditKobo: verifiedKobo - clientFeeKobo, refundKobo: 0, clientFeeKobo };
}

function assertKobo(kobo: number, what: string): void {
  if (!Number.isSafeInteger(kobo) || kobo < 0)
    throw new RangeError(`${what} must be whole kobo, not negative: ${kobo}`);
}

function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}
