import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_KOBO } from '../../shared/domain/money.ts';
import {
  checkoutAmount,
  DEFAULT_PAYSTACK_FEES,
  type PaystackFees,
  parseFeePercent,
  processingFee,
  splitOnlinePayment,
} from '../../shared/domain/online-payment.ts';

const naira = (n: number) => Math.round(n * 100);

/** The fee as the settings describe it, written out again in BigInt (the reference the module is held to). */
function referenceFee(charge: number, fees: PaystackFees): bigint {
  const c = BigInt(charge);
  const percent = (c * BigInt(fees.percentBasisPoints) + 9_999n) / 10_000n;
  const flat = c >= BigInt(fees.flatFromKobo) ? BigInt(fees.flatKobo) : 0n;
  const fee = percent + flat;
  return fee < BigInt(fees.capKobo) ? fee : BigInt(fees.capKobo);
}

const referenceNet = (charge: number, fees: PaystackFees): bigint => BigInt(charge) - referenceFee(charge, fees);

/** The smallest charge leaving `due`, kobo by kobo (small amounts only). */
function bruteForceCheckout(due: number, fees: PaystackFees): number {
  for (let charge = 0; ; charge++) if (referenceNet(charge, fees) >= BigInt(due)) return charge;
}

const smallFees = fc.record({
  percentBasisPoints: fc.integer({ min: 0, max: 10_000 }),
  flatKobo: fc.integer({ min: 0, max: 3_000 }),
  flatFromKobo: fc.integer({ min: 0, max: 5_000 }),
  capKobo: fc.integer({ min: 0, max: 5_000 }),
});

const largeFees = fc.record({
  percentBasisPoints: fc.integer({ min: 0, max: 10_000 }),
  flatKobo: fc.integer({ min: 0, max: MAX_AMOUNT_KOBO }),
  flatFromKobo: fc.integer({ min: 0, max: MAX_AMOUNT_KOBO }),
  capKobo: fc.integer({ min: 0, max: MAX_AMOUNT_KOBO }),
});

const anyFees = fc.oneof(fc.constant({ ...DEFAULT_PAYSTACK_FEES }), smallFees, largeFees);

describe('processingFee (default settings)', () => {
  it.each([
    [naira(1000), naira(15)],
    [naira(2499.99), 3750], // 37.49985 rounded up
    [naira(2500), naira(137.5)], // flat part from ₦2,500
    [naira(120_000), naira(1900)],
    [naira(126_667), naira(2000)], // 1,900.005 + 100, capped
    [1, 1], // rounded up to the kobo
    [0, 0],
  ])('the fee on %i kobo is %i kobo', (charge, fee) => {
    expect(processingFee(charge, DEFAULT_PAYSTACK_FEES)).toBe(fee);
  });
});

describe('checkoutAmount', () => {
  it.each([
    [1000, 1015.23],
    [2462.49, 2499.99],
    [2462.5, 2601.53],
    [2500, 2639.6],
    [200_000, 202_000],
  ])('the client bearing the fee, ₦%d due is charged ₦%d', (due, charge) => {
    expect(checkoutAmount(naira(due), 'client', DEFAULT_PAYSTACK_FEES)).toBe(naira(charge));
  });

  it('the account bearing the fee, the checkout amount is the amount due', () => {
    expect(checkoutAmount(naira(2462.5), 'account', DEFAULT_PAYSTACK_FEES)).toBe(naira(2462.5));
  });

  it('refuses an amount due of zero and fee settings out of range', () => {
    expect(() => checkoutAmount(0, 'client', DEFAULT_PAYSTACK_FEES)).toThrow(RangeError);
    expect(() => checkoutAmount(100, 'client', { ...DEFAULT_PAYSTACK_FEES, percentBasisPoints: 10_001 })).toThrow(
      RangeError,
    );
  });

  it('is the smallest charge of all that leave the amount due, for small amounts and any settings (property)', () => {
    fc.assert(
      fc.property(smallFees, fc.integer({ min: 1, max: 20_000 }), (fees, due) => {
        expect(checkoutAmount(due, 'client', fees)).toBe(bruteForceCheckout(due, fees));
      }),
      { numRuns: 300 },
    );
  });

  it('leaves the amount due, and no cheaper charge on either side of the flat threshold does (property)', () => {
    fc.assert(
      fc.property(anyFees, fc.integer({ min: 1, max: MAX_AMOUNT_KOBO }), (fees, due) => {
        const charge = checkoutAmount(due, 'client', fees);
        const reaches = (c: number) => c >= 0 && referenceNet(c, fees) >= BigInt(due);
        expect(reaches(charge)).toBe(true);
        expect(charge).toBeLessThanOrEqual(due + fees.capKobo);
        // One kobo less fails; below the threshold nothing works when the charge is above it (below it the net never
        // falls as the charge grows, so its largest charge is the best there: checked by the next property).
        expect(reaches(charge - 1)).toBe(false);
        if (charge > fees.flatFromKobo) expect(reaches(fees.flatFromKobo - 1)).toBe(false);
      }),
    );
  });

  it('the net never falls as the charge grows by one kobo, except where the flat part starts (property)', () => {
    fc.assert(
      fc.property(anyFees, fc.integer({ min: 0, max: 2 * MAX_AMOUNT_KOBO }), (fees, charge) => {
        fc.pre(charge + 1 !== fees.flatFromKobo);
        expect(referenceNet(charge + 1, fees) >= referenceNet(charge, fees)).toBe(true);
      }),
    );
  });
});

