/**
 * The columns of each CSV listing (docs/api.md "CSV"), read off the JSON views themselves, so that a CSV page holds
 * exactly the rows and numbers of its JSON twin. Amounts are kobo for `csv.ts` to write as plain decimals; calendar
 * dates are `YYYY-MM-DD`; timestamps stay `YYYY-MM-DD HH:MM:SS` (UTC), as in the JSON.
 */
import { AGING_BUCKETS } from '../domain/aging.ts';
import { fromEpochSeconds, parseDayFirstDate, toIsoDate } from '../domain/dates.ts';
import { formatKobo } from '../domain/money.ts';
import { clientDisplayName } from '../representation/report-views.ts';
import type { CsvColumn } from './csv.ts';

const MONEY = /^(-?)(\d+)\.(\d{2})$/;

/** Kobo of a money string of the views (`"-300.00"`), exactly. */
export function koboOf(money: unknown): number {
  const match = MONEY.exec(String(money));
  if (!match) throw new Error(`not a money string: ${String(money)}`);
  const kobo = Number(match[2]) * 100 + Number(match[3]);
  return match[1] ? -kobo : kobo;
}

/** YYYY-MM-DD of a stored calendar date (Unix seconds, a string of digits in the views). */
const isoOfEpoch = (seconds: unknown): string => toIsoDate(fromEpochSeconds(Number(seconds)));

/** YYYY-MM-DD of a DD/MM/YYYY date (the statement's). */
function isoOfDayFirst(text: string): string {
  const parsed = parseDayFirstDate(text);
  if (!parsed.ok) throw new Error(`not a DD/MM/YYYY date: ${text}`);
  return toIsoDate(parsed.value);
}

interface ClientJson {
  name: string;
  first_name: string;
  last_name: string;
  email: string;
}

interface InvoiceJson {
  id: number;
  reference_code: string;
  client_id: string;
  created_at: string;
  due_date: string;
  items: { name: string }[];
  total: string;
  amount_paid: string;
  amount_due: string;
  payment_status: string;
  currency: string;
  paid_at: string | null;
  deleted_at: string | null;
  merchant_ref?: string;
  client: ClientJson;
  days_overdue?: number;
  number: string | null;
  issue_date: string | null;
  subtotal: string;
  discount_total: string;
  tax_total: string;
}

interface PaymentJson {
  id: number;
  transaction_date: string;
  amount: string;
  currency: string;
  channel: string;
  status: string;
  reference_code: string;
  invoice_id: string;
  client_id: string;
  created_at: string;
  reversed_at?: string;
  reversal_reason?: string;
  wht_amount: string;
  wht_reference: string;
  client: ClientJson;
}

const nameOf = (client: ClientJson) =>
  clientDisplayName({ name: client.name, firstName: client.first_name, lastName: client.last_name });

const text = <R>(header: string, value: (row: R) => string | null | undefined): CsvColumn<R> => ({ header, value });
const amount = <R>(header: string, value: (row: R) => unknown): CsvColumn<R> => ({
  header,
  amount: true,
  value: (row) => koboOf(value(row)),
});
const number = <R>(header: string, value: (row: R) => unknown): CsvColumn<R> => ({
  header,
  value: (row) => Number(value(row)),
});

export const PAYMENT_COLUMNS: CsvColumn<PaymentJson>[] = [
  number('id', (p) => p.id),
  text('transaction_date', (p) => isoOfEpoch(p.transaction_date)),
  amount('amount', (p) => p.amount),
  text('currency', (p) => p.currency),
  text('channel', (p) => p.channel),
  text('status', (p) => p.status),
  text('reference_code', (p) => p.reference_code),
  number('invoice_id', (p) => p.invoice_id),
  number('client_id', (p) => p.client_id),
  text('client_name', (p) => nameOf(p.client)),
  text('client_email', (p) => p.client.email),
  text('created_at', (p) => p.created_at),
  text('reversed_at', (p) => p.reversed_at),
  text('reversal_reason', (p) => p.reversal_reason),
  // docs/tax.md "Withholding tax": after the interface's columns, so that existing readers see the same ones first.
  amount('wht_amount', (p) => p.wht_amount),
  text('wht_reference', (p) => p.wht_reference),
];

const invoiceColumns: CsvColumn<InvoiceJson>[] = [
  number('id', (i) => i.id),
  text('reference_code', (i) => i.reference_code),
  text('created_at', (i) => i.created_at),
  text('due_date', (i) => isoOfEpoch(i.due_date)),
  number('client_id', (i) => i.client_id),
  text('client_name', (i) => nameOf(i.client)),
  text('client_email', (i) => i.client.email),
  text('items', (i) => i.items.map((item) => item.name).join('; ')),
  amount('total', (i) => i.total),
  amount('amount_paid', (i) => i.amount_paid),
  amount('amount_due', (i) => i.amount_due),
  text('payment_status', (i) => i.payment_status),
  text('currency', (i) => i.currency),
];

