/**
 * What an invoice is (its details, and the header a payment, a send or a reminder rewrites) and the pure invoice rules:
 * totals, payment state, who the client is, and the invoice built from a validated request. The rules of sending and
 * of reminders are in invoice-mail.ts and reminders.ts, which read the invoice.
 */
import type { CollectionState } from './card-collection.ts';
import {
  type CalendarDate,
  compareDates,
  formatTimestamp,
  fromEpochSeconds,
  localDateOf,
  startOfDayIn,
  toEpochSeconds,
} from './dates.ts';
import type { InvoiceRequest, MetadataValue, NewClientRequest } from './invoice-request.ts';
import { accept, type Decision, invalidFields, notFound, Refusal, refuse } from './refusal.ts';
import { type TaxCategory, type TaxEntry, type TaxSplit, taxInvoice, type VatSetting } from './tax.ts';

export type PaymentStatus = 'unpaid' | 'partially_paid' | 'paid';

/** `unsent` until the first send; then the state of the latest send's job. */
export const MAIL_STATUSES = ['unsent', 'queued', 'sent', 'failed', 'bounced'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
export type MailJobState = Exclude<MailStatus, 'unsent'>;

/** What an invoice says about its latest send (kept on the invoice header; the rules: invoice-mail.ts). */
export interface InvoiceMail {
  status: MailJobState;
  /** The latest send's job: only its outcome may change these fields. */
  jobId: string;
  /** When SES accepted the latest send (`YYYY-MM-DD HH:MM:SS`), or null. */
  sentAt: string | null;
  /** Why the latest send failed or bounced, or null. */
  error: string | null;
}

/** One reminder recorded on an invoice: its offset and when the sweep queued its e-mail (`YYYY-MM-DD HH:MM:SS`, UTC). */
export interface ReminderRecord {
  offset: number;
  sentAt: string;
}

/** What an invoice's header says about its reminders (the rules: reminders.ts). */
export interface InvoiceReminders {
  /** In the order they were sent. */
  sent: ReminderRecord[];
  paused: boolean;
}

export interface InvoiceLine {
  id: string;
  name: string;
  description: string;
  quantity: number;
  unitCostKobo: number;
  /** The line's tax split (docs/tax.md); absent on invoices created before VAT and discounts: none, `standard`. */
  discountKobo?: number;
  tax?: TaxCategory;
  /** After the discount and without VAT. */
  netKobo?: number;
}

/** What an invoice's or a credit note's line shows, its tax split decided: on the documents and in the e-invoice. */
export type LineFacts = Pick<
  Required<InvoiceLine>,
  'name' | 'description' | 'quantity' | 'unitCostKobo' | 'discountKobo' | 'tax'
>;

/** Mutable part of an invoice: the small header a payment rewrites. */
export interface InvoiceBalance {
  totalKobo: number;
  amountPaidKobo: number;
  amountDueKobo: number;
  paymentStatus: PaymentStatus;
  paidAt: string | null;
  /** Payments recorded on the invoice (a voided invoice has none: docs/api.md "Invoices: read, list, delete"). */
  paymentsCount: number;
  /** When the invoice was voided (DELETE /invoices/{reference_code}), or null. */
  deletedAt: string | null;
  version: number;
  updatedAt: string;
  /** What the invoice's latest send came to (docs/sending-invoices.md); absent until it is first sent. */
  mail?: InvoiceMail | undefined;
  /**
   * Counted in the receivables rows (aging, open invoices, the client's ledger: docs/data-design.md "Receivables"):
   * every invoice created since they are kept; older ones once `data:migrate` counted them.
   */
  inAging?: boolean;
  /** The reminders sent and whether they are paused (docs/receivables.md "Reminders"); absent: none, not paused. */
  reminders?: InvoiceReminders;
  /** Whether `invoice.overdue` was written for it (the sweep reads it; no view shows it). */
  overdueNotified?: boolean;
  /** Whether SES accepted a send of it at least once (reminders go only to such invoices: docs/tax.md). */
  everSent?: boolean;
  /** Automatic collection with a saved card after its first decline (docs/getting-paid-online.md). */
  collection?: CollectionState;
  /**
   * Its credit notes (docs/tax.md "Credit notes"): Σ what they took off the amount due (`amountDue = total − amountPaid
   * − credited`) and Σ their totals (what the next one is capped by). Absent: none.
   */
  creditedKobo?: number;
  creditNotesKobo?: number;
}

export interface ClientRecord {
  id: number;
  companyId: number;
  name: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  website: string;
  address: string;
  type: string;
  settlementBank: string;
  accountName: string;
  accountNumber: string;
  createdAt: string;
  updatedAt: string;
  /** When the client was deleted (soft: docs/api.md "Clients"), or null. */
  deletedAt: string | null;
}

/** Immutable part of an invoice: never rewritten after creation. */
export interface InvoiceDetails {
  id: number;
  companyId: number;
  clientId: number;
  referenceCode: string;
  feeBearer: string;
  dueDate: number;
  currency: string;
  createdAt: string;
  lines: InvoiceLine[];
  client: ClientRecord;
  merchantRef?: string;
  recipient?: string;
  recipientId?: string;
  tokenize?: boolean;
  metadata?: Record<string, MetadataValue>;
  cardToken?: string;
  /** The hosted page's token (docs/sending-invoices.md "The link"); absent on invoices created before hosted pages. */
  hostedToken?: string;
  /** The recurring series that issued it, and which of its periods it is (docs/recurring-invoices.md). */
  recurring?: InvoiceOrigin;
  /** Its number (`INV-000001`: docs/tax.md "Numbers"); absent on invoices created before numbers. */
  number?: string;
  /** Its issue date (Unix seconds of 00:00 UTC of the date); absent on invoices created before issue dates. */
  issueDate?: number;
  notes?: string;
  terms?: string;
  /** The split and the VAT setting it was computed with; absent on invoices created before VAT: `invoiceTaxOf`. */
  tax?: InvoiceTax;
  /** Counted in the tax report's rows (docs/tax.md "Tax report"); unset on invoices created before they were kept. */
  inTaxReport?: boolean;
}

export interface InvoiceOrigin {
  /** The series' id (`rec_` + ULID). */
  seriesId: string;
  /** 1 for the series' first period. */
  period: number;
}

/** An invoice's VAT setting as it was when the invoice was created, and the totals of its split (docs/tax.md). */
export interface InvoiceTax {
  vat: VatSetting;
  subtotalKobo: number;
  discountTotalKobo: number;
  taxTotalKobo: number;
  taxes: TaxEntry[];
}

export interface Invoice {
  details: InvoiceDetails;
  balance: InvoiceBalance;
}

/**
 * The stored status: `paid` once payments and what credit notes took off the amount due (`creditedKobo`) leave
 * nothing due — a credit note can settle an invoice (docs/decisions.md "Credit notes") — else whether anything was paid.
 */
export function paymentStatusOf(totalKobo: number, amountPaidKobo: number, creditedKobo = 0): PaymentStatus {
  const settledKobo = amountPaidKobo + creditedKobo;
  if (settledKobo > 0 && settledKobo >= totalKobo) return 'paid';
  return amountPaidKobo <= 0 ? 'unpaid' : 'partially_paid';
}

/** What is due on a balance: its total less what was paid and what credit notes took off. */
export const amountDueOf = (balance: Pick<InvoiceBalance, 'totalKobo' | 'creditedKobo'>, amountPaidKobo: number) =>
  balance.totalKobo - amountPaidKobo - (balance.creditedKobo ?? 0);

/**
 * The split of a requested invoice's lines under `vat` (domain/tax.ts `taxInvoice`); refused (thrown) for a discount
 * above its line, amounts past the money cap, or a total that is not above zero.
 */
export function requestedSplit(input: Pick<InvoiceRequest, 'items'>, vat: VatSetting): TaxSplit {
  const lines = input.items.map((line) => ({
    quantity: line.quantity,
    unitCostKobo: line.unit_cost,
    discountKobo: line.discount,
    tax: line.tax,
  }));
  const split = taxInvoice(lines, vat);
  if (!split.ok) throw split.refusal;
  if (split.value.totalKobo <= 0) {
    throw invalidFields([
      { code: 'invalid_amount', field: 'items', message: 'the invoice total must be greater than zero' },
    ]);
  }
  return split.value;
}

/**
 * The refusal of an issue date after today in the account's time zone, or undefined: an invoice is issued when it is
 * created or before (docs/tax.md "Issue date"; after the due date the schema refuses it).
 */
export function issueDateError(issueDate: CalendarDate | undefined, today: CalendarDate, timeZone: string) {
  if (issueDate === undefined || compareDates(issueDate, today) <= 0) return undefined;
  return invalidFields([
    { code: 'invalid_date', field: 'issue_date', message: `must not be after today (${timeZone}), format MM/DD/YYYY` },
  ]);
}

/** VAT off, as every invoice created before VAT settings was. */
const NO_VAT: VatSetting = { mode: 'off', rateUnits: 0 };

/**
 * An invoice's tax split: as stored, or — for an invoice created before VAT and discounts — what it was: no VAT, no
 * discount, each line `standard` and its net its amount.
 */
export function invoiceTaxOf(invoice: Invoice): InvoiceTax & { lines: Required<InvoiceLine>[] } {
  const { details, balance } = invoice;
  const lines = details.lines.map((line) => {
    const amount = line.quantity * line.unitCostKobo;
    return {
      ...line,
      discountKobo: line.discountKobo ?? 0,
      tax: line.tax ?? 'standard',
      netKobo: line.netKobo ?? amount,
    };
  });
  const tax = details.tax ?? {
    vat: NO_VAT,
    subtotalKobo: balance.totalKobo,
    discountTotalKobo: 0,
    taxTotalKobo: 0,
    taxes: [],
  };
  return { ...tax, lines };
}

export interface NewInvoiceIds {
  invoiceId: number;
  referenceCode: string;
  hostedToken: string;
}

/** Line item ids derive from the invoice id (at most 100 lines): unique per account, no sequence needed. */
export const lineItemId = (invoiceId: number, index: number): string => String(invoiceId * 1000 + index + 1);

const newLines = (input: InvoiceRequest, invoiceId: number, split: TaxSplit): InvoiceLine[] =>
  input.items.map((line, index) => ({
    id: lineItemId(invoiceId, index),
    name: line.item,
    description: line.description,
    quantity: line.quantity,
    unitCostKobo: line.unit_cost,
    discountKobo: split.lines[index]!.discountKobo,
    tax: split.lines[index]!.tax,
    netKobo: split.lines[index]!.netKobo,
  }));

/** The request's optional fields, each kept only when it was given. */
function keepGivenFields(details: InvoiceDetails, input: InvoiceRequest): void {
  if (input.notes !== undefined) details.notes = input.notes;
  if (input.terms !== undefined) details.terms = input.terms;
  if (input.merchant_ref !== undefined) details.merchantRef = input.merchant_ref;
  if (input.recipient !== undefined) details.recipient = input.recipient;
  if (input.recipient === 'wallet' && input.recipient_id !== undefined) details.recipientId = input.recipient_id;
  if (input.tokenize !== undefined) details.tokenize = input.tokenize;
  if (input.metadata !== undefined) details.metadata = input.metadata;
  if (input.card_token !== undefined) details.cardToken = input.card_token;
}

/** What an invoice is issued with besides its request: the account's settings and the day (docs/tax.md). */
export interface InvoiceIssue {
  /** The account's VAT setting now (default: off). */
  vat?: VatSetting;
  /** The number the account's sequence gives it. */
  number?: string;
  /** Today in the account's time zone: the issue date when the request has none. */
  today?: CalendarDate;
}

const invoiceTaxFrom = (split: TaxSplit, vat: VatSetting): InvoiceTax => ({
  vat,
  subtotalKobo: split.subtotalKobo,
  discountTotalKobo: split.discountTotalKobo,
  taxTotalKobo: split.taxTotalKobo,
  taxes: split.taxes,
});

/**
 * Builds a new invoice from a validated request (docs/api.md "Add invoice"); the optional fields are kept only when
 * given.
 */
export function buildInvoice(
  input: InvoiceRequest,
  client: ClientRecord,
  ids: NewInvoiceIds,
  currency: string,
  now: string,
  issue: InvoiceIssue = {},
): Invoice {
  const vat = issue.vat ?? NO_VAT;
  const split = requestedSplit(input, vat);
  const totalKobo = split.totalKobo;
  const details: InvoiceDetails = {
    id: ids.invoiceId,
    companyId: client.companyId,
    clientId: client.id,
    referenceCode: ids.referenceCode,
    feeBearer: input.fee_bearer,
    dueDate: toEpochSeconds(input.due_date),
    currency,
    createdAt: now,
    hostedToken: ids.hostedToken,
    lines: newLines(input, ids.invoiceId, split),
    client,
    tax: invoiceTaxFrom(split, vat),
    inTaxReport: true,
  };
  const issueDate = input.issue_date ?? issue.today;
  if (issueDate !== undefined) details.issueDate = toEpochSeconds(issueDate);
  if (issue.number !== undefined) details.number = issue.number;
  keepGivenFields(details, input);
  return {
    details,
    balance: {
      totalKobo,
      amountPaidKobo: 0,
      amountDueKobo: totalKobo,
      paymentStatus: 'unpaid',
      paidAt: null,
      paymentsCount: 0,
      deletedAt: null,
      version: 1,
      updatedAt: now,
      inAging: true,
      ...(input.reminders_paused === true ? { reminders: { sent: [], paused: true } } : {}),
    },
  };
}

/**
 * The instant invoice history lists an invoice at (docs/api.md "Invoices: read, list, delete"): when it was created,
 * or — issued on another day than that — the start of its issue day in the account's time zone, so that a period's
 * listing holds the invoices issued in it.
 */
export function invoiceListedAt(details: Pick<InvoiceDetails, 'createdAt' | 'issueDate'>, timeZone: string): string {
  if (details.issueDate === undefined) return details.createdAt;
  const issued = fromEpochSeconds(details.issueDate);
  if (compareDates(issued, localDateOf(details.createdAt, timeZone)) === 0) return details.createdAt;
  return formatTimestamp(startOfDayIn(issued, timeZone));
}

/** What the decision found in the table for a new invoice. */
export interface InvoiceFacts {
  /** The client named by `client_id`, or the one with the inline client's email; undefined when there is none. */
  client: ClientRecord | undefined;
  /** Whether another invoice of the account already has the request's `merchant_ref`. */
  merchantRefTaken: boolean;
}

/** The invoice's client: one that exists, or a new one to create from the inline `client`. */
export type ClientChoice = { existing: ClientRecord } | { create: NewClientRequest };

/** Whether the account may create this invoice (docs/api.md "Add invoice"), and for which client, or the refusal. */
export function decideInvoice(
  account: { tokenizationEnabled: boolean },
  input: InvoiceRequest,
  facts: InvoiceFacts,
): Decision<ClientChoice> {
  if (input.tokenize === true && !account.tokenizationEnabled) {
    return refuse(
      new Refusal(
        'tokenization_not_enabled',
        'Card tokenization is not enabled for this account. Contact support to enable it.',
      ),
    );
  }
  if (facts.merchantRefTaken) {
    return refuse(
      new Refusal('duplicate_merchant_ref', 'An invoice with this merchant_ref already exists.', [
        { code: 'conflict', field: 'merchant_ref', message: 'must be unique within your account' },
      ]),
    );
  }
  if (facts.client && facts.client.deletedAt === null) return accept({ existing: facts.client });
  // The schema requires exactly one of client and client_id: without an inline client, client_id named no client.
  if (input.client === undefined) return refuse(notFound('client_not_found'));
  return accept({ create: input.client });
}

/** A client created from an invoice's inline `client`. */
export function newClient(companyId: number, id: number, input: NewClientRequest, now: string): ClientRecord {
  return {
    id,
    companyId,
    name: input.company_name ?? '',
    firstName: input.first_name,
    lastName: input.last_name,
    email: input.email,
    phone: input.phone,
    website: input.website ?? '',
    address: input.address ?? '',
    type: input.type ?? 'Customer',
    settlementBank: input.settlement_bank ?? '',
    accountName: '',
    accountNumber: input.account_number ?? '',
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
}

/**
 * The invoice as its owner may see it: absent and another account's are the same `invoice_not_found` (docs/api.md
 * "Errors").
 */
export function visibleInvoice(invoice: Invoice | undefined, companyId: number): Decision<Invoice> {
  if (!invoice || invoice.details.companyId !== companyId) return refuse(notFound('invoice_not_found'));
  return accept(invoice);
}
