/**
 * The tax report's day rows (docs/data-design.md "Tax report"): one small row per account, day and shard, changed by an
 * ADD in the same transaction as the invoice, credit note, void, payment or reversal it counts, and summed for a period
 * with one Query over the account's partition. Shards as the aging rows: 0 on a write's first attempt, another after a
 * cancelled one (receivables.ts `agingShard`), so an account without collisions keeps one row a day.
 */
import { noTaxFigures, type TaxFigures } from '../domain/tax-report.ts';
import { tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { keys, taxDayKeys } from './keys.ts';
import { queryAll } from './query-all.ts';
import { agingShard } from './receivables.ts';
import type { TransactItem } from './write-executor.ts';

/** The row's attribute of each counted figure (kobo or a count). */
const ATTRIBUTES = {
  zeroRatedKobo: 'zero_rated',
  exemptKobo: 'exempt',
  outsideVatKobo: 'outside_vat',
  discountKobo: 'discount',
  whtKobo: 'wht',
  invoices: 'invoices',
  creditNotes: 'credit_notes',
  voids: 'voids',
  whtPayments: 'wht_payments',
  whtReversals: 'wht_reversals',
} as const satisfies Record<Exclude<keyof TaxFigures, 'standard'>, string>;

const FIGURES = Object.keys(ATTRIBUTES) as (keyof typeof ATTRIBUTES)[];

/** A rate's attributes: `std_taxable_75000` and `std_vat_75000` (the rate in ten-thousandths of a percent). */
const TAXABLE_PREFIX = 'std_taxable_';
const VAT_PREFIX = 'std_vat_';

/** The non-zero attributes of `figures`, by name. */
function attributesOf(figures: TaxFigures): Record<string, number> {
  const attributes: Record<string, number> = {};
  for (const name of FIGURES) if (figures[name] !== 0) attributes[ATTRIBUTES[name]] = figures[name];
  for (const [rate, amounts] of Object.entries(figures.standard)) {
    attributes[`${TAXABLE_PREFIX}${rate}`] = amounts.taxableKobo;
    attributes[`${VAT_PREFIX}${rate}`] = amounts.vatKobo;
  }
  return attributes;
}

/** The ADD of `figures` to the account's row of `isoDate` (created by its first ADD); nothing for no figures. */
export function taxDayUpdate(
  companyId: number,
  isoDate: string,
  figures: TaxFigures | undefined,
  attempt: number,
): TransactItem[] {
  if (!figures) return [];
  const attributes = Object.entries(attributesOf(figures));
  const names: Record<string, string> = { '#entity': 'entity' };
  const values: Record<string, unknown> = { ':entity': 'tax_day' };
  const adds = attributes.map(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    return `#a${index} :a${index}`;
  });
  return [
    {
      Update: {
        TableName: tableName(),
        Key: keys.taxDay(companyId, isoDate, agingShard(attempt)),
        UpdateExpression: `SET #entity = :entity${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
}

const numberOf = (value: unknown): number => (typeof value === 'number' ? value : 0);

export function taxFiguresFromItem(item: Item): TaxFigures {
  const figures = noTaxFigures();
  for (const name of FIGURES) figures[name] = numberOf(item[ATTRIBUTES[name]]);
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith(TAXABLE_PREFIX)) continue;
    const rate = name.slice(TAXABLE_PREFIX.length);
    figures.standard[rate] = { taxableKobo: numberOf(value), vatKobo: numberOf(item[`${VAT_PREFIX}${rate}`]) };
  }
  return figures;
}

/** A whole row as the ADDs leave it after counting `figures`. Pure: for writing rows directly (the bench's seeding). */
export const taxDayItem = (companyId: number, isoDate: string, shard: number, figures: TaxFigures): Item => ({
  ...keys.taxDay(companyId, isoDate, shard),
  entity: 'tax_day',
  ...attributesOf(figures),
});

/**
 * Every row of the account's days in [`from`, `to`] (YYYY-MM-DD, inclusive), read consistently so that every document
 * acknowledged before the call is counted. A year is 366 days of one row each, more only on days writes collided.
 */
export async function queryTaxDays(companyId: number, from: string, to: string): Promise<TaxFigures[]> {
  const items = await queryAll({
    KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': taxDayKeys.partition(companyId),
      ':from': taxDayKeys.rangeStart(from),
      ':to': taxDayKeys.rangeEnd(to),
    },
  });
  return items.map(taxFiguresFromItem);
}
