/**
 * The response shapes of the aging report and the client statement (docs/api.md "Aging", "Client statement"): the
 * only place their records become API JSON.
 */
import { AGING_BUCKETS, type AgingBucket, type AgingTotals } from '../domain/aging.ts';
import { type CalendarDate, formatDayFirst, fromIsoDate } from '../domain/dates.ts';
import type { ClientRecord, Invoice } from '../domain/invoice.ts';
import { formatKobo } from '../domain/money.ts';
import type { StatementLine } from '../domain/statement.ts';
import type { ClientAgingEntry } from '../services/aging-report.ts';
import type { ClientStatement } from '../services/client-statement.ts';
import { clientView, invoiceView } from './views.ts';

/** How a client is named in a report: its company name, else its first and last name. */
export const clientDisplayName = (client: Pick<ClientRecord, 'name' | 'firstName' | 'lastName'>): string =>
  client.name.trim() !== '' ? client.name : `${client.firstName} ${client.lastName}`.trim();

const perBucket = (values: Record<AgingBucket, number>, format: (value: number) => string | number) =>
  Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, format(values[bucket])])) as Record<
    AgingBucket,
    string | number
  >;

/** `total_outstanding`, `buckets` (money) and `counts` (open invoices) of a set of aging rows. */
export function agingTotalsView(totals: AgingTotals) {
  return {
    total_outstanding: formatKobo(totals.totalKobo),
    buckets: perBucket(totals.buckets, formatKobo),
    counts: perBucket(totals.counts, (count) => count),
  };
}

/** One client row of the aging report. */
export function clientAgingView(entry: ClientAgingEntry) {
  return {
    client_id: entry.clientId,
    name: entry.client ? clientDisplayName(entry.client) : '',
    total_outstanding: formatKobo(entry.totals.totalKobo),
    buckets: perBucket(entry.totals.buckets, formatKobo),
  };
}

/** An open invoice as aging lists it: the invoice (with client and items) and its days past due on `today`. */
export const openInvoiceView = (invoice: Invoice, daysOverdue: number, today: CalendarDate) => ({
  ...invoiceView(invoice, { today, withClient: true }),
  days_overdue: daysOverdue,
});

function statementLineView(line: StatementLine) {
  return {
    date: formatDayFirst(fromIsoDate(line.date)),
    type: line.type,
    reference_code: line.referenceCode,
    description: line.description,
    debit: formatKobo(line.debitKobo),
    credit: formatKobo(line.creditKobo),
    balance: formatKobo(line.balanceKobo),
  };
}

/** `POST /clients/{id}/statement`'s `data`. */
export function statementView(result: ClientStatement, currency: string) {
  const { statement } = result;
  return {
    client: clientView(result.client),
    period: result.period,
    start: result.start,
    end: result.end,
    currency,
    opening_balance: formatKobo(statement.openingKobo),
    lines: statement.lines.map(statementLineView),
    closing_balance: formatKobo(statement.closingKobo),
  };
}
