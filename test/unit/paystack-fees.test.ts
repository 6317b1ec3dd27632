/**
 * The local Paystack server's fee (infra/local/paystack/fees.ts, docs/paystack-local.md "Fees"): 1.5 %, plus ₦100
 * from ₦2,500, capped at ₦2,000, rounded up to the kobo; among the examples, checkout amounts of a client who bears
 * the fee, each leaving exactly what the invoice is owed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paystackFee } from '../../infra/local/paystack/fees.ts';

describe('paystackFee', () => {
  it.each([
    // [amount charged, fee]: each checkout amount for a client bearing the fee leaves what the invoice is owed.
    [101_523, 1_523], // ₦1,015.23 → ₦1,000.00 left
    [249_999, 3_750], // ₦2,499.99 → ₦2,462.49 left
    [260_153, 13_903], // ₦2,601.53 → ₦2,462.50 left
    [263_960, 13_960], // ₦2,639.60 → ₦2,500.00 left
    [20_200_000, 200_000], // ₦202,000.00 → ₦200,000.00 left: the cap
    [1, 1],
    [100, 2],
    [250_000, 13_750],
  ])('charges %i kobo a fee of %i', (amount, fee) => {
    expect(paystackFee(amount)).toBe(fee);
  });

  it('is 1.5 % (+ ₦100 from ₦2,500) rounded up to the kobo, never above ₦2,000', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000_000 }), (amount) => {
        const fee = paystackFee(amount);
        const flat = amount >= 250_000 ? 10_000 : 0;
        expect(Number.isInteger(fee)).toBe(true);
        expect(fee).toBeLessThanOrEqual(200_000);
        if (fee < 200_000) {
          // fee − flat is the smallest whole kobo at or above 1.5 % of the amount.
          expect((fee - flat) * 1000).toBeGreaterThanOrEqual(amount * 15);
          expect((fee - flat - 1) * 1000).toBeLessThan(amount * 15);
        } else expect(amount * 15 + flat * 1000).toBeGreaterThanOrEqual(200_000 * 1000);
      }),
    );
  });
});
