/**
 * The API objects: the response shapes existing client SDKs read, kept exactly (types, string quirks, nulls vs empty
 * strings), plus the additive fields of docs/api.md "Add invoice". The only place domain records become API JSON;
 * each route's answer (below), the histories and the wake sweep show records through these.
 */
import { contactFields } from '../domain/client.ts';
import { type CalendarDate, toEpochSeconds } from '../domain/dates.ts';
import { type ClientRecord, type Invoice, invoiceTaxOf } from '../domain/invoice.ts';
import { formatKobo } from '../domain/money.ts';
import { displayedAmountDue, displayedPaymentStatus } from '../domain/overdue.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import type { Totals } from '../domain/period-totals.ts';
import type { Refusal } from '../domain/refusal.ts';
import { hostedUrlOrNull } from '../hosted-url.ts';
import { type Failure, type Success, success } from '../outcome.ts';

export function clientView(client: ClientRecord) {
  return {
    id: client.id,
    company_id: client.companyId,
    name: client.name,
    // Also under the request's key: jPayant's ClientObject reads `company_name` (like `item` beside `name` on items).
    company_name: client.name,
    ...contactFields(client),
    type: client.type,
    settlement_bank: client.settlementBank,
    account_name: client.accountName,
    account_number: client.accountNumber,
    status: '1',
    created_at: client.createdAt,
    updated_at: client.updatedAt,
    deleted_at: client.deletedAt,
  };
}

type LinesAndTax = ReturnType<typeof invoiceTaxOf>;

function itemViews(invoice: Invoice, tax: LinesAndTax) {
  const { details } = invoice;
  const deletedAt = invoice.balance.deletedAt;
  return tax.lines.map((line) => ({
    id: line.id,
    company_id: String(details.companyId),
    client_id: String(details.clientId),
    name: line.name,
    item: line.name,
    description: line.description,
    quantity: String(line.quantity),
    unit_cost: formatKobo(line.unitCostKobo),
    status: '0',
    due_date: String(details.dueDate),
    created_at: details.createdAt,
    updated_at: deletedAt ?? details.createdAt,
    deleted_at: deletedAt,
    // docs/tax.md "VAT": the line's discount, VAT category and net (after the discount, without VAT).
    discount: formatKobo(line.discountKobo),
    tax: line.tax,
    net: formatKobo(line.netKobo),
  }));
}

/**
 * What an invoice was issued with (docs/tax.md): its number and issue date (null on invoices created before them), the
 * VAT setting it was created with and its split; notes and terms only when they were given.
 */
function issuedFields(invoice: Invoice, tax: LinesAndTax) {
  const { details } = invoice;
  return {
    number: details.number ?? null,
    issue_date: details.issueDate === undefined ? null : String(details.issueDate),
    vat_mode: tax.vat.mode,
    subtotal: formatKobo(tax.subtotalKobo),
    discount_total: formatKobo(tax.discountTotalKobo),
    tax_total: formatKobo(tax.taxTotalKobo),
    taxes: tax.taxes.map((entry) => ({
      name: entry.name,
      category: entry.category,
      rate: entry.rate,
      taxable: formatKobo(entry.taxableKobo),
      amount: formatKobo(entry.amountKobo),
    })),
    ...(details.notes === undefined ? {} : { notes: details.notes }),
    ...(details.terms === undefined ? {} : { terms: details.terms }),
  };
}

/**
 * How an invoice is shown on `today` — the account's calendar date for overdue (`todayForOverdue` of the request's
 * context, shared/services/context.ts), which decides whether `payment_status` is `overdue` (domain/overdue.ts).
 */
export interface ViewOptions {
  today: CalendarDate;
}

/**
 * Automatic collection after a decline (docs/getting-paid-online.md "Automatic collection"); no attempt is to come
 * once the invoice is paid or voided, whatever was scheduled.
 */
function collectionView(balance: Invoice['balance']) {
  const collection = balance.collection!;
  const open = balance.deletedAt === null && balance.amountDueKobo > 0;
  return {
    status: collection.status,
    attempts: collection.attempts,
    last_error: collection.lastError,
    next_attempt: open && collection.nextAttempt !== null ? String(toEpochSeconds(collection.nextAttempt)) : null,
  };
}

