/**
 * What the payment and invoice histories share (docs/api.md "Payment history and pagination"): a period's effective
 * range in the account's time zone, where a listing resumes (a cursor's position, checked to be this listing's), and
 * a page's frame — its period, its range as shown, and where the next page starts.
 */
import { type CalendarDate, formatDayFirst, fromIsoDate, toIsoDate } from '../domain/dates.ts';
import { type Period, resolvePeriod } from '../domain/periods.ts';
import { type FieldError, invalidCursor, invalidFields } from '../domain/refusal.ts';
import type { PaymentHistoryInput } from '../schemas/history.ts';
import type { RequestContext } from './context.ts';

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

type PeriodInput = Pick<PaymentHistoryInput, 'period' | 'start' | 'end'>;

/** The period's effective range on the context's today; `invalid_period` for a bad custom range. */
export function effectiveRange(context: RequestContext, input: PeriodInput): { from: CalendarDate; to: CalendarDate } {
  if (input.period === 'custom') {
    const missing: FieldError[] = [];
    if (!input.start)
      missing.push({ code: 'required', field: 'start', message: 'is required for the custom period (DD/MM/YYYY)' });
    if (!input.end)
      missing.push({ code: 'required', field: 'end', message: 'is required for the custom period (DD/MM/YYYY)' });
    if (missing.length > 0) throw invalidFields(missing, 'invalid_period');
  }
  const custom = input.start && input.end ? { start: input.start, end: input.end } : undefined;
  const range = resolvePeriod(input.period!, context.today, custom);
  if (!range.ok)
    throw invalidFields([{ code: 'invalid_range', field: 'end', message: range.message }], 'invalid_period');
  return range.value;
}

/** Where a listing starts reading: the range, the position after which it reads, and its status filter. */
export interface ListingStart {
  period: Period;
  from: string;
  to: string;
  after: Record<string, string> | undefined;
  status: string | undefined;
}

/**
 * The cursor's position when it is this listing's — the same period and filter, and a position of this account's
 * (`isOwnPosition`, the store's check) — `invalid_cursor` otherwise; without a cursor, the period's range.
 */
export function listingStart(
  context: RequestContext,
  input: PeriodInput & { payment_status?: string | undefined },
  resume: HistoryPosition | undefined,
  isOwnPosition: (after: Record<string, string>, companyId: number) => boolean,
): ListingStart {
  const period = input.period!;
  if (resume) {
    const sameListing =
      resume.period === period &&
      resume.status === input.payment_status &&
      isOwnPosition(resume.after, context.account.companyId);
    if (!sameListing) throw invalidCursor();
    return { period, from: resume.from, to: resume.to, after: resume.after, status: resume.status };
  }
  const range = effectiveRange(context, input);
  return {
    period,
    from: toIsoDate(range.from),
    to: toIsoDate(range.to),
    after: undefined,
    status: input.payment_status,
  };
}

/** What filling a page from a read came to: the index of its last item taken, and whether the page is full. */
export interface PageFill {
  lastTaken: number | undefined;
  full: boolean;
}

/**
 * A page's frame: its period and range as shown (DD/MM/YYYY), and where the next page starts — right after the last
 * item taken when the page filled up before the read ran out, else where the read stopped (none on the last page).
 */
export function pageFrame(
  start: ListingStart,
  read: { positions: Record<string, string>[]; next: Record<string, string> | undefined },
  fill: PageFill,
) {
  const { period, from, to, status } = start;
  const next = fill.full && fill.lastTaken !== undefined ? read.positions[fill.lastTaken] : read.next;
  const dayFirst = (iso: string) => formatDayFirst(fromIsoDate(iso));
  const position: HistoryPosition | undefined = next
    ? { period, from, to, after: next, ...(status === undefined ? {} : { status }) }
    : undefined;
  return { period, start: dayFirst(from), end: dayFirst(to), next: position };
}
