/**
 * Payment history (docs/api.md "Payment history and pagination"): period → effective range, one index query and one
 * query of the range's day totals, batched invoice reads.
 */

import { type CalendarDate, formatDayFirst, fromIsoDate, todayIn, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { PageBudget, paymentsWorthReading } from '../domain/page-size.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { sumTotals, type Totals } from '../domain/period-totals.ts';
import { type Period, resolvePeriod } from '../domain/periods.ts';
import { type FieldError, invalidCursor, invalidFields } from '../domain/refusal.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import type { PaymentHistoryInput } from '../schemas/history.ts';
import type { Account } from '../store/accounts.ts';
import { isAccountHistoryPosition, loadInvoices, queryPayments } from '../store/history.ts';
import { queryDayTotals } from '../store/period-totals.ts';

/** The period's effective range in the account's time zone (SPEC §8); `invalid_period` for a bad custom range. */
export function effectiveRange(
  account: Account,
  input: Pick<PaymentHistoryInput, 'period' | 'start' | 'end'>,
): { from: CalendarDate; to: CalendarDate } {
  if (input.period === 'custom') {
    const missing: FieldError[] = [];
    if (!input.start)
      missing.push({ code: 'required', field: 'start', message: 'is required for the custom period (DD/MM/YYYY)' });
    if (!input.end)
      missing.push({ code: 'required', field: 'end', message: 'is required for the custom period (DD/MM/YYYY)' });
    if (missing.length > 0) throw invalidFields(missing, 'invalid_period');
  }
  const custom = input.start && input.end ? { start: input.start, end: input.end } : undefined;
  const range = resolvePeriod(input.period!, todayIn(account.timeZone), custom);
  if (!range.ok)
    throw invalidFields([{ code: 'invalid_range', field: 'end', message: range.message }], 'invalid_period');
  return range.value;
}

/** Where a history resumes: the period, its effective range and the last position read (a cursor's content). */
export interface HistoryPosition {
  period: Period;
  /** Effective range, YYYY-MM-DD. */
  from: string;
  to: string;
  /** Exclusive start key of the next page. */
  after: Record<string, string>;
  /** Invoice history's `payment_status` filter, kept from the first page. */
  status?: string;
}

export interface HistoryOptions {
  /** The position a cursor carried, already authenticated by the caller (shared/http/cursor.ts). */
  resume?: HistoryPosition | undefined;
  /** A payment as the API shows it, serialised: its byte size decides where the page ends. */
  render(payment: PaymentRecord, invoice: Invoice): string;
}

/** One page; each payment is already serialised (once), so the page's size is known without serialising it again. */
export interface HistoryPage {
  period: string;
  start: string;
  end: string;
  /** The JSON of each payment view, in page order. */
  paymentsJson: string[];
  /** Totals of the whole effective range, not of the page: the same on every page (SPEC §14). */
  summary: Totals;
  /** Where the next page starts, or undefined on the last page. */
  next: HistoryPosition | undefined;
}

export async function paymentHistory(
  account: Account,
  input: PaymentHistoryInput,
  options: HistoryOptions,
): Promise<HistoryPage> {
  const period = input.period!;
  const { from, to, after } = startingPosition(account, input, options.resume);
  // The range's totals (SPEC §14) are read beside the page, from the day rows: never by reading every payment.
  const [read, dayRows] = await Promise.all([
    queryPayments(account.companyId, from, to, input.limit ?? DEFAULT_HISTORY_LIMIT, after),
    queryDayTotals(account.companyId, from, to),
  ]);
  const { paymentsJson, lastTaken, full } = await fillPage(read.payments, options.render);
  const next = full && lastTaken !== undefined ? read.positions[lastTaken] : read.next;
  const dayFirst = (iso: string) => formatDayFirst(fromIsoDate(iso));
  return {
    period,
    start: dayFirst(from),
    end: dayFirst(to),
    paymentsJson,
    summary: sumTotals(dayRows),
    next: next ? { period, from, to, after: next } : undefined,
  };
}

/** The range and position to read from: the cursor's (for this account and period only), or the period's start. */
function startingPosition(
  account: Account,
  input: PaymentHistoryInput,
  resume: HistoryPosition | undefined,
): { from: string; to: string; after: Record<string, string> | undefined } {
  if (resume) {
    if (resume.period !== input.period || !isAccountHistoryPosition(resume.after, account.companyId))
      throw invalidCursor();
    return { from: resume.from, to: resume.to, after: resume.after };
  }
  const range = effectiveRange(account, input);
  return { from: toIsoDate(range.from), to: toIsoDate(range.to), after: undefined };
}

/**
 * Serialises the page's payments once, in order, until the page is full: it ends right after its last payment
 * that fits, when the next would take it over the byte cap. Invoices are read only for the payments that can fit,
 * judged by their recorded sizes, so that a page ending at the cap costs what it returns; the rest is read only
 * if the real sizes turn out smaller.
 */
async function fillPage(payments: PaymentRecord[], render: HistoryOptions['render']) {
  const invoices = new Map<string, Invoice>();
  let read = 0;
  const readInvoicesUpTo = async (end: number) => {
    const codes = payments.slice(read, end).map((payment) => payment.referenceCode);
    for (const [code, invoice] of await loadInvoices(codes.filter((code) => !invoices.has(code))))
      invoices.set(code, invoice);
    read = end;
  };
  await readInvoicesUpTo(paymentsWorthReading(payments.map((payment) => payment.viewBytes)));
  const pageBudget = new PageBudget();
  const paymentsJson: string[] = [];
  let lastTaken: number | undefined;
  let full = false;
  for (let index = 0; index < payments.length; index++) {
    if (index === read) await readInvoicesUpTo(payments.length);
    const payment = payments[index]!;
    const invoice = invoices.get(payment.referenceCode);
    if (!invoice) continue;
    const json = render(payment, invoice);
    full = !pageBudget.take(Buffer.byteLength(json));
    if (full) break;
    paymentsJson.push(json);
    lastTaken = index;
  }
  return { paymentsJson, lastTaken, full };
}
