/** Pure rules of aging (docs/api.md "Aging"): days past due, buckets, totals of rows, client rows and their pages. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AGING_BUCKETS,
  type AgingRow,
  agingByClient,
  agingTotals,
  bucketDueDateBounds,
  bucketOf,
  type ClientAgingRow,
  clientPage,
  daysOverdue,
  openDueDateSpan,
  totalUnappliedCredit,
} from '../../shared/domain/aging.ts';
import { addDays, type CalendarDate, compareDates, fromIsoDate, toIsoDate } from '../../shared/domain/dates.ts';
import { AGING_SHARDS, agingShard } from '../../shared/store/receivables.ts';

const asOf: CalendarDate = { year: 2026, month: 3, day: 31 };
const daysAgo = (days: number) => toIsoDate(addDays(asOf, -days));

describe('days past due and buckets', () => {
  it('counts from the day after the due date: the due date itself is current', () => {
    expect(daysOverdue(asOf, asOf)).toBe(0);
    expect(daysOverdue(addDays(asOf, 9), asOf)).toBe(0);
    expect(daysOverdue(addDays(asOf, -1), asOf)).toBe(1);
    expect(daysOverdue({ year: 2025, month: 12, day: 31 }, asOf)).toBe(90);
  });

  it('puts each boundary in its bucket', () => {
    const cases: [number, string][] = [
      [0, 'current'],
      [1, '1_30'],
      [30, '1_30'],
      [31, '31_60'],
      [60, '31_60'],
      [61, '61_90'],
      [90, '61_90'],
      [91, 'over_90'],
      [4000, 'over_90'],
    ];
    for (const [days, bucket] of cases) expect(bucketOf(days), String(days)).toBe(bucket);
  });

  it('a bucket’s due-date range holds exactly the dates of that bucket (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400, max: 400 }), fc.constantFrom(...AGING_BUCKETS), (offset, bucket) => {
        const due = addDays(asOf, -offset);
        const { from, to } = bucketDueDateBounds(bucket, asOf);
        const inRange =
          (from === undefined || compareDates(due, fromIsoDate(from)) >= 0) &&
          (to === undefined || compareDates(due, fromIsoDate(to)) <= 0);
        expect(inRange).toBe(bucketOf(daysOverdue(due, asOf)) === bucket);
      }),
    );
  });
});

const rowArbitrary = fc.record({
  dueDate: fc.integer({ min: -200, max: 60 }).map((offset) => daysAgo(offset)),
  outstandingKobo: fc.integer({ min: -5_000_000, max: 5_000_000 }),
  openCount: fc.integer({ min: -3, max: 3 }),
});

describe('totals of rows', () => {
  it('buckets sum exactly to the total, whatever rows, shards or order (property)', () => {
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 60 }), (rows: AgingRow[]) => {
        const totals = agingTotals(rows, asOf);
        const sum = AGING_BUCKETS.reduce((s, bucket) => s + totals.buckets[bucket], 0);
        expect(sum).toBe(totals.totalKobo);
        expect(totals.totalKobo).toBe(rows.reduce((s, row) => s + row.outstandingKobo, 0));
        expect(agingTotals([...rows].reverse(), asOf)).toEqual(totals);
      }),
    );
  });

  it('adds the shards of one due date into its bucket', () => {
    const rows = [
      { dueDate: daysAgo(45), outstandingKobo: 1_000, openCount: 1 },
      { dueDate: daysAgo(45), outstandingKobo: -400, openCount: 0 },
      { dueDate: daysAgo(0), outstandingKobo: 50, openCount: 2 },
    ];
    const totals = agingTotals(rows, asOf);
    expect(totals.buckets).toEqual({ current: 50, '1_30': 0, '31_60': 600, '61_90': 0, over_90: 0 });
    expect(totals.counts).toEqual({ current: 2, '1_30': 0, '31_60': 1, '61_90': 0, over_90: 0 });
  });
});

describe('client rows', () => {
  const row = (clientId: number, outstandingKobo: number, offset = 0, openCount = 1): ClientAgingRow => ({
    clientId,
    dueDate: daysAgo(offset),
    outstandingKobo,
    openCount,
  });

  it('largest outstanding first, ties by client id, clients with nothing left out', () => {
    const clients = agingByClient(
      [row(1, 100), row(2, 300), row(3, 100), row(4, 0, 0, 0), row(2, -300, 5, -1), row(5, 250, 40), row(5, 50)],
      asOf,
    );
    expect(clients.map((c) => [c.clientId, c.totals.totalKobo])).toEqual([
      [5, 300],
      [1, 100],
      [3, 100],
    ]);
    expect(clients[0]!.totals.buckets['31_60']).toBe(250);
  });

  it('unapplied credit: on the client rows that have it, and a row of its own for a client owing nothing', () => {
    const credits = new Map([
      [2, 5_000],
      [7, 1_200],
      [8, 0],
    ]);
    const clients = agingByClient([row(1, 100), row(2, 300), row(4, 0, 0, 0)], asOf, credits);
    expect(clients.map((c) => [c.clientId, c.totals.totalKobo, c.unappliedCreditKobo])).toEqual([
      [2, 300, 5_000],
      [1, 100, 0],
      [7, 0, 1_200],
    ]);
    expect(totalUnappliedCredit(credits)).toBe(6_200);
  });

  it('pages cover every client once, in order, whatever the page size (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 1_000 })), { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        (pairs, limit) => {
          const sorted = agingByClient(
            pairs.map(([clientId, kobo]) => row(clientId, kobo)),
            asOf,
          );
          const seen: number[] = [];
          let position: Parameters<typeof clientPage>[2];
          do {
            const page = clientPage(sorted, limit, position);
            expect(page.clients.length).toBeLessThanOrEqual(limit);
            seen.push(...page.clients.map((c) => c.clientId));
            position = page.next;
          } while (position);
          expect(seen).toEqual(sorted.map((c) => c.clientId));
        },
      ),
    );
  });

  it('the span of open due dates ignores dates whose invoices all closed', () => {
    expect(openDueDateSpan([row(1, 0, 10, 0), row(1, 5, 3), row(1, 5, 1, 1), row(1, -5, 1, -1)])).toEqual({
      from: daysAgo(3),
      to: daysAgo(3),
    });
    expect(openDueDateSpan([row(1, 0, 10, 0)])).toBeUndefined();
  });
});

describe('the aging row a write adds to', () => {
  it('shard 0 on a first attempt; after a cancelled one, any of the others', () => {
    expect(agingShard(1)).toBe(0);
    expect(agingShard(2, () => 0)).toBe(1);
    expect(agingShard(2, () => 0.9999999)).toBe(AGING_SHARDS - 1);
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 50 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, r) => {
          const shard = agingShard(attempt, () => r);
          expect(shard).toBeGreaterThanOrEqual(1);
          expect(shard).toBeLessThan(AGING_SHARDS);
        },
      ),
    );
  });
});