/** An invoice with its items; `withClient` adds the `client` object (create-invoice response). */
export function invoiceView(invoice: Invoice, options: ViewOptions & { withClient?: boolean }) {
  const { details, balance } = invoice;
  // The invoice's lines and tax split, worked out once for both the items and the totals.
  const tax = invoiceTaxOf(invoice);
  const view: Record<string, unknown> = {
    id: details.id,
    company_id: String(details.companyId),
    client_id: String(details.clientId),
    reference_code: details.referenceCode,
    payment_id: null,
    fee_bearer: details.feeBearer,
    // The latest send's state (docs/sending-invoices.md): `unsent` until the invoice is first sent.
    mail_status: balance.mail?.status ?? 'unsent',
    status: '0',
    due_date: String(details.dueDate),
    created_at: details.createdAt,
    updated_at: balance.updatedAt,
    deleted_at: balance.deletedAt,
    items: itemViews(invoice, tax),
    total: formatKobo(balance.totalKobo),
    amount_paid: formatKobo(balance.amountPaidKobo),
    // Nothing is due on a voided invoice (docs/tax.md "Void"), as `payment_status` `void` says.
    amount_due: formatKobo(displayedAmountDue(balance)),
    payment_status: displayedPaymentStatus(balance, details.dueDate, options.today),
    paid_at: balance.paidAt,
    currency: details.currency,
    sent_at: balance.mail?.sentAt ?? null,
    mail_error: balance.mail?.error ?? null,
    hosted_url: hostedUrlOrNull(details.hostedToken),
    // docs/receivables.md "Reminders": each one sent (its offset from the due date, when it was queued), and the pause.
    reminders: (balance.reminders?.sent ?? []).map((record) => ({ offset: record.offset, sent_at: record.sentAt })),
    reminders_paused: balance.reminders?.paused ?? false,
    ...issuedFields(invoice, tax),
  };
  if (details.merchantRef !== undefined) view.merchant_ref = details.merchantRef;
  if (details.recipient !== undefined) view.recipient = details.recipient;
  if (details.recipientId !== undefined) view.recipient_id = details.recipientId;
  if (details.tokenize !== undefined) view.tokenize = String(details.tokenize);
  if (details.metadata !== undefined) view.metadata = details.metadata;
  if (details.cardToken !== undefined) view.card_token_last4 = details.cardToken.slice(-4);
  if (details.recurring !== undefined) {
    view.recurring_id = details.recurring.seriesId;
    view.period = details.recurring.period;
  }
  if (balance.collection !== undefined) view.collection = collectionView(balance);
  if (options.withClient) view.client = clientView(details.client);
  return view;
}

/**
 * A payment with its client and its invoice (current state, with items); `paymentsCount` adds `invoice.payments_count`.
 */
export function paymentView(
  payment: PaymentRecord,
  invoice: Invoice,
  options: ViewOptions & { paymentsCount?: boolean },
) {
  return {
    id: payment.id,
    company_id: String(payment.companyId),
    client_id: String(payment.clientId),
    invoice_id: String(payment.invoiceId),
    expense_id: '',
    amount: formatKobo(payment.amountKobo),
    currency: payment.currency,
    transaction_date: String(payment.transactionDate),
    status: paymentStatusOf(payment),
    reference_code: payment.referenceCode,
    ...gatewayFields(payment),
    channel: payment.channel,
    type: 'Invoice',
    created_at: payment.createdAt,
    updated_at: payment.reversal?.reversedAt ?? payment.createdAt,
    ...(payment.reversal ? { reversed_at: payment.reversal.reversedAt, reversal_reason: payment.reversal.reason } : {}),
    ...onlineFields(payment),
    // docs/tax.md "Withholding tax": what the client withheld beside `amount`, and its receipt number ("" when none).
    wht_amount: formatKobo(payment.whtKobo ?? 0),
    wht_reference: payment.whtReference ?? '',
    client: clientView(invoice.details.client),
    invoice: options.paymentsCount
      ? { ...invoiceView(invoice, { today: options.today }), payments_count: invoice.balance.paymentsCount }
      : invoiceView(invoice, { today: options.today }),
  };
}

/**
 * `reversed` once reversed; `refunded` for an online payment the invoice could take nothing of (voided or already paid:
 * its whole amount is refunded, docs/getting-paid-online.md "Refunds"); else `success`.
 */
const paymentStatusOf = (payment: PaymentRecord): string =>
  payment.reversal ? 'reversed' : payment.online && payment.amountKobo === 0 ? 'refunded' : 'success';

/** The gateway's fields: empty for manually recorded payments, Paystack's for online ones. */
function gatewayFields(payment: PaymentRecord) {
  const { online } = payment;
  return {
    payment_id: online?.transactionId ?? '',
    referrer: online?.reference ?? '',
    gateway_response: online?.gatewayResponse ?? '',
    message: online?.message ?? '',
  };
}

/** What only an online payment carries (docs/getting-paid-online.md "The payment"): absent on manual payments. */
function onlineFields(payment: PaymentRecord) {
  const { online } = payment;
  if (!online) return {};
  const { refund, card, sender, allocation } = online;
  return {
    amount_charged: formatKobo(online.amountChargedKobo),
    fees: formatKobo(online.feesKobo),
    ...(sender ? { sender: { name: sender.name, bank: sender.bank, account_number: sender.accountLast4 } } : {}),
    ...(allocation ? { allocation } : {}),
    ...(refund ? { refund: { amount: formatKobo(refund.amountKobo), status: refund.status, id: refund.id } } : {}),
    ...(card
      ? {
          card_token: card.token,
          card: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear },
        }
      : {}),
  };
}

/**
 * Payment history's `data.summary` (docs/api.md "Payment history and pagination"): the effective range's
 * non-reversed payments, and what was reversed.
 */
