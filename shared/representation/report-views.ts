/**
 * The API objects of the aging report and the client statement (docs/api.md "Aging", "Client statement"): the only
 * place their records become API JSON. The services call these; shared/http wraps them (JSON envelope or CSV).
 */
import { AGING_BUCKETS, type AgingBucket, type AgingTotals, type ClientAging } from '../domain/aging.ts';
import { type CalendarDate, formatDayFirst, fromIsoDate } from '../domain/dates.ts';
import type { ClientRecord, Invoice } from '../domain/invoice.ts';
import { formatKobo } from '../domain/money.ts';
import { formatPercent } from '../domain/percent.ts';
import type { Statement, StatementLine } from '../domain/statement.ts';
import { VAT_RATE_DECIMALS } from '../domain/tax.ts';
import type { TaxReport } from '../domain/tax-report.ts';
import { type Success, success } from '../outcome.ts';
import { clientView, invoiceView } from './views.ts';

/** How a client is named in a report: its company name, else its first and last name. */
export const clientDisplayName = (client: Pick<ClientRecord, 'name' | 'firstName' | 'lastName'>): string =>
  client.name.trim() !== '' ? client.name : `${client.firstName} ${client.lastName}`.trim();

const perBucket = <T>(values: Record<AgingBucket, number>, format: (value: number) => T) =>
  Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, format(values[bucket])])) as Record<AgingBucket, T>;

/**
 * The report's head: the date its buckets are counted on, the currency, `total_outstanding`, `buckets` (money) and
 * `counts` (open invoices) of the account's (or the client's) aging rows.
 */
export function agingSummaryView(
  asOf: CalendarDate,
  currency: string,
  totals: AgingTotals,
  unappliedCreditKobo: number,
) {
  return {
    as_of: formatDayFirst(asOf),
    currency,
    total_outstanding: formatKobo(totals.totalKobo),
    buckets: perBucket(totals.buckets, formatKobo),
    counts: perBucket(totals.counts, (count) => count),
    total_unapplied_credit: formatKobo(unappliedCreditKobo),
  };
}

export type AgingSummaryView = ReturnType<typeof agingSummaryView>;

/** One client's row of the aging report (its client record is absent only if the item is gone: clients are soft-deleted). */
export function clientAgingView(client: ClientRecord | undefined, row: ClientAging) {
  return {
    client_id: row.clientId,
    name: client ? clientDisplayName(client) : '',
    total_outstanding: formatKobo(row.totals.totalKobo),
    buckets: perBucket(row.totals.buckets, formatKobo),
    unapplied_credit: formatKobo(row.unappliedCreditKobo),
  };
}

export type ClientAgingView = ReturnType<typeof clientAgingView>;

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
    // docs/tax.md: the invoice's number (null before numbers); an invoice line's debit split into its parts.
    number: line.number ?? null,
    ...(line.split
      ? {
          subtotal: formatKobo(line.split.subtotalKobo),
          discount: formatKobo(line.split.discountKobo),
          tax: formatKobo(line.split.taxKobo),
        }
      : {}),
  };
}

/** What a statement is of: the client, the period asked for and its effective range (DD/MM/YYYY, as history echoes). */
export interface StatementOf {
  client: ClientRecord;
  period: string;
  start: string;
  end: string;
  currency: string;
}

/** `POST /clients/{id}/statement`'s `data`. */
export function statementView(of: StatementOf, statement: Statement) {
  return {
    client: clientView(of.client),
    period: of.period,
    start: of.start,
    end: of.end,
    currency: of.currency,
    opening_balance: formatKobo(statement.openingKobo),
    lines: statement.lines.map(statementLineView),
    closing_balance: formatKobo(statement.closingKobo),
  };
}

export type StatementView = ReturnType<typeof statementView>;

/** What `POST /clients/{id}/statement/send` queued: the client, the period's range and who the e-mail goes to. */
export interface StatementMailOf {
  clientId: number;
  period: string;
  start: string;
  end: string;
  to: string;
  jobId: string;
}

export const STATEMENT_QUEUED = 'Statement queued for sending.';

/** `POST /clients/{id}/statement/send`'s answer: 200, the e-mail queued. */
export const statementQueued = (of: StatementMailOf): Success<Record<string, unknown>> =>
  success(
    200,
    {
      client_id: of.clientId,
      period: of.period,
      start: of.start,
      end: of.end,
      to: of.to,
      mail_status: 'queued',
      job_id: of.jobId,
    },
    STATEMENT_QUEUED,
  );

/** The period a tax report covers: the period asked for and its effective range (DD/MM/YYYY), in the account's currency. */
export interface TaxReportOf {
  period: string;
  start: string;
  end: string;
  currency: string;
}

/**
 * The tax report (docs/tax.md "Tax report"): output VAT per rate, the net amounts by VAT category, the withholding tax
 * suffered, and how many documents made them. Credit notes and voids count negatively.
 */
export function taxReportView(of: TaxReportOf, report: TaxReport) {
  const { figures } = report;
  return {
    ...of,
    output_vat: report.rates.map((rate) => ({
      rate: formatPercent(rate.rateUnits, VAT_RATE_DECIMALS),
      taxable: formatKobo(rate.taxableKobo),
      vat: formatKobo(rate.vatKobo),
    })),
    vat_total: formatKobo(report.vatKobo),
    taxable: formatKobo(report.taxableKobo),
    zero_rated: formatKobo(figures.zeroRatedKobo),
    exempt: formatKobo(figures.exemptKobo),
    outside_vat: formatKobo(figures.outsideVatKobo),
    discounts: formatKobo(figures.discountKobo),
    total: formatKobo(report.totalKobo),
    wht_suffered: formatKobo(figures.whtKobo),
    counts: {
      invoices: figures.invoices,
      credit_notes: figures.creditNotes,
      voids: figures.voids,
      wht_payments: figures.whtPayments,
      wht_reversals: figures.whtReversals,
    },
  };
}

export type TaxReportView = ReturnType<typeof taxReportView>;
