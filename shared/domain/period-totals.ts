/**
 * Period totals (docs/data-design.md "Period totals"), pure: what one payment or one reversal adds to its day, and a
 * range's summary as the sum of its day rows. The store keeps one row per account, day and shard (docs/data-design.md
 * "Period totals"): a payment's transaction touches the row of its own shard, so an account's concurrent payments
 * rarely touch the same item (DynamoDB cancels concurrent transactions on one item).
 */
import { type PaymentRecord, TOTALS_CHANNELS, type TotalsChannel } from './payment-record.ts';

/** Rows per account and day. Consecutive payment ids land on different shards, so a burst of payments spreads out. */
export const TOTALS_SHARDS = 8;

/** What a range of days collected: non-reversed payments by channel, and what was reversed. Amounts in kobo. */
export interface Totals {
  count: number;
  totalKobo: number;
  byChannelKobo: Record<TotalsChannel, number>;
  reversedCount: number;
  reversedTotalKobo: number;
  /** Withholding tax deducted by clients on the non-reversed payments (docs/tax.md "Withholding tax"). */
  whtTotalKobo: number;
}

/** A change to one day's row; `channel` names the by-channel amount it changes. */
export interface TotalsDelta {
  count: number;
  totalKobo: number;
  channel: TotalsChannel;
  reversedCount: number;
  reversedTotalKobo: number;
  whtKobo: number;
}

export const totalsShard = (paymentId: number): number => paymentId % TOTALS_SHARDS;

/** The channel a payment counts under: its own when totals name it, else `Other` (a channel only Paystack reports). */
const channelOf = (payment: PaymentRecord): TotalsChannel =>
  TOTALS_CHANNELS.find((name) => name === payment.channel) ?? 'Other';

/** A recorded payment counts once in its day. */
export const recordedDelta = (payment: PaymentRecord): TotalsDelta => ({
  count: 1,
  totalKobo: payment.amountKobo,
  channel: channelOf(payment),
  reversedCount: 0,
  reversedTotalKobo: 0,
  whtKobo: payment.whtKobo ?? 0,
});

/**
 * A reversal moves the payment from the collected totals to the reversed ones. A payment recorded before totals were
 * kept (`inTotals` unset) was never counted, so its reversal only adds it to the reversed totals.
 */
export const reversedDelta = (payment: PaymentRecord): TotalsDelta => {
  const counted = payment.inTotals === true;
  return {
    count: counted ? -1 : 0,
    totalKobo: counted ? -payment.amountKobo : 0,
    channel: channelOf(payment),
    reversedCount: 1,
    reversedTotalKobo: payment.amountKobo,
    // Its withholding tax leaves the total withheld (`reversed_total` stays the amounts paid).
    whtKobo: counted ? -(payment.whtKobo ?? 0) : 0,
  };
};

export const noTotals = (): Totals => ({
  count: 0,
  totalKobo: 0,
  byChannelKobo: { Cash: 0, BankTransfer: 0, POS: 0, Cheque: 0, Card: 0, USSD: 0, Other: 0 },
  reversedCount: 0,
  reversedTotalKobo: 0,
  whtTotalKobo: 0,
});

/** The summary of a range: the sum of its day rows (any order, any number of shards). */
export function sumTotals(rows: readonly Totals[]): Totals {
  const sum = noTotals();
  for (const row of rows) {
    sum.count += row.count;
    sum.totalKobo += row.totalKobo;
    sum.reversedCount += row.reversedCount;
    sum.reversedTotalKobo += row.reversedTotalKobo;
    sum.whtTotalKobo += row.whtTotalKobo;
    for (const channel of TOTALS_CHANNELS) sum.byChannelKobo[channel] += row.byChannelKobo[channel];
  }
  return sum;
}