export function summaryView(totals: Totals, currency: string) {
  const { byChannelKobo } = totals;
  return {
    count: totals.count,
    total: formatKobo(totals.totalKobo),
    by_channel: {
      Cash: formatKobo(byChannelKobo.Cash),
      BankTransfer: formatKobo(byChannelKobo.BankTransfer),
      POS: formatKobo(byChannelKobo.POS),
      Cheque: formatKobo(byChannelKobo.Cheque),
      Card: formatKobo(byChannelKobo.Card),
      USSD: formatKobo(byChannelKobo.USSD),
      Other: formatKobo(byChannelKobo.Other),
    },
    reversed_total: formatKobo(totals.reversedTotalKobo),
    wht_total: formatKobo(totals.whtTotalKobo),
    currency,
  };
}

/*
 * What each route answers (docs/api.md), without transport: a success's status (201 created, 200 otherwise),
 * message and API object, or a refusal's code, message, field errors and request id. Services call these directly:
 * a write's answer is decided before it commits, because it commits with it — the Idempotency-Key's record stores
 * it, so a retry replays it byte for byte, and the write's webhook events carry its object as their `data`
 * (docs/webhooks.md). shared/http turns an answer into the status line, headers and envelope.
 */

/** An answer that carries an API object: the response's `data`, and the write's events' `data`. */
export type Answer = Success<Record<string, unknown>>;

export const INVOICE_CREATED = 'Invoice created successfully.';
export const PAYMENT_RECORDED = 'Payment successful.';
export const INVOICE_DELETED = 'Invoice deleted successfully.';
export const PAYMENT_REVERSED = 'Payment reversed successfully.';
export const INVOICE_QUEUED = 'Invoice queued for sending.';
/** `POST /invoices/{reference_code}/reminders` (docs/receivables.md "Reminders"). */
export const INVOICE_REMINDERS_UPDATED = 'Invoice reminders updated.';
export const CLIENT_CREATED = 'Client created successfully.';
/** The original service's words for an e-mail it already had (its PHP SDK's tests expect them, with a 2xx). */
export const CLIENT_EXISTS = 'Client already exist.';
export const CLIENT_UPDATED = 'Client updated successfully.';
export const CLIENT_DELETED = 'Client deleted successfully.';

/** `today`: the account's calendar date for overdue (the request context's `todayForOverdue`). */
export const invoiceCreated = (invoice: Invoice, today: CalendarDate): Answer =>
  success(201, invoiceView(invoice, { today, withClient: true }), INVOICE_CREATED);

/** The payment with its invoice after it (typed: its `invoice` and `client` are the `invoice.paid` event's data). */
export const paymentRecorded = (
  payment: PaymentRecord,
  invoice: Invoice,
  today: CalendarDate,
): Success<ReturnType<typeof paymentView>> => success(201, paymentView(payment, invoice, { today }), PAYMENT_RECORDED);

/** The reversed payment with its invoice after the reversal. */
export const paymentReversed = (payment: PaymentRecord, invoice: Invoice, today: CalendarDate): Answer =>
  success(200, paymentView(payment, invoice, { today }), PAYMENT_REVERSED);

/** The answer to a deletion, also when repeated (the same 200). */
export const invoiceDeleted = (invoice: Invoice, today: CalendarDate): Answer =>
  success(200, invoiceView(invoice, { today, withClient: true }), INVOICE_DELETED);

/** A send's answer (both send routes, and their Idempotency-Key replays): the invoice, `mail_status` `queued`. */
export const invoiceQueued = (invoice: Invoice, today: CalendarDate): Answer =>
  success(200, invoiceView(invoice, { today, withClient: true }), INVOICE_QUEUED);

export const invoiceRemindersUpdated = (invoice: Invoice, today: CalendarDate): Answer =>
  success(200, invoiceView(invoice, { today, withClient: true }), INVOICE_REMINDERS_UPDATED);

export const clientCreated = (client: ClientRecord): Answer => success(201, clientView(client), CLIENT_CREATED);
/** `POST /clients` with the e-mail of a live client: that client, unchanged. */
export const clientExisting = (client: ClientRecord): Answer => success(200, clientView(client), CLIENT_EXISTS);
export const clientUpdated = (client: ClientRecord): Answer => success(200, clientView(client), CLIENT_UPDATED);
export const clientDeleted = (client: ClientRecord): Answer => success(200, clientView(client), CLIENT_DELETED);

/** `GET /invoices/{reference_code}`: the invoice with its client. */
export const invoiceShown = (invoice: Invoice, today: CalendarDate): Answer =>
  success(200, invoiceView(invoice, { today, withClient: true }));

/** `GET /payments/{reference_code}`: the invoice's latest payment, with `invoice.payments_count`. */
export const latestPaymentShown = (payment: PaymentRecord, invoice: Invoice, today: CalendarDate): Answer =>
  success(200, paymentView(payment, invoice, { today, paymentsCount: true }));

export const clientShown = (client: ClientRecord): Answer => success(200, clientView(client));

/** A refusal as the answer: the request id names the request that was refused (a replay answers with it). */
export const refused = (refusal: Refusal, requestId: string): Failure => ({
  code: refusal.code,
  message: refusal.message,
  errors: refusal.errors,
  requestId,
});