export const INVOICE_COLUMNS: CsvColumn<InvoiceJson>[] = [
  ...invoiceColumns,
  text('paid_at', (i) => i.paid_at),
  text('deleted_at', (i) => i.deleted_at),
  text('merchant_ref', (i) => i.merchant_ref),
  ...taxColumns<InvoiceJson>(),
];

/** docs/tax.md: the number, issue date and split, after the earlier columns so that existing readers see them first. */
function taxColumns<
  R extends Pick<InvoiceJson, 'number' | 'issue_date' | 'subtotal' | 'discount_total' | 'tax_total'>,
>(): CsvColumn<R>[] {
  return [
    text('number', (i) => i.number),
    text('issue_date', (i) => (i.issue_date === null ? null : isoOfEpoch(i.issue_date))),
    amount('subtotal', (i) => i.subtotal),
    amount('discount_total', (i) => i.discount_total),
    amount('tax_total', (i) => i.tax_total),
  ];
}

/** Aging's open invoices: the invoice columns with its days past due. */
export const OPEN_INVOICE_COLUMNS: CsvColumn<InvoiceJson>[] = [
  ...invoiceColumns.slice(0, 4),
  number('days_overdue', (i) => i.days_overdue),
  ...invoiceColumns.slice(4),
  ...taxColumns<InvoiceJson>(),
];

interface ClientAgingJson {
  client_id: number;
  name: string;
  total_outstanding: string;
  buckets: Record<string, string | number>;
  unapplied_credit: string;
}

export const CLIENT_AGING_COLUMNS: CsvColumn<ClientAgingJson>[] = [
  number('client_id', (c) => c.client_id),
  text('name', (c) => c.name),
  amount('total_outstanding', (c) => c.total_outstanding),
  ...AGING_BUCKETS.map((bucket) => amount<ClientAgingJson>(bucket, (c) => c.buckets[bucket])),
  amount('unapplied_credit', (c) => c.unapplied_credit),
];

interface StatementLineJson {
  date: string;
  type: string;
  reference_code: string;
  description: string;
  debit: string;
  credit: string;
  balance: string;
  number: string | null;
  subtotal?: string;
  discount?: string;
  tax?: string;
}

/** An optional amount column: empty where the line has none (a payment has no split). */
const optionalAmount = <R>(header: string, value: (row: R) => string | undefined): CsvColumn<R> => ({
  header,
  amount: true,
  value: (row) => {
    const money = value(row);
    return money === undefined ? null : koboOf(money);
  },
});

export const STATEMENT_COLUMNS: CsvColumn<StatementLineJson>[] = [
  text('date', (l) => isoOfDayFirst(l.date)),
  text('type', (l) => l.type),
  text('reference_code', (l) => l.reference_code),
  text('description', (l) => l.description),
  amount('debit', (l) => l.debit),
  amount('credit', (l) => l.credit),
  amount('balance', (l) => l.balance),
  text('number', (l) => l.number),
  optionalAmount('subtotal', (l) => l.subtotal),
  optionalAmount('discount', (l) => l.discount),
  optionalAmount('tax', (l) => l.tax),
];

interface TaxReportJson {
  start: string;
  end: string;
  output_vat: { rate: string; taxable: string; vat: string }[];
  vat_total: string;
  taxable: string;
  zero_rated: string;
  exempt: string;
  outside_vat: string;
  discounts: string;
  total: string;
  wht_suffered: string;
}

/** One line of the tax report's CSV: a rate's or a category's net and VAT, withholding tax, or the totals. */
interface TaxReportLine {
  start: string;
  end: string;
  line: string;
  rate?: string;
  net: string;
  vat?: string;
}

/**
 * The tax report as lines (docs/tax.md "Tax report"): one per standard rate, then the zero-rated, exempt and
 * outside-VAT nets, the discounts, the withholding tax suffered, and the total (net and VAT) last.
 */
export function taxReportLines(report: TaxReportJson): TaxReportLine[] {
  const range = { start: isoOfDayFirst(report.start), end: isoOfDayFirst(report.end) };
  const totalNet = koboOf(report.total) - koboOf(report.vat_total);
  return [
    ...report.output_vat.map((rate) => ({
      ...range,
      line: 'standard',
      rate: rate.rate,
      net: rate.taxable,
      vat: rate.vat,
    })),
    { ...range, line: 'zero_rated', rate: '0', net: report.zero_rated, vat: '0.00' },
    { ...range, line: 'exempt', net: report.exempt },
    { ...range, line: 'outside_vat', net: report.outside_vat },
    { ...range, line: 'discounts', net: report.discounts },
    { ...range, line: 'wht_suffered', net: report.wht_suffered },
    { ...range, line: 'total', net: formatKobo(totalNet), vat: report.vat_total },
  ];
}

export const TAX_REPORT_COLUMNS: CsvColumn<TaxReportLine>[] = [
  text('start', (l) => l.start),
  text('end', (l) => l.end),
  text('line', (l) => l.line),
  text('rate', (l) => l.rate ?? ''),
  amount('net', (l) => l.net),
  optionalAmount('vat', (l) => l.vat),
];
