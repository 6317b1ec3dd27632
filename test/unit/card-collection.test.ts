import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  afterDecline,
  CHARGE_JOB_ID_PATTERN,
  type CollectionState,
  chargeJobId,
  chargeOutcome,
  collectionDue,
  firstCollectionDay,
  MAX_COLLECTION_ATTEMPTS,
} from '../../shared/domain/card-collection.ts';
import { addDays, type CalendarDate, compareDates } from '../../shared/domain/dates.ts';

const day = (iso: string): CalendarDate => {
  const [year, month, dayOfMonth] = iso.split('-').map(Number) as [number, number, number];
  return { year, month, day: dayOfMonth };
};

describe('firstCollectionDay', () => {
  it('is the due date, or the creation day when the invoice is created on or after it', () => {
    expect(firstCollectionDay(day('2026-03-10'), day('2026-03-01'))).toEqual(day('2026-03-10'));
    expect(firstCollectionDay(day('2026-03-10'), day('2026-03-12'))).toEqual(day('2026-03-12'));
  });
});

describe('afterDecline', () => {
  it('retries 1, 3 and 7 days after the first attempt, then fails', () => {
    // Prepare
    const first = day('2026-03-10');
    // Act
    const one = afterDecline(undefined, first, 'Insufficient Funds');
    const two = afterDecline(one, one.nextAttempt!, 'Insufficient Funds');
    const three = afterDecline(two, two.nextAttempt!, 'Declined');
    const four = afterDecline(three, three.nextAttempt!, 'Expired Card');
    // Assess
    expect([one, two, three].map((s) => [s.status, s.attempts, s.nextAttempt])).toEqual([
      ['retrying', 1, day('2026-03-11')],
      ['retrying', 2, day('2026-03-13')],
      ['retrying', 3, day('2026-03-17')],
    ]);
    expect(four).toEqual({
      status: 'failed',
      attempts: 4,
      lastError: 'Expired Card',
      nextAttempt: null,
      firstAttempt: first,
    });
  });

  it('a late retry keeps the schedule, but never tries twice on one day', () => {
    // Prepare: the retry due on the 11th ran on the 14th (the sweep was down), after the 13th's turn.
    const one = afterDecline(undefined, day('2026-03-10'), 'Declined');
    // Act
    const two = afterDecline(one, day('2026-03-14'), 'Declined');
    const three = afterDecline(two, day('2026-03-15'), 'Declined');
    // Assess
    expect(two.nextAttempt).toEqual(day('2026-03-15'));
    expect(three.nextAttempt).toEqual(day('2026-03-17'));
  });

  it('makes at most four attempts, one a day at most, within the schedule (property)', () => {
    const start = fc.integer({ min: 0, max: 20_000 }).map((n) => addDays(day('1990-01-01'), n));
    const delays = fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 6, maxLength: 6 });
    fc.assert(
      fc.property(start, delays, (first, lateBy) => {
        let state: CollectionState | undefined;
        let attemptDay = first;
        for (const late of lateBy) {
          if (state?.status === 'failed') break;
          const previous = attemptDay;
          state = afterDecline(state, attemptDay, 'Declined');
          if (state.nextAttempt === null) break;
          expect(compareDates(state.nextAttempt, previous)).toBe(1);
          attemptDay = addDays(state.nextAttempt, late);
        }
        expect(state?.status).toBe('failed');
        expect(state?.attempts).toBe(MAX_COLLECTION_ATTEMPTS);
      }),
    );
  });
});

describe('collectionDue', () => {
  const firstDay = day('2026-03-10');
  const retrying = afterDecline(undefined, firstDay, 'Declined');

  it.each([
    ['before the first day', { state: undefined, today: day('2026-03-09') }, false],
    ['on the first day', { state: undefined, today: firstDay }, true],
    ['after the first day (a late sweep)', { state: undefined, today: day('2026-03-12') }, true],
    ['retrying, before the next attempt', { state: retrying, today: firstDay }, false],
    ['retrying, on the next attempt', { state: retrying, today: day('2026-03-11') }, true],
  ])('%s: %j → %s', (_, facts, due) => {
    expect(collectionDue({ open: true, firstDay, ...facts })).toBe(due);
  });

  it('nothing once failed, nor on an invoice paid by other means or voided', () => {
    const failed: CollectionState = { ...retrying, status: 'failed', nextAttempt: null };
    expect(collectionDue({ open: true, firstDay, state: failed, today: day('2026-04-01') })).toBe(false);
    expect(collectionDue({ open: false, firstDay, state: undefined, today: firstDay })).toBe(false);
    expect(collectionDue({ open: false, firstDay, state: retrying, today: day('2026-03-11') })).toBe(false);
  });
});

describe('chargeJobId', () => {
  it('one id per invoice and attempt, each a valid job id; different invoices or attempts never share one', () => {
    const code = fc.stringMatching(/^[A-Za-z0-9]{20}$/);
    const attempt = fc.integer({ min: 1, max: MAX_COLLECTION_ATTEMPTS });
    fc.assert(
      fc.property(code, attempt, code, attempt, (a, n, b, m) => {
        expect(CHARGE_JOB_ID_PATTERN.test(chargeJobId(a, n))).toBe(true);
        expect(chargeJobId(a, n) === chargeJobId(b, m)).toBe(a === b && n === m);
      }),
    );
  });

  it('is not taken for another kind’s id', () => {
    expect(CHARGE_JOB_ID_PATTERN.test('rfj_01JZ0000000000000000000001')).toBe(false);
    expect(CHARGE_JOB_ID_PATTERN.test('chg_ABC_0')).toBe(false);
  });
});

describe('chargeOutcome', () => {
  it.each([
    ['success', 'paid'],
    ['failed', 'declined'],
    ['reversed', 'declined'],
    ['abandoned', 'declined'],
    ['pending', 'pending'],
    ['ongoing', 'pending'],
    ['send_otp', 'pending'],
  ])("Paystack's %s → %s", (status, outcome) => {
    expect(chargeOutcome(status)).toBe(outcome);
  });
});
