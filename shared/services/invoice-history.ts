/**
 * Invoice history (docs/api.md "Invoices: read, list, delete", `POST /invoices/history`): the payment history's period,
 * cursor and page-cap rules over invoices by creation date — one index query over `created_at` (the period's local days
 * as UTC instants), then batched reads of the invoices, serialised once each until the page is full.
 */
import { addDays, type CalendarDate, formatTimestamp, fromIsoDate, startOfDayIn } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { type DisplayedPaymentStatus, displayedPaymentStatus, storedStatesShownAs } from '../domain/overdue.ts';
import { invoiceView } from '../representation/views.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import type { InvoiceHistoryInput } from '../schemas/history.ts';
import { isAccountInvoicePosition, queryInvoices } from '../store/history.ts';
import type { RequestContext } from './context.ts';
import { type HistoryPosition, listingStart, pageFrame } from './history-listing.ts';
import { fillInvoicePage } from './invoice-page-fill.ts';

export interface InvoiceHistoryPage {
  period: string;
  start: string;
  end: string;
  invoicesJson: string[];
  next: HistoryPosition | undefined;
}

/** `resume`: the position a cursor carried, already authenticated by shared/http (shared/http/cursor.ts). */
export async function invoiceHistory(
  context: RequestContext,
  input: InvoiceHistoryInput,
  resume: HistoryPosition | undefined,
): Promise<InvoiceHistoryPage> {
  const { account, todayForOverdue: today } = context;
  const start = listingStart(context, input, resume, isAccountInvoicePosition);
  const range = {
    from: formatTimestamp(startOfDayIn(fromIsoDate(start.from), account.timeZone)),
    to: formatTimestamp(new Date(startOfDayIn(addDays(fromIsoDate(start.to), 1), account.timeZone).getTime() - 1000)),
  };
  const limit = input.limit ?? DEFAULT_HISTORY_LIMIT;
  const status = start.status as DisplayedPaymentStatus | undefined;
  const stored = status === undefined ? undefined : storedStatesShownAs(status);
  const read = await queryInvoices(account.companyId, range, limit, { after: start.after, stored });
  // The `payment_status` filter matches the status shown on the account's today for overdue (docs/api.md "Overdue").
  const shown = status === undefined ? undefined : shownAs(status, today);
  const show = (invoice: Invoice) => JSON.stringify(invoiceView(invoice, { today, withClient: true }));
  const { invoicesJson, ...fill } = await fillInvoicePage(read.referenceCodes, show, shown);
  return { ...pageFrame(start, read, fill), invoicesJson };
}

/** The filter on the status an invoice is shown with (the index query could only narrow it to its stored states). */
const shownAs = (status: DisplayedPaymentStatus, today: CalendarDate) => (invoice: Invoice) =>
  displayedPaymentStatus(invoice.balance, invoice.details.dueDate, today) === status;
