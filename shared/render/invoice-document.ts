/**
 * What the client sees of an invoice (docs/sending-invoices.md "What the client sees"), as a pure value: the hosted
 * page, the PDF and the e-mail are each rendered from it, so they never disagree. Built from the domain invoice, the
 * merchant's profile and the account's today; every text is as the user typed it (the renderers escape it).
 * It holds no key and no id other than the invoice's number and reference code.
 */

import type { CreditNoteSummary } from '../domain/credit-note-record.ts';
import { type CalendarDate, fromEpochSeconds, localDateOf, todayIn, toIsoDate } from '../domain/dates.ts';
import { type Invoice, type InvoiceTax, invoiceTaxOf, type LineFacts } from '../domain/invoice.ts';
import type { Logo } from '../domain/logo.ts';
import type { MerchantProfile } from '../domain/merchant-profile.ts';
import { displayedAmountDue, displayedPaymentStatus } from '../domain/overdue.ts';
import type { PaymentReceipt } from '../domain/receipt.ts';
import { payByTransferLine, type VirtualAccount } from '../domain/virtual-account.ts';
import { lineTaxLabel, type SplitRow, splitRows } from './document-split.ts';
import { formatMoney } from './money-format.ts';

/** The status the client is shown: `payment_status` as it is today, or `void` for a deleted (voided) invoice. */
export type DocumentStatus = 'unpaid' | 'partially_paid' | 'paid' | 'overdue' | 'void';

export const STATUS_LABELS: Record<DocumentStatus, string> = {
  unpaid: 'Unpaid',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
};

/** A calendar date as shown: unambiguous words (`30 Dec 2030`) and the ISO form for machines. */
export interface ShownDate {
  text: string;
  iso: string;
}

export interface DocumentLine {
  /** The item's name (`item` of the request). */
  name: string;
  /** Its description; absent when empty. */
  description?: string;
  quantity: string;
  unitCost: string;
  /** quantity × unit cost (VAT included on an invoice whose prices include it). */
  lineTotal: string;
  /** The line's discount, when it has one (docs/tax.md). */
  discount?: string;
  /** Its VAT category when the invoice has VAT and the line is not standard-rated (`Zero-rated`, `Exempt from VAT`). */
  taxLabel?: string;
}

/** A labelled value (a contact detail, a payment instruction): only set fields are listed. */
export interface LabelledValue {
  label: string;
  value: string;
}

export interface InvoiceDocument {
  merchant: {
    name: string;
    /** Address lines (the address may span lines). */
    address: string[];
    /** Phone, e-mail and tax id, those that are set, in that order. */
    contacts: LabelledValue[];
    /** The reply-to address, when set (the e-mail uses it). */
    email?: string;
    /** The merchant's logo, when it has one (docs/accounts.md "The logo"). */
    logo?: Logo;
  };
  client: {
    /** The person's name, or the company's when the person's is empty. */
    name: string;
    /** The client's company, when set and not already the name. */
    company?: string;
    /** The client's postal address lines; empty when it has none. */
    address: string[];
  };
  /** The invoice number: its `number` (`INV-000001`), or its `id` for an invoice created before numbers. */
  number: string;
  referenceCode: string;
  issued: ShownDate;
  due: ShownDate;
  currency: string;
  lines: DocumentLine[];
  /** The rows between the items and the total (subtotal, discount, VAT): none without VAT or discounts. */
  split: SplitRow[];
  total: string;
  amountPaid: string;
  amountDue: string;
  status: DocumentStatus;
  statusLabel: string;
  /** When the invoice was voided (`YYYY-MM-DD HH:MM:SS`, UTC), for a void one. */
  voidedAt?: string;
  /**
   * "Pay by transfer to <bank> <account number> (<account name>)": the client's own virtual account
   * (docs/bank-transfers.md), shown above the manual instructions; absent when the client has none.
   */
  payByTransfer?: string;
  /** Bank, account name and account number, those that are set; empty when none is. */
  paymentInstructions: LabelledValue[];
  /** The hosted page's absolute URL; null for an invoice that has none yet (created before hosted pages). */
  hostedUrl: string | null;
  /** The merchant's notes and terms on this invoice, when given (they may span lines). */
  notes?: string;
  terms?: string;
  /** Its payments and credit notes, when they were read (docs/getting-paid-online.md "Receipts"). */
  payments?: DocumentPayments;
}

/** Who the invoice is from: the account's name and time zone, and its profile. */
export interface Merchant {
  name: string;
  timeZone: string;
  profile: MerchantProfile;
  logo?: Logo;
}