describe('parseFeePercent', () => {
  it.each([
    ['1.5', 150],
    [1.5, 150],
    [' 2 ', 200],
    ['0.01', 1],
    ['100', 10_000],
    ['0', 0],
  ])('reads %j as %i basis points', (input, units) => {
    expect(parseFeePercent(input)).toEqual({ ok: true, value: units });
  });

  it.each([['1.505'], ['-1'], ['100.01'], ['1e2'], [''], [null], ['1,5']])('refuses %j', (input) => {
    expect(parseFeePercent(input).ok).toBe(false);
  });
});

describe('splitOnlinePayment', () => {
  const facts = { voided: false, fees: DEFAULT_PAYSTACK_FEES } as const;

  it('the client bearing the fee and paying the checkout amount: the invoice is paid, the fee kept, nothing refunded', () => {
    const split = splitOnlinePayment({ ...facts, feeBearer: 'client', amountDueKobo: 100_000, verifiedKobo: 101_523 });
    expect(split).toEqual({ outcome: 'paid', creditKobo: 100_000, refundKobo: 0, clientFeeKobo: 1523 });
  });

  it('a partial cash payment meanwhile: the invoice takes the checkout amount of what is due now, the rest is refunded', () => {
    // ₦1,015.23 was charged for ₦1,000; ₦400 was paid in cash before it was recorded: ₦600 is due, checkout ₦609.14.
    const split = splitOnlinePayment({ ...facts, feeBearer: 'client', amountDueKobo: 60_000, verifiedKobo: 101_523 });
    expect(split).toEqual({ outcome: 'paid', creditKobo: 60_000, refundKobo: 101_523 - 60_914, clientFeeKobo: 914 });
  });

  it('the account bearing the fee: what exceeds the amount due is refunded whole', () => {
    const split = splitOnlinePayment({ ...facts, feeBearer: 'account', amountDueKobo: 60_000, verifiedKobo: 100_000 });
    expect(split).toEqual({ outcome: 'paid', creditKobo: 60_000, refundKobo: 40_000, clientFeeKobo: 0 });
  });

  it.each([
    ['voided', { voided: true, amountDueKobo: 100_000 }],
    ['already paid', { voided: false, amountDueKobo: 0 }],
  ])('a %s invoice: the whole amount is refunded, nothing credited', (_, state) => {
    const split = splitOnlinePayment({ ...facts, ...state, feeBearer: 'client', verifiedKobo: 101_523 });
    expect(split).toEqual({ outcome: 'refunded', creditKobo: 0, refundKobo: 101_523, clientFeeKobo: 0 });
  });

  it('less than expected, the client bearing the fee: a partial payment of what it nets after the fee, never paid', () => {
    const split = splitOnlinePayment({ ...facts, feeBearer: 'client', amountDueKobo: 100_000, verifiedKobo: 50_000 });
    expect(split).toEqual({ outcome: 'partial', creditKobo: 49_250, refundKobo: 0, clientFeeKobo: 750 });
  });

  it('one kobo less than the checkout amount is partial, one kobo short of the amount due', () => {
    const split = splitOnlinePayment({ ...facts, feeBearer: 'client', amountDueKobo: 100_000, verifiedKobo: 101_522 });
    expect(split).toEqual({ outcome: 'partial', creditKobo: 99_999, refundKobo: 0, clientFeeKobo: 1523 });
  });

  it('less than expected, the account bearing the fee: credited whole as a partial payment', () => {
    const split = splitOnlinePayment({ ...facts, feeBearer: 'account', amountDueKobo: 100_000, verifiedKobo: 50_000 });
    expect(split).toEqual({ outcome: 'partial', creditKobo: 50_000, refundKobo: 0, clientFeeKobo: 0 });
  });

  it('an amount the fee would eat whole is refunded rather than kept', () => {
    const split = splitOnlinePayment({ ...facts, feeBearer: 'client', amountDueKobo: 100_000, verifiedKobo: 1 });
    expect(split).toEqual({ outcome: 'refunded', creditKobo: 0, refundKobo: 1, clientFeeKobo: 0 });
  });

  it('adds up, never credits more than is due, and keeps nothing the invoice cannot take (property)', () => {
    const cases = fc.record({
      fees: anyFees,
      feeBearer: fc.constantFrom('account' as const, 'client' as const),
      voided: fc.boolean(),
      amountDueKobo: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: MAX_AMOUNT_KOBO })),
      verifiedKobo: fc.integer({ min: 1, max: 2 * MAX_AMOUNT_KOBO }),
    });
    fc.assert(
      fc.property(cases, (facts) => {
        const split = splitOnlinePayment(facts);
        const { creditKobo, refundKobo, clientFeeKobo, outcome } = split;
        expect(creditKobo + refundKobo + clientFeeKobo).toBe(facts.verifiedKobo);
        expect(Math.min(creditKobo, refundKobo, clientFeeKobo)).toBeGreaterThanOrEqual(0);
        expect(creditKobo).toBeLessThanOrEqual(facts.amountDueKobo);
        if (facts.voided || facts.amountDueKobo === 0) expect(refundKobo).toBe(facts.verifiedKobo);
        if (facts.voided || facts.amountDueKobo === 0) return;
        const capacity = checkoutAmount(facts.amountDueKobo, facts.feeBearer, facts.fees);
        expect(creditKobo + clientFeeKobo).toBeLessThanOrEqual(capacity);
        expect(outcome === 'paid').toBe(facts.verifiedKobo >= capacity);
        expect(outcome === 'paid').toBe(creditKobo === facts.amountDueKobo);
        if (outcome !== 'paid') expect(refundKobo === 0 || creditKobo === 0).toBe(true);
        if (facts.feeBearer === 'account') expect(clientFeeKobo).toBe(0);
      }),
    );
  });
});
