import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyCreditAmount,
  type ClientCredit,
  NO_CREDIT,
  planCreditRefund,
  receiveCredit,
  returnAppliedCredit,
  returnFailedRefund,
} from '../../shared/domain/client-credit.ts';

/** balance = received − applied − refunded, and the transfers' parts never exceed the balance. */
const holds = (credit: ClientCredit) => {
  const references = credit.sources.map((source) => source.reference);
  if (new Set(references).size !== references.length) return false;
  const sourced = credit.sources.reduce((sum, source) => sum + source.amountKobo, 0);
  return (
    credit.balanceKobo === credit.receivedKobo - credit.appliedKobo - credit.refundedKobo &&
    credit.balanceKobo >= 0 &&
    sourced <= credit.balanceKobo &&
    credit.sources.every((source) => source.amountKobo > 0)
  );
};

type Step =
  | { kind: 'receive'; amount: number; fromTransfer: boolean }
  | { kind: 'apply'; share: number }
  | { kind: 'refund'; share: number; fails: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('receive' as const),
    amount: fc.integer({ min: 1, max: 500_000 }),
    fromTransfer: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('apply' as const), share: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant('refund' as const),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
    fails: fc.boolean(),
  }),
);

describe('client credit', () => {
  it('keeps balance = received − applied − refunded through any receipts, applications and (failed) refunds', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let credit = NO_CREDIT;
        let transfers = 0;
        for (const s of steps) {
          if (s.kind === 'receive') {
            credit = receiveCredit(credit, s.amount, s.fromTransfer ? `ref${transfers++}` : undefined);
            continue;
          }
          const amount = Math.floor(credit.balanceKobo * s.share);
          if (amount === 0) continue;
          if (s.kind === 'apply') {
            credit = applyCreditAmount(credit, amount);
            continue;
          }
          const plan = planCreditRefund(credit, amount);
          if (!plan.ok) return false;
          credit = plan.value.credit;
          if (!holds(credit)) return false;
          if (s.fails) for (const part of plan.value.throughPaystack) credit = returnFailedRefund(credit, part);
        }
        return holds(credit);
      }),
    );
  });

  it('a failed refund puts back exactly what the refund took: balance, refunded and the transfer part', () => {
    const received = receiveCredit(NO_CREDIT, 100_000, 'ref1');
    const plan = planCreditRefund(received, 40_000);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.value.throughPaystack).toEqual([{ reference: 'ref1', amountKobo: 40_000 }]);
    const back = returnFailedRefund(plan.value.credit, plan.value.throughPaystack[0]!);
    expect(back).toMatchObject({ balanceKobo: 100_000, receivedKobo: 100_000, refundedKobo: 0 });
    expect(back.sources).toEqual([{ reference: 'ref1', amountKobo: 100_000 }]);
    expect(() => returnFailedRefund(back, { reference: 'ref1', amountKobo: 1 })).toThrow(RangeError);
  });

  it('a payment from credit reversed gives its amount back: the balance is whole again, never above what was applied', () => {
    const applied = applyCreditAmount(receiveCredit(NO_CREDIT, 100_000, 'ref1'), 40_000);
    const back = returnAppliedCredit(applied, 40_000);
    expect(back).toMatchObject({ balanceKobo: 100_000, receivedKobo: 100_000, appliedKobo: 0, refundedKobo: 0 });
    expect(back.balanceKobo).toBe(back.receivedKobo - back.appliedKobo - back.refundedKobo);
    expect(() => returnAppliedCredit(back, 1)).toThrow(RangeError);
  });
});
