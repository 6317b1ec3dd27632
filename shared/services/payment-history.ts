/**
 * Payment history (docs/api.md "Payment history and pagination"): period → effective range, one index query and one
 * query of the range's day totals, batched invoice reads; each payment shown as the API shows it, serialised once.
 */
import type { Invoice } from '../domain/invoice.ts';
import { PageBudget, paymentsWorthReading } from '../domain/page-size.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { sumTotals, type Totals } from '../domain/period-totals.ts';
import { paymentView } from '../representation/views.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import type { PaymentHistoryInput } from '../schemas/history.ts';
import { isAccountHistoryPosition, queryPayments } from '../store/history.ts';
import { loadInvoices } from '../store/invoices.ts';
import { queryDayTotals } from '../store/period-totals.ts';
import type { RequestContext } from './context.ts';
import { type HistoryPosition, listingStart, type PageFill, pageFrame } from './history-listing.ts';

/** One page; each payment is already serialised (once), so the page's size is known without serialising it again. */
export interface HistoryPage {
  period: string;
  start: string;
  end: string;
  /** The JSON of each payment view, in page order. */
  paymentsJson: string[];
  /** Totals of the whole effective range, not of the page: the same on every page (docs/api.md). */
  summary: Totals;
  /** Where the next page starts, or undefined on the last page. */
  next: HistoryPosition | undefined;
}

/** `resume`: the position a cursor carried, already authenticated by shared/http (shared/http/cursor.ts). */
export async function paymentHistory(
  context: RequestContext,
  input: PaymentHistoryInput,
  resume: HistoryPosition | undefined,
): Promise<HistoryPage> {
  const { companyId } = context.account;
  const start = listingStart(context, input, resume, isAccountHistoryPosition);
  // The range's totals are read beside the page, from the day rows: never by reading every payment.
  const [read, dayRows] = await Promise.all([
    queryPayments(companyId, start.from, start.to, input.limit ?? DEFAULT_HISTORY_LIMIT, start.after),
    queryDayTotals(companyId, start.from, start.to),
  ]);
  const show = (payment: PaymentRecord, invoice: Invoice) =>
    JSON.stringify(paymentView(payment, invoice, { today: context.todayForOverdue }));
  const { paymentsJson, ...fill } = await fillPage(read.payments, show);
  return { ...pageFrame(start, read, fill), paymentsJson, summary: sumTotals(dayRows) };
}

/**
 * Serialises the page's payments once, in order, until the page is full: it ends right after its last payment
 * that fits, when the next would take it over the byte cap. Invoices are read only for the payments that can fit,
 * judged by their recorded sizes, so that a page ending at the cap costs what it returns; the rest is read only
 * if the real sizes turn out smaller.
 */
async function fillPage(
  payments: PaymentRecord[],
  show: (payment: PaymentRecord, invoice: Invoice) => string,
): Promise<PageFill & { paymentsJson: string[] }> {
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
    const json = show(payment, invoice);
    full = !pageBudget.take(Buffer.byteLength(json));
    if (full) break;
    paymentsJson.push(json);
    lastTaken = index;
  }
  return { paymentsJson, lastTaken, full };
}
