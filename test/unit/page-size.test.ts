import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PAGE_ENVELOPE_RESERVE_BYTES,
  PageBudget,
  paymentsThatFit,
  paymentsWorthReading,
} from '../../shared/domain/page-size.ts';
import { noTotals } from '../../shared/domain/period-totals.ts';
import { historyBody } from '../../shared/http/history-page.ts';
import { summaryView } from '../../shared/representation/views.ts';

describe('paymentsThatFit', () => {
  it('keeps every payment of a page under the budget', () => {
    // Prepare
    const sizes = [100, 200, 300];
    // Act / Assess
    expect(paymentsThatFit(sizes, 1_000)).toBe(3);
  });

  it('ends the page before the payment that would exceed the budget (commas counted)', () => {
    expect(paymentsThatFit([400, 400, 400], 801)).toBe(2);
    expect(paymentsThatFit([400, 400, 400], 800)).toBe(1);
  });

  it('reads the sizes lazily and stops at the first that does not fit (so no payment beyond it is serialised)', () => {
    // Prepare
    const read: number[] = [];
    function* sizes() {
      for (const size of [400, 400, 400, 400, 400]) {
        read.push(size);
        yield size;
      }
    }
    // Act
    const fit = paymentsThatFit(sizes(), 801);
    // Assess
    expect(fit).toBe(2);
    expect(read).toHaveLength(3);
  });

  it('always carries at least one payment, even one larger than the budget', () => {
    expect(paymentsThatFit([2_000, 10], 1_000)).toBe(1);
    expect(paymentsThatFit([], 1_000)).toBe(0);
  });

  it('property: the chosen payments fit (or are a single one), and one more would not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5_000 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 50_000 }),
        (sizes, budget) => {
          const n = paymentsThatFit(sizes, budget);
          const bytes = (k: number) => sizes.slice(0, k).reduce((a, b) => a + b, 0) + Math.max(0, k - 1);
          expect(n).toBeLessThanOrEqual(sizes.length);
          if (sizes.length > 0) expect(n).toBeGreaterThanOrEqual(1);
          if (n > 1) expect(bytes(n)).toBeLessThanOrEqual(budget);
          if (n < sizes.length && n >= 1) expect(bytes(n + 1)).toBeGreaterThan(budget);
        },
      ),
    );
  });

  it('keeps a page with its envelope within the documented 5,000,000 bytes (docs/api.md "Limits")', () => {
    const documentedCap = 5_000_000;
    const room = documentedCap - PAGE_ENVELOPE_RESERVE_BYTES;
    // Two payments and their separating comma fill the room exactly; one byte more and the second waits.
    expect(paymentsThatFit([room - 2, 1])).toBe(2);
    expect(paymentsThatFit([room - 1, 1])).toBe(1);
  });
});

describe('PageBudget', () => {
  it('takes payments while they fit and agrees with paymentsThatFit on every sequence', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5_000 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 50_000 }),
        (sizes, budget) => {
          // Prepare
          const page = new PageBudget(budget);
          // Act: take until the first refusal.
          let taken = 0;
          for (const size of sizes) {
            if (!page.take(size)) break;
            taken++;
          }
          // Assess
          expect(taken).toBe(paymentsThatFit(sizes, budget));
          expect(page.count).toBe(taken);
        },
      ),
    );
  });

  it('always takes the first payment, and refuses the next once full', () => {
    const page = new PageBudget(100);
    expect(page.take(500)).toBe(true);
    expect(page.take(1)).toBe(false);
    expect(page.count).toBe(1);
  });
});

describe('paymentsWorthReading', () => {
  it('reads the payments that fit by their recorded sizes, and the next one', () => {
    expect(paymentsWorthReading([400, 400, 400, 400], 801)).toBe(3);
    expect(paymentsWorthReading([400, 400], 801)).toBe(2);
    expect(paymentsWorthReading([], 801)).toBe(0);
  });

  it('counts an unknown size as fitting, so payments recorded before sizes were stored are all read', () => {
    expect(paymentsWorthReading([undefined, undefined, undefined], 10)).toBe(3);
    expect(paymentsWorthReading([undefined, 400, 400, 400], 802)).toBe(4);
  });

  it('property: with exact sizes, it covers the page and reads at most one payment beyond it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5_000 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 50_000 }),
        (sizes, budget) => {
          const fit = paymentsThatFit(sizes, budget);
          const read = paymentsWorthReading(sizes, budget);
          expect(read).toBeGreaterThanOrEqual(fit);
          expect(read).toBeLessThanOrEqual(Math.min(sizes.length, fit + 1));
        },
      ),
    );
  });
});

describe('historyBody', () => {
  it('is byte for byte what JSON.stringify of the envelope gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())), { maxLength: 5 }),
        fc.option(fc.string()),
        (payments, cursor) => {
          const page = {
            period: 'to"day',
            start: '01/01/2026',
            end: '31/01/2026',
            paymentsJson: payments.map((p) => JSON.stringify(p)),
            summary: {
              ...noTotals(),
              count: 2,
              totalKobo: 150,
              byChannelKobo: { ...noTotals().byChannelKobo, POS: 150 },
            },
            next: undefined,
          };
          const expected = JSON.stringify({
            status: 'success',
            data: {
              period: page.period,
              start: page.start,
              end: page.end,
              payments,
              next_cursor: cursor,
              summary: summaryView(page.summary, 'NGN'),
            },
          });
          expect(historyBody(page, cursor, 'NGN')).toBe(expected);
        },
      ),
    );
  });
});
