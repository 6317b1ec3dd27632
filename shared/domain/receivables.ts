/**
 * What each write changes in the receivables items (docs/data-design.md "Receivables"), pure: the outstanding and
 * open count of the invoice's due date (account and client rows), whether its open-invoice item appears or goes, and
 * the client's ledger line. The store writes it in the same transaction as the write itself, so aging and statements
 * always agree with the invoices and payments. An invoice written before aging (no `inAging`) changes nothing here
 * until `data:migrate` has counted it.
 */
import { fromEpochSeconds, localDateOf, toIsoDate } from './dates.ts';
import type { Invoice, InvoiceBalance, InvoiceDetails } from './invoice.ts';
import { formatKobo } from './money.ts';
import { creditedKobo, type PaymentRecord } from './payment-record.ts';

/**
 * `wht`: the withholding tax a client deducted from a payment (docs/tax.md "Withholding tax"); `credit_note`: a credit
 * note, and what of it went beyond the amount due to the client's credit (docs/tax.md "Credit notes").
 */
export const LEDGER_LINE_TYPES = ['invoice', 'payment', 'reversal', 'void', 'wht', 'credit_note'] as const;
export type LedgerLineType = (typeof LEDGER_LINE_TYPES)[number];

/** One line of a client's statement, as kept. Amounts in kobo; exactly one of debit and credit is non-zero. */
export interface LedgerLine {
  companyId: number;
  clientId: number;
  /** The day the line is dated (YYYY-MM-DD): issue day, transaction date, reversal or void day. */
  date: string;
  /** When it was recorded (`YYYY-MM-DD HH:MM:SS` UTC): orders a day's lines. */
  recordedAt: string;
  type: LedgerLineType;
  referenceCode: string;
  description: string;
  debitKobo: number;
  creditKobo: number;
  /** The invoice id (invoice, void) or the payment id (payment, reversal, wht): with the rest, the line's identity. */
  sourceId: number;
  /** The invoice's number, when it has one (docs/tax.md "Numbers"). */
  number?: string;
  /** An invoice line's split: its debit = subtotal − discount + tax (docs/tax.md "VAT"). */
  split?: { subtotalKobo: number; discountKobo: number; taxKobo: number };
}

/** A change to the receivables of one invoice: its due date's rows, its open-invoice item, one ledger line. */
export interface ReceivableChange {
  companyId: number;
  clientId: number;
  referenceCode: string;
  /** YYYY-MM-DD */
  dueDate: string;
  outstandingDeltaKobo: number;
  openCountDelta: number;
  /** The open-invoice item: put (the invoice opens), delete (it closes), or left alone. */
  openInvoice: 'put' | 'delete' | 'keep';
  line: LedgerLine;
  /** A payment's withholding tax, shown on its own line beside the payment's. */
  withholdingLine?: LedgerLine;
  /** What a credit note credited beyond the amount due: a debit beside its line, moved to the client's credit. */
  creditExcessLine?: LedgerLine;
}

/** Longest description kept on a line (an invoice's item names can be many). */
export const MAX_DESCRIPTION_LENGTH = 500;