export interface DocumentInput {
  invoice: Invoice;
  merchant: Merchant;
  /** The account's calendar date today: it decides whether the invoice is shown as overdue. */
  today: CalendarDate;
  hostedUrl: string | null;
  /** The invoice's receipts and its pay button, when the page or PDF shows them. */
  payments?: Omit<PaymentsInput, 'paidAt'>;
  /** The client's virtual account, when it has one. */
  virtualAccount?: VirtualAccount | undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function showDate(date: CalendarDate): ShownDate {
  return { text: `${date.day} ${MONTHS[date.month - 1]} ${date.year}`, iso: toIsoDate(date) };
}

/** `created_at` (UTC) as the calendar date it was in the merchant's time zone. */
function creationDay(createdAt: string, timeZone: string): CalendarDate {
  return todayIn(timeZone, new Date(`${createdAt.replace(' ', 'T')}Z`));
}

function labelled(entries: [string, string | undefined][]): LabelledValue[] {
  return entries.flatMap(([label, value]) => (value ? [{ label, value }] : []));
}

export function clientOf(invoice: Invoice): InvoiceDocument['client'] {
  const { client } = invoice.details;
  const person = `${client.firstName} ${client.lastName}`.trim();
  const company = client.name.trim();
  const address = client.address
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (!person) return { name: company, address };
  return company && company !== person ? { name: person, company, address } : { name: person, address };
}

/** The day the client is told the invoice was issued: its issue date, or its creation day for an older invoice. */
export function issuedOn(invoice: Invoice, timeZone: string): CalendarDate {
  const { issueDate, createdAt } = invoice.details;
  return issueDate === undefined ? creationDay(createdAt, timeZone) : fromEpochSeconds(issueDate);
}

export function merchantOf({ name, profile, logo }: Merchant): InvoiceDocument['merchant'] {
  return {
    name,
    address: profile.address ? profile.address.split('\n') : [],
    contacts: labelled([
      ['Phone', profile.phone],
      ['E-mail', profile.email],
      ['Tax ID', profile.taxId],
    ]),
    ...(profile.email ? { email: profile.email } : {}),
    ...(logo ? { logo } : {}),
  };
}

/** What a line of an invoice or a credit note shows: its amounts, and its discount and VAT category when it has them. */
export function documentLine(tax: InvoiceTax, line: LineFacts, money: (kobo: number) => string): DocumentLine {
  const taxLabel = lineTaxLabel(tax, line.tax);
  return {
    name: line.name,
    ...(line.description.trim() ? { description: line.description } : {}),
    quantity: String(line.quantity),
    unitCost: money(line.unitCostKobo),
    lineTotal: money(line.quantity * line.unitCostKobo),
    ...(line.discountKobo > 0 ? { discount: money(line.discountKobo) } : {}),
    ...(taxLabel ? { taxLabel } : {}),
  };
}

function documentLines(tax: ReturnType<typeof invoiceTaxOf>, money: (kobo: number) => string): DocumentLine[] {
  return tax.lines.map((line) => documentLine(tax, line, money));
}

/** The document of an invoice as the client sees it on `today`. */
export function invoiceDocument(input: DocumentInput): InvoiceDocument {
  const { invoice, merchant, today, hostedUrl, payments, virtualAccount } = input;
  const { details, balance } = invoice;
  const money = (kobo: number) => formatMoney(kobo, details.currency);
  const status: DocumentStatus = displayedPaymentStatus(balance, details.dueDate, today);
  const { profile } = merchant;
  const tax = invoiceTaxOf(invoice);
  return {
    merchant: merchantOf(merchant),
    client: clientOf(invoice),
    number: details.number ?? String(details.id),
    referenceCode: details.referenceCode,
    issued: showDate(issuedOn(invoice, merchant.timeZone)),
    due: showDate(fromEpochSeconds(details.dueDate)),
    currency: details.currency,
    lines: documentLines(tax, money),
    split: splitRows(tax, money),
    total: money(balance.totalKobo),
    amountPaid: money(balance.amountPaidKobo),
    amountDue: money(displayedAmountDue(balance)),
    status,
    statusLabel: STATUS_LABELS[status],
    ...(balance.deletedAt !== null ? { voidedAt: balance.deletedAt } : {}),
    ...(virtualAccount ? { payByTransfer: payByTransferLine(virtualAccount) } : {}),
    paymentInstructions: labelled([
      ['Bank', profile.bankName],
      ['Account name', profile.accountName],
      ['Account number', profile.accountNumber],
    ]),
    hostedUrl,
    ...(details.notes ? { notes: details.notes } : {}),
    ...(details.terms ? { terms: details.terms } : {}),
    ...(payments
      ? {
          payments: documentPayments(
            { ...payments, paidAt: balance.paidAt },
            { money, date: showDate, timeZone: merchant.timeZone },
          ),
        }
      : {}),
  };
}

/**
 * What a client sees of an invoice's payments (docs/getting-paid-online.md "Receipts"): each payment (date, channel,
 * amount; reversed ones marked), the day a paid invoice was paid, and the pay button's amount. Part of the invoice
 * document (./invoice-document.ts), so the page and the PDF agree.
 */
export interface DocumentReceipt {
  date: ShownDate;
  /** The channel as people read it (`Bank transfer`, `Card`…). */
  channel: string;
  /** What the invoice was credited. */
  amount: string;
  reversed: boolean;
  /** An online payment of which money goes back: what was received, and what is refunded. */
  refund?: { received: string; refunded: string };
  /** The withholding tax the client deducted beside `amount` (the invoice was credited both). */
  withheld?: string;
}

/** The pay button: the amount the checkout charges, and where the form posts (the page's own path + `/pay`). */
export interface PayOnline {
  amount: string;
  action: string;
  /** The processing fee the amount includes, when the client bears it. */
  fee?: string;
}

export interface DocumentPayments {
  receipts: DocumentReceipt[];
  /** Its credit notes (docs/tax.md "Credit notes"), in number order. */
  creditNotes: DocumentCreditNote[];
  /** The day a paid invoice was paid (account time zone). */
  paidOn?: ShownDate;
  payOnline?: PayOnline;
}

export interface DocumentCreditNote {
  number: string;
  date: ShownDate;
  reason: string;
  amount: string;
}

export interface PaymentsInput {
  receipts: readonly PaymentReceipt[];
  /** Absent: none. */
  creditNotes?: readonly CreditNoteSummary[];
  /** When the invoice became paid (`paid_at`, UTC), or null. */
  paidAt: string | null;
  /** Offered when the invoice can be paid online: the checkout amount, and the hosted page's URL. */
  payOnline?: { amountKobo: number; feeKobo: number; hostedUrl: string };
}

const CHANNEL_LABELS: Record<string, string> = {
  BankTransfer: 'Bank transfer',
  Cash: 'Cash',
  POS: 'POS',
  Cheque: 'Cheque',
  Card: 'Card',
  USSD: 'USSD',
};

export const channelLabel = (channel: string): string => CHANNEL_LABELS[channel] ?? channel;

/** How the document shows money and dates (./invoice-document.ts), and the merchant's time zone. */
export interface Shown {
  money: (kobo: number) => string;
  date: (date: CalendarDate) => ShownDate;
  timeZone: string;
}

/** The payments part of the document. */
export function documentPayments(input: PaymentsInput, { money, date: showDate, timeZone }: Shown): DocumentPayments {
  const receipts = [...input.receipts]
    .sort((a, b) => (a.recordedId < b.recordedId ? -1 : 1))
    .map(
      (receipt): DocumentReceipt => ({
        date: showDate(fromEpochSeconds(receipt.transactionDate)),
        channel: channelLabel(receipt.channel),
        amount: money(receipt.amountKobo),
        reversed: receipt.reversedAt !== undefined,
        ...(receipt.refundKobo
          ? { refund: { received: money(receipt.amountChargedKobo ?? 0), refunded: money(receipt.refundKobo) } }
          : {}),
        ...(receipt.whtKobo ? { withheld: money(receipt.whtKobo) } : {}),
      }),
    );
  const { payOnline } = input;
  const creditNotes = (input.creditNotes ?? []).map((note) => ({
    number: note.number,
    date: showDate(fromEpochSeconds(note.issueDate)),
    reason: note.reason,
    amount: money(note.totalKobo),
  }));
  return {
    receipts,
    creditNotes,
    ...(input.paidAt ? { paidOn: showDate(localDateOf(input.paidAt, timeZone)) } : {}),
    ...(payOnline
      ? {
          payOnline: {
            amount: money(payOnline.amountKobo),
            action: `${new URL(payOnline.hostedUrl).pathname}/pay`,
            ...(payOnline.feeKobo > 0 ? { fee: money(payOnline.feeKobo) } : {}),
          },
        }
      : {}),
  };
}
