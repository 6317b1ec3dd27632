/**
 * Paystack's fee on a local (Nigerian) transaction, in kobo (docs/paystack-local.md "Fees"): 1.5 % of the amount, plus
 * ₦100 when the amount is ₦2,500 or more, the whole capped at ₦2,000, rounded up to the kobo.
 */
const PERCENT_IN_THOUSANDTHS = 15;
const FLAT_FEE = 10_000;
const FLAT_FEE_FROM = 250_000;
const FEE_CAP = 200_000;

export function paystackFee(amount: number): number {
  // 1.5 % rounded up, in integers: ceil(amount × 15 / 1000).
  const percent = Math.floor((amount * PERCENT_IN_THOUSANDTHS + 999) / 1000);
  const flat = amount >= FLAT_FEE_FROM ? FLAT_FEE : 0;
  return Math.min(percent + flat, FEE_CAP);
}
