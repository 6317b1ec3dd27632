/**
 * Invoice history (SPEC §13 `POST /invoices/history`): the payment history's period, cursor and page-cap rules over
 * invoices by creation date — one index query over `created_at` (the period's local days as UTC instants), then
 * batched reads of the invoices, serialised once each until the page is full.
 */
import {
  addDays,
  type CalendarDate,
  formatDayFirst,
  formatTimestamp,
  fromIsoDate,
  startOfDayIn,
  toIsoDate,
} from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { type DisplayedPaymentStatus, displayedPaymentStatus, storedStatesShownAs } from '../domain/overdue.ts';
import { PageBudget } from '../domain/page-size.ts';
import { invalidCursor } from '../domain/refusal.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import type { InvoiceHistoryInput } from '../schemas/history.ts';
import type { Account } from '../store/accounts.ts';
import { isAccountInvoicePosition, loadInvoices, queryInvoices } from '../store/history.ts';
import { effectiveRange, type HistoryPosition } from './payment-history.ts';

/** Invoices per batched read (two items each; BatchGetItem takes 100 keys). */
const INVOICES_PER_READ = 50;

export interface InvoiceHistoryOptions {
  resume?: HistoryPosition | undefined;
  /** The account's calendar date: the `payment_status` filter matches the status shown on it (`overdue`: SPEC §14). */
  today: CalendarDate;
  /** An invoice as the API shows it, serialised: its byte size decides where the page ends. */
  render(invoice: Invoice): string;
}

export interface InvoiceHistoryPage {
  period: string;
  start: string;
  end: string;
  invoicesJson: string[];
  next: HistoryPosition | undefined;
}

export async function invoiceHistory(
  account: Account,
  input: InvoiceHistoryInput,
  options: InvoiceHistoryOptions,
): Promise<InvoiceHistoryPage> {
  const period = input.period!;
  const { from, to, after, status } = startingPosition(account, input, options.resume);
  const range = {
    from: formatTimestamp(startOfDayIn(fromIsoDate(from), account.timeZone)),
    to: formatTimestamp(new Date(startOfDayIn(addDays(fromIsoDate(to), 1), account.timeZone).getTime() - 1000)),
  };
  const limit = input.limit ?? DEFAULT_HISTORY_LIMIT;
  const stored = status === undefined ? undefined : storedStatesShownAs(status as DisplayedPaymentStatus);
  const read = await queryInvoices(account.companyId, range, limit, { after, stored });
  const shown = status === undefined ? undefined : shownAs(status as DisplayedPaymentStatus, options.today);
  const { invoicesJson, lastTaken, full } = await fillPage(read.referenceCodes, options.render, shown);
  const next = full && lastTaken !== undefined ? read.positions[lastTaken] : read.next;
  const dayFirst = (iso: string) => formatDayFirst(fromIsoDate(iso));
  return {
    period,
    start: dayFirst(from),
    end: dayFirst(to),
    invoicesJson,
    next: next ? { period, from, to, after: next, ...(status === undefined ? {} : { status }) } : undefined,
  };
}

/** The range, filter and position to read from: the cursor's (same account, period and filter only), or the period's. */
function startingPosition(account: Account, input: InvoiceHistoryInput, resume: HistoryPosition | undefined) {
  if (resume) {
    const sameListing =
      resume.period === input.period &&
      resume.status === input.payment_status &&
      isAccountInvoicePosition(resume.after, account.companyId);
    if (!sameListing) throw invalidCursor();
    return { from: resume.from, to: resume.to, after: resume.after, status: resume.status };
  }
  const range = effectiveRange(account, input);
  return { from: toIsoDate(range.from), to: toIsoDate(range.to), after: undefined, status: input.payment_status };
}

/** The filter on the status an invoice is shown with (the index query could only narrow it to its stored states). */
const shownAs = (status: DisplayedPaymentStatus, today: CalendarDate) => (invoice: Invoice) =>
  displayedPaymentStatus(invoice.balance, invoice.details.dueDate, today) === status;

/** Reads and serialises the page's invoices in order, a batch at a time, until the page is full (SPEC §8 page cap). */
async function fillPage(
  referenceCodes: string[],
  render: InvoiceHistoryOptions['render'],
  shown: ((invoice: Invoice) => boolean) | undefined,
) {
  const pageBudget = new PageBudget();
  const invoicesJson: string[] = [];
  let lastTaken: number | undefined;
  for (let start = 0; start < referenceCodes.length; start += INVOICES_PER_READ) {
    const batch = referenceCodes.slice(start, start + INVOICES_PER_READ);
    const invoices = await loadInvoices(batch);
    for (const [offset, code] of batch.entries()) {
      const invoice = invoices.get(code);
      if (!invoice || (shown && !shown(invoice))) continue;
      const json = render(invoice);
      if (!pageBudget.take(Buffer.byteLength(json))) return { invoicesJson, lastTaken, full: true };
      invoicesJson.push(json);
      lastTaken = start + offset;
    }
  }
  return { invoicesJson, lastTaken, full: false };
}
