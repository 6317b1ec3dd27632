/** Pure rules of period totals (docs/data-design.md "Period totals"). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHANNELS, type PaymentRecord } from '../../shared/domain/payment-record.ts';
import {
  noTotals,
  recordedDelta,
  reversedDelta,
  sumTotals,
  TOTALS_SHARDS,
  type Totals,
  totalsShard,
} from '../../shared/domain/period-totals.ts';
import { dayTotalsItem, dayTotalsUpdate } from '../../shared/store/period-totals.ts';

const payment = (overrides: Partial<PaymentRecord> = {}): PaymentRecord => ({
  id: 9,
  companyId: 1,
  clientId: 2,
  invoiceId: 3,
  referenceCode: 'REFERENCEREFERENCE01',
  amountKobo: 1_500,
  currency: 'NGN',
  transactionDate: 86_400,
  channel: 'POS',
  createdAt: '2026-01-02 10:00:00',
  recordedId: '01J',
  inTotals: true,
  ...overrides,
});

/** A day row holding exactly what a delta adds to an empty row. */
const rowOf = (delta: ReturnType<typeof recordedDelta>): Totals => {
  const row = noTotals();
  row.count = delta.count;
  row.totalKobo = delta.totalKobo;
  row.byChannelKobo[delta.channel] = delta.totalKobo;
  row.reversedCount = delta.reversedCount;
  row.reversedTotalKobo = delta.reversedTotalKobo;
  return row;
};

describe('deltas', () => {
  it('a payment adds itself to its channel; its reversal takes it back out and adds it to the reversed totals', () => {
    // Prepare
    const recorded = payment();
    // Act
    const sum = sumTotals([rowOf(recordedDelta(recorded)), rowOf(reversedDelta(recorded))]);
    // Assess
    expect(sum).toEqual({ ...noTotals(), reversedCount: 1, reversedTotalKobo: 1_500 });
  });

  it('reversing a payment recorded before totals were kept only adds it to the reversed totals', () => {
    expect(reversedDelta(payment({ inTotals: undefined }))).toEqual({
      count: 0,
      totalKobo: 0,
      channel: 'POS',
      reversedCount: 1,
      reversedTotalKobo: 1_500,
      whtKobo: 0,
    });
  });

  it("counts an online payment's Card and USSD by name, and a channel only Paystack reports as Other", () => {
    expect(recordedDelta(payment({ channel: 'Card' })).channel).toBe('Card');
    expect(recordedDelta(payment({ channel: 'USSD' })).channel).toBe('USSD');
    expect(recordedDelta(payment({ channel: 'mobile_money' })).channel).toBe('Other');
  });
});

describe('totalsShard', () => {
  it('puts consecutive payment ids on different shards', () => {
    const shards = Array.from({ length: TOTALS_SHARDS }, (_, i) => totalsShard(1_000 + i));
    expect(new Set(shards).size).toBe(TOTALS_SHARDS);
  });
});

describe('sumTotals', () => {
  it('property: the sum of the rows of any payments and reversals is their non-reversed total by channel', () => {
    const made = fc.array(
      fc.record({
        amountKobo: fc.integer({ min: 1, max: 99_999_999_999_999 }),
        channel: fc.constantFrom(...CHANNELS),
        reversed: fc.boolean(),
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(made, (payments) => {
        const rows = payments.flatMap((p, id) => {
          const record = payment({ id, amountKobo: p.amountKobo, channel: p.channel });
          return p.reversed
            ? [rowOf(recordedDelta(record)), rowOf(reversedDelta(record))]
            : [rowOf(recordedDelta(record))];
        });
        const sum = sumTotals(rows);
        const standing = payments.filter((p) => !p.reversed);
        expect(sum.count).toBe(standing.length);
        expect(sum.totalKobo).toBe(standing.reduce((s, p) => s + p.amountKobo, 0));
        for (const channel of CHANNELS)
          expect(sum.byChannelKobo[channel]).toBe(
            standing.filter((p) => p.channel === channel).reduce((s, p) => s + p.amountKobo, 0),
          );
        expect(sum.reversedTotalKobo).toBe(payments.filter((p) => p.reversed).reduce((s, p) => s + p.amountKobo, 0));
      }),
    );
  });
});

describe('dayTotalsItem', () => {
  /** The row `dayTotalsUpdate`'s SET and ADD leave, applied to an absent row, one delta after another. */
  function applyUpdates(deltas: { payment: PaymentRecord; delta: ReturnType<typeof recordedDelta> }[]) {
    const row: Record<string, unknown> = {};
    for (const { payment: p, delta } of deltas) {
      const {
        Key,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      } = dayTotalsUpdate('t', p, delta).Update as unknown as {
        Key: Record<string, string>;
        ExpressionAttributeNames: Record<string, string>;
        ExpressionAttributeValues: Record<string, unknown>;
      };
      Object.assign(row, Key, { entity: values[':entity'], company_id: values[':company'] });
      const add = (name: string, value: unknown) => {
        row[names[name]!] = ((row[names[name]!] as number | undefined) ?? 0) + (value as number);
      };
      add('#count', values[':count']);
      add('#total', values[':total']);
      add('#channel', values[':total_by_channel']);
      add('#reversed_count', values[':reversed_count']);
      add('#reversed_total', values[':reversed_total']);
    }
    return row;
  }

  it('is the row the payments’ own ADDs would have left (same keys, attributes and values)', () => {
    const a = payment({ id: 9, channel: 'POS', amountKobo: 1_500 });
    const b = payment({ id: 17, channel: 'Cash', amountKobo: 2_000 });
    const c = payment({ id: 25, channel: 'POS', amountKobo: 700 });
    const byUpdates = applyUpdates([a, b, c].map((p) => ({ payment: p, delta: recordedDelta(p) })));
    const totals = sumTotals(
      [a, b, c].map((p) => ({
        ...noTotals(),
        count: 1,
        totalKobo: p.amountKobo,
        byChannelKobo: { ...noTotals().byChannelKobo, [p.channel]: p.amountKobo },
      })),
    );
    expect(dayTotalsItem(1, '1970-01-02', totalsShard(9), totals)).toEqual(byUpdates);
  });
});
