/**
 * Where a bank transfer to a client's virtual account goes, and where the client's credit goes, pure
 * (docs/decisions.md "Transfer allocation"). A transfer pays first the open invoices its narration names (by
 * reference code or number), else the one invoice whose amount due equals the amount, else the oldest due; whatever
 * is left after the invoices it was matched to goes on to the client's other open invoices, oldest due first, and
 * only what no open invoice can take becomes the client's credit. One payment per invoice, never above its amount due.
 */
import { type CalendarDate, compareDates } from './dates.ts';

/** The channel of a payment made from the client's credit. */
export const CREDIT_CHANNEL = 'Credit';

export interface OpenInvoice {
  referenceCode: string;
  /** The invoice's `number` (`INV-000012`). */
  number: string;
  amountDueKobo: number;
  dueDate: CalendarDate;
  issueDate: CalendarDate;
}

/** How a payment was matched to its invoice (a payment's `allocation`). */
export type Allocation = 'narration' | 'exact_amount' | 'oldest_due';

export interface AllocatedPayment {
  referenceCode: string;
  amountKobo: number;
  allocation: Allocation;
}

export interface Transfer {
  amountKobo: number;
  narration: string;
}

export interface TransferAllocation {
  /** In the order they were allocated. */
  payments: AllocatedPayment[];
  /** What is left for the client's credit. */
  creditKobo: number;
}

/**
 * Oldest due first: due date, then issue date, then number (its digits as a number, so `INV-1000000` follows
 * `INV-999999`), then reference code — a total order, so the result never depends on the order invoices were read in.
 */
export function byOldestDue(a: OpenInvoice, b: OpenInvoice): number {
  return (
    compareDates(a.dueDate, b.dueDate) ||
    compareDates(a.issueDate, b.issueDate) ||
    compareSequence(a.number, b.number) ||
    compareText(a.number, b.number) ||
    compareText(a.referenceCode, b.referenceCode)
  );
}

const TRAILING_DIGITS = /(\d+)$/;

function compareSequence(a: string, b: string): number {
  const [x, y] = [TRAILING_DIGITS.exec(a)?.[1], TRAILING_DIGITS.exec(b)?.[1]];
  if (x === undefined || y === undefined) return 0;
  const [m, n] = [BigInt(x), BigInt(y)];
  return m < n ? -1 : m > n ? 1 : 0;
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Whether a narration names the invoice: its reference code anywhere in it, or its number with its punctuation
 * optional (`INV-000012`, `INV000012`, `inv 000012`, `INV/000012`), not inside a longer word or number (`INV-0000123`
 * and `XINV-000012` do not name it; `INV-000012PAYMENT` does, banks glue words). Case is ignored.
 */
export function narrationNames(narration: string, invoice: Pick<OpenInvoice, 'referenceCode' | 'number'>): boolean {
  const text = narration.toLowerCase();
  if (invoice.referenceCode !== '' && text.includes(invoice.referenceCode.toLowerCase())) return true;
  const runs = invoice.number.match(/[A-Za-z0-9]+/g);
  if (!runs) return false;
  return new RegExp(`(?<![a-z0-9])${runs.join('[^a-z0-9]*')}(?![0-9])`, 'i').test(text);
}

/** Where a verified transfer goes: payments to the client's open invoices, and the client's credit. */
export function allocateTransfer(transfer: Transfer, openInvoices: readonly OpenInvoice[]): TransferAllocation {
  assertKobo(transfer.amountKobo);
  const open = openInvoices.filter((invoice) => invoice.amountDueKobo > 0).sort(byOldestDue);
  const named = open.filter((invoice) => narrationNames(transfer.narration, invoice));
  const exact = named.length > 0 ? undefined : open.find((invoice) => invoice.amountDueKobo === transfer.amountKobo);
  const matched = named.length > 0 ? named : exact ? [exact] : [];
  const allocation: Allocation = named.length > 0 ? 'narration' : 'exact_amount';
  const order = [
    ...matched.map((invoice) => ({ invoice, allocation })),
    ...open.filter((invoice) => !matched.includes(invoice)).map((invoice) => ({ invoice, allocation: OLDEST })),
  ];
  let left = transfer.amountKobo;
  const payments: AllocatedPayment[] = [];
  for (const { invoice, allocation: how } of order) {
    if (left === 0) break;
    const amountKobo = Math.min(left, invoice.amountDueKobo);
    payments.push({ referenceCode: invoice.referenceCode, amountKobo, allocation: how });
    left -= amountKobo;
  }
  return { payments, creditKobo: left };
}

const OLDEST: Allocation = 'oldest_due';

/** A payment from the client's credit. */
export interface CreditPayment {
  referenceCode: string;
  amountKobo: number;
}

/**
 * The client's credit applied to open invoices, oldest due first (at an invoice's creation the caller passes that
 * invoice; when credit arrives while several are open, all of them): one payment each, never above its amount due.
 */
export function applyCredit(
  creditKobo: number,
  openInvoices: readonly OpenInvoice[],
): { payments: CreditPayment[]; creditKobo: number } {
  assertKobo(creditKobo);
  let left = creditKobo;
  const payments: CreditPayment[] = [];
  for (const invoice of openInvoices.filter((i) => i.amountDueKobo > 0).sort(byOldestDue)) {
    if (left === 0) break;
    const amountKobo = Math.min(left, invoice.amountDueKobo);
    payments.push({ referenceCode: invoice.referenceCode, amountKobo });
    left -= amountKobo;
  }
  return { payments, creditKobo: left };
}

function assertKobo(kobo: number): void {
  if (!Number.isSafeInteger(kobo) || kobo < 0) throw new RangeError(`not an amount in kobo: ${kobo}`);
}
