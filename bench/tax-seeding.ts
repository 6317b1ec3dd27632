/**
 * The VAT account's year of tax day rows (docs/data-design.md "Tax report"), written directly: one row for each of the
 * 366 days the 'tax report (year)' row asks for, as a year of daily invoicing leaves them, so that the row reads what
 * a real year costs (one Query over ~366 small rows) whatever the number of invoices behind them.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { addDays, toIsoDate } from '../shared/domain/dates.ts';
import { noTaxFigures } from '../shared/domain/tax-report.ts';
import { taxDayItem } from '../shared/store/tax-rows.ts';
import { SMALL_TABLE } from './config.ts';
import { batchWriteAll } from './replay.ts';
import { TAX_YEAR_DAYS, TODAY } from './requests.ts';

export async function seedTaxYear(client: DynamoDBDocumentClient, companyId: number): Promise<void> {
  const items = Array.from({ length: TAX_YEAR_DAYS }, (_, back) => {
    const figures = {
      ...noTaxFigures(),
      standard: { '75000': { taxableKobo: 1_000_000, vatKobo: 75_000 } },
      zeroRatedKobo: 50_000,
      exemptKobo: 20_000,
      discountKobo: 5_000,
      whtKobo: 10_000,
      invoices: 10,
      creditNotes: 1,
      whtPayments: 2,
    };
    return { table: SMALL_TABLE, item: taxDayItem(companyId, toIsoDate(addDays(TODAY, -back)), 0, figures) };
  });
  await batchWriteAll(client, items, 4);
}
