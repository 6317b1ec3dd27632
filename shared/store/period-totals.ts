/**
 * Period totals in the table (docs/data-design.md "Period totals"): one small row per account, day
 * and shard, changed by an ADD in the same transaction as the payment or reversal it counts, and summed for a range
 * with one Query over the account's partition.
 */
import { fromEpochSeconds, toIsoDate } from '../domain/dates.ts';
import { type PaymentRecord, TOTALS_CHANNELS, type TotalsChannel } from '../domain/payment-record.ts';
import { type Totals, type TotalsDelta, totalsShard } from '../domain/period-totals.ts';
import type { Item } from './items.ts';
import { dayTotalsKeys, keys } from './keys.ts';
import { queryAll } from './query-all.ts';
import type { TransactItem } from './write-executor.ts';

const channelAttribute = (channel: TotalsChannel): string => `channel_${channel}`;

/** The withholding tax of a day's payments (docs/tax.md "Withholding tax"); absent on rows without any. */
const WHT_TOTAL = 'wht_total';

/** The ADD of `delta` to the row of the payment's day and shard (created by its first ADD). */
export function dayTotalsUpdate(table: string, payment: PaymentRecord, delta: TotalsDelta): TransactItem {
  const day = toIsoDate(fromEpochSeconds(payment.transactionDate));
  // Withholding tax only when there is some: the rows of payments without it stay as they were.
  const wht = delta.whtKobo === 0 ? undefined : delta.whtKobo;
  return {
    Update: {
      TableName: table,
      Key: keys.dayTotals(payment.companyId, day, totalsShard(payment.id)),
      UpdateExpression:
        'SET #entity = :entity, #company = :company ' +
        'ADD #count :count, #total :total, #channel :total_by_channel, #reversed_count :reversed_count, #reversed_total :reversed_total' +
        (wht === undefined ? '' : ', #wht_total :wht_total'),
      // Every name through a placeholder: some (TOTAL, COUNT) are DynamoDB reserved words.
      ExpressionAttributeNames: {
        '#entity': 'entity',
        '#company': 'company_id',
        '#count': 'payments_count',
        '#total': 'total',
        '#channel': channelAttribute(delta.channel),
        '#reversed_count': 'reversed_count',
        '#reversed_total': 'reversed_total',
        ...(wht === undefined ? {} : { '#wht_total': WHT_TOTAL }),
      },
      ExpressionAttributeValues: {
        ':entity': 'day_totals',
        ':company': payment.companyId,
        ':count': delta.count,
        ':total': delta.totalKobo,
        ':total_by_channel': delta.totalKobo,
        ':reversed_count': delta.reversedCount,
        ':reversed_total': delta.reversedTotalKobo,
        ...(wht === undefined ? {} : { ':wht_total': wht }),
      },
    },
  };
}

/**
 * A whole day row as `dayTotalsUpdate`'s ADDs leave it after counting `totals` (the same attributes; a channel's
 * amount only for a channel that has one, as an ADD creates it only then). Pure: for writing rows directly (the
 * bench's seeding, which bypasses the API).
 */
export function dayTotalsItem(companyId: number, isoDate: string, shard: number, totals: Totals): Item {
  const channels = Object.fromEntries(
    TOTALS_CHANNELS.filter((channel) => totals.byChannelKobo[channel] !== 0).map((channel) => [
      channelAttribute(channel),
      totals.byChannelKobo[channel],
    ]),
  );
  return {
    ...keys.dayTotals(companyId, isoDate, shard),
    entity: 'day_totals',
    company_id: companyId,
    payments_count: totals.count,
    total: totals.totalKobo,
    ...channels,
    reversed_count: totals.reversedCount,
    reversed_total: totals.reversedTotalKobo,
    ...(totals.whtTotalKobo === 0 ? {} : { [WHT_TOTAL]: totals.whtTotalKobo }),
  };
}

const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);

function totalsFromItem(item: Item): Totals {
  const byChannelKobo = Object.fromEntries(
    TOTALS_CHANNELS.map((channel) => [channel, numberOf(item[channelAttribute(channel)])]),
  ) as Record<TotalsChannel, number>;
  return {
    count: numberOf(item.payments_count),
    totalKobo: numberOf(item.total),
    byChannelKobo,
    reversedCount: numberOf(item.reversed_count),
    reversedTotalKobo: numberOf(item.reversed_total),
    whtTotalKobo: numberOf(item[WHT_TOTAL]),
  };
}

/**
 * Every row of the account's days in [`from`, `to`] (YYYY-MM-DD, inclusive), read consistently so that every payment
 * acknowledged before the call is counted. A year is at most 366 × TOTALS_SHARDS small rows: one page.
 */
export async function queryDayTotals(companyId: number, from: string, to: string): Promise<Totals[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': dayTotalsKeys.partition(companyId),
      ':from': dayTotalsKeys.rangeStart(from),
      ':to': dayTotalsKeys.rangeEnd(to),
    },
  });
  return items.map(totalsFromItem);
}
