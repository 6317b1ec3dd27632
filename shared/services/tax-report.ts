/**
 * The tax report (docs/tax.md "Tax report"): the period's effective range (payment history's rules) and the sum of the
 * account's tax day rows in it — one Query of at most a row per day and shard, whatever the number of documents.
 */
import { formatDayFirst, toIsoDate } from '../domain/dates.ts';
import { taxReportOf } from '../domain/tax-report.ts';
import { type TaxReportView, taxReportView } from '../representation/report-views.ts';
import type { TaxReportInput } from '../schemas/history.ts';
import { queryTaxDays } from '../store/tax-rows.ts';
import type { RequestContext } from './context.ts';
import { effectiveRange } from './history-listing.ts';

export async function taxReport(context: RequestContext, input: TaxReportInput): Promise<TaxReportView> {
  const range = effectiveRange(context, input);
  const { companyId, currency } = context.account;
  const rows = await queryTaxDays(companyId, toIsoDate(range.from), toIsoDate(range.to));
  const of = { period: input.period, start: formatDayFirst(range.from), end: formatDayFirst(range.to), currency };
  return taxReportView(of, taxReportOf(rows));
}