const clip = (text: string) =>
  text.length <= MAX_DESCRIPTION_LENGTH ? text : `${text.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;

/** An invoice line describes what was sold: its items' names. */
export const invoiceDescription = (details: Pick<InvoiceDetails, 'lines'>): string =>
  clip(details.lines.map((line) => line.name).join(', '));

const dueDateOf = (details: InvoiceDetails) => toIsoDate(fromEpochSeconds(details.dueDate));

const isOpen = (balance: Pick<InvoiceBalance, 'amountDueKobo' | 'deletedAt'>) =>
  balance.amountDueKobo > 0 && balance.deletedAt === null;

/** The change's fields every kind shares: whose invoice, which due date. */
const about = (details: InvoiceDetails) => ({
  companyId: details.companyId,
  clientId: details.clientId,
  referenceCode: details.referenceCode,
  dueDate: dueDateOf(details),
});

const lineOf = (
  details: InvoiceDetails,
  line: Omit<LedgerLine, 'companyId' | 'clientId' | 'referenceCode'>,
): LedgerLine => ({
  companyId: details.companyId,
  clientId: details.clientId,
  referenceCode: details.referenceCode,
  ...line,
  ...(details.number === undefined ? {} : { number: details.number }),
});

/** The day an invoice was issued: its issue date, or (created before issue dates) its creation day, local. */
export const issueDayOf = (details: InvoiceDetails, timeZone: string): string =>
  toIsoDate(
    details.issueDate === undefined ? localDateOf(details.createdAt, timeZone) : fromEpochSeconds(details.issueDate),
  );

/** The invoice line of an invoice: a debit of its total on its issue day, with its split. */
export function invoiceLine(details: InvoiceDetails, totalKobo: number, timeZone: string): LedgerLine {
  const { tax } = details;
  return lineOf(details, {
    date: issueDayOf(details, timeZone),
    recordedAt: details.createdAt,
    type: 'invoice',
    description: invoiceDescription(details),
    debitKobo: totalKobo,
    creditKobo: 0,
    sourceId: details.id,
    split: tax
      ? { subtotalKobo: tax.subtotalKobo, discountKobo: tax.discountTotalKobo, taxKobo: tax.taxTotalKobo }
      : { subtotalKobo: totalKobo, discountKobo: 0, taxKobo: 0 },
  });
}

/** A new invoice: its whole total is outstanding, and it is open. */
export function invoiceIssuedChange(invoice: Invoice, timeZone: string): ReceivableChange {
  const { details, balance } = invoice;
  return {
    ...about(details),
    outstandingDeltaKobo: balance.amountDueKobo,
    openCountDelta: 1,
    openInvoice: 'put',
    line: invoiceLine(details, balance.totalKobo, timeZone),
  };
}

/** The payment line: a credit on its transaction date. */
export function paymentLine(details: InvoiceDetails, payment: PaymentRecord): LedgerLine {
  return lineOf(details, {
    date: toIsoDate(fromEpochSeconds(payment.transactionDate)),
    recordedAt: payment.createdAt,
    type: 'payment',
    description: `Payment (${payment.channel})`,
    debitKobo: 0,
    creditKobo: payment.amountKobo,
    sourceId: payment.id,
  });
}

/** The withholding tax line of a payment that had tax withheld: a credit beside the payment's, on the same day. */
export function withholdingLine(details: InvoiceDetails, payment: PaymentRecord): LedgerLine | undefined {
  if (!payment.whtKobo) return undefined;
  const reference = payment.whtReference ? ` (${payment.whtReference})` : '';
  return lineOf(details, {
    date: toIsoDate(fromEpochSeconds(payment.transactionDate)),
    recordedAt: payment.createdAt,
    type: 'wht',
    description: clip(`Withholding tax deducted${reference}`),
    debitKobo: 0,
    creditKobo: payment.whtKobo,
    sourceId: payment.id,
  });
}

/**
 * A payment on `invoice` (as read) leaving it at `after`: less outstanding by what it credited (its withholding tax
 * included); closed when nothing is left due.
 */
export function paymentRecordedChange(
  invoice: Invoice,
  after: InvoiceBalance,
  payment: PaymentRecord,
): ReceivableChange | undefined {
  if (!invoice.balance.inAging) return undefined;
  const closes = isOpen(invoice.balance) && !isOpen(after);
  const wht = withholdingLine(invoice.details, payment);
  return {
    ...about(invoice.details),
    outstandingDeltaKobo: -creditedKobo(payment),
    openCountDelta: closes ? -1 : 0,
    openInvoice: closes ? 'delete' : 'keep',
    line: paymentLine(invoice.details, payment),
    ...(wht ? { withholdingLine: wht } : {}),
  };
}

/**
 * The reversal line: a debit of what the payment credited (its withholding tax included) on the day it was reversed.
 */
export function reversalLine(details: InvoiceDetails, reversed: PaymentRecord, timeZone: string): LedgerLine {
  const reversedAt = reversed.reversal?.reversedAt ?? reversed.createdAt;
  const withheld = reversed.whtKobo ? ` (with ${formatKobo(reversed.whtKobo)} withholding tax)` : '';
  return lineOf(details, {
    date: toIsoDate(localDateOf(reversedAt, timeZone)),
    recordedAt: reversedAt,
    type: 'reversal',
    description: clip(`Reversal of payment ${reversed.id}${withheld}: ${reversed.reversal?.reason ?? ''}`),
    debitKobo: creditedKobo(reversed),
    creditKobo: 0,
    sourceId: reversed.id,
  });
}

/** A reversal: the payment's amount is outstanding again; a settled invoice re-opens. */
export function paymentReversedChange(
  invoice: Invoice,
  after: InvoiceBalance,
  reversed: PaymentRecord,
  timeZone: string,
): ReceivableChange | undefined {
  if (!invoice.balance.inAging) return undefined;
  const opens = !isOpen(invoice.balance) && isOpen(after);
  return {
    ...about(invoice.details),
    outstandingDeltaKobo: creditedKobo(reversed),
    openCountDelta: opens ? 1 : 0,
    openInvoice: opens ? 'put' : 'keep',
    line: reversalLine(invoice.details, reversed, timeZone),
  };
}

/** The void line: a credit of what was still due (the whole total: a voided invoice has no payment). */
export function voidLine(details: InvoiceDetails, amountKobo: number, deletedAt: string, timeZone: string): LedgerLine {
  return lineOf(details, {
    date: toIsoDate(localDateOf(deletedAt, timeZone)),
    recordedAt: deletedAt,
    type: 'void',
    description: 'Invoice voided',
    debitKobo: 0,
    creditKobo: amountKobo,
    sourceId: details.id,
  });
}

/** A void: nothing is outstanding on the invoice any more, and it is closed. */
export function invoiceVoidedChange(
  invoice: Invoice,
  after: InvoiceBalance,
  timeZone: string,
): ReceivableChange | undefined {
  if (!invoice.balance.inAging) return undefined;
  const { amountDueKobo } = invoice.balance;
  return {
    ...about(invoice.details),
    outstandingDeltaKobo: -amountDueKobo,
    openCountDelta: isOpen(invoice.balance) ? -1 : 0,
    openInvoice: 'delete',
    line: voidLine(invoice.details, amountDueKobo, after.deletedAt ?? after.updatedAt, timeZone),
  };
}

/** What a statement needs of a credit note (domain/credit-note-record.ts). */
export interface CreditNoteFacts {
  number: string;
  reason: string;
  totalKobo: number;
  effect: { amountDueReductionKobo: number; clientCreditKobo: number };
  issueDate: number;
  createdAt: string;
}

/** The number's sequence: a credit note's lines' `sourceId`. */
const sequenceOf = (number: string): number => Number(number.replace(/\D/g, ''));

/**
 * A credit note: its line credits its whole total on its issue day; what it credited beyond the amount due went to the
 * client's credit, a debit beside it, so that the lines still add up to what is outstanding (less by what it took off
 * the amount due; closed when nothing is left).
 */
export function creditNoteChange(
  invoice: Invoice,
  after: InvoiceBalance,
  note: CreditNoteFacts,
): ReceivableChange | undefined {
  if (!invoice.balance.inAging) return undefined;
  const closes = isOpen(invoice.balance) && !isOpen(after);
  const common = {
    date: toIsoDate(fromEpochSeconds(note.issueDate)),
    recordedAt: note.createdAt,
    type: 'credit_note' as const,
  };
  const sourceId = sequenceOf(note.number);
  const { clientCreditKobo } = note.effect;
  const excess = lineOf(invoice.details, {
    ...common,
    description: `${note.number}: ${formatKobo(clientCreditKobo)} beyond the amount due, to the client's credit`,
    debitKobo: clientCreditKobo,
    creditKobo: 0,
    sourceId,
  });
  return {
    ...about(invoice.details),
    outstandingDeltaKobo: 0 - note.effect.amountDueReductionKobo, // never -0
    openCountDelta: closes ? -1 : 0,
    openInvoice: closes ? 'delete' : 'keep',
    line: lineOf(invoice.details, {
      ...common,
      description: clip(`Credit note ${note.number}: ${note.reason}`),
      debitKobo: 0,
      creditKobo: note.totalKobo,
      sourceId,
    }),
    ...(clientCreditKobo > 0 ? { creditExcessLine: excess } : {}),
  };
}

/**
 * An invoice written before aging, counted once (`data:migrate`): its current outstanding and open state, and its whole
 * history as ledger lines — the invoice, each payment, each reversal and the void — so that its lines add up to what
 * its rows hold. `payments` are all its payments, reversed ones included.
 */
export function existingInvoice(
  invoice: Invoice,
  payments: readonly PaymentRecord[],
  timeZone: string,
): { change: Omit<ReceivableChange, 'line'>; lines: LedgerLine[] } {
  const { details, balance } = invoice;
  const open = isOpen(balance);
  const lines = [invoiceLine(details, balance.totalKobo, timeZone)];
  for (const payment of payments) {
    lines.push(paymentLine(details, payment));
    const wht = withholdingLine(details, payment);
    if (wht) lines.push(wht);
    if (payment.reversal) lines.push(reversalLine(details, payment, timeZone));
  }
  if (balance.deletedAt !== null) lines.push(voidLine(details, balance.totalKobo, balance.deletedAt, timeZone));
  return {
    change: {
      ...about(details),
      outstandingDeltaKobo: open ? balance.amountDueKobo : 0,
      openCountDelta: open ? 1 : 0,
      openInvoice: open ? 'put' : 'keep',
    },
    lines,
  };
}
