/**
 * What each route answers (docs/api.md), without transport: a success's status (201 created, 200 otherwise),
 * message and API object, or a refusal's code, message, field errors and request id. Services call these directly:
 * a write's answer is decided before it commits, because it commits with it — the Idempotency-Key's record stores
 * it, so a retry replays it byte for byte, and the write's webhook events carry its object as their `data`
 * (docs/webhooks.md). shared/http turns an answer into the status line, headers and envelope.
 */
import type { CalendarDate } from '../domain/dates.ts';
import type { ClientRecord, Invoice } from '../domain/invoice.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import type { Refusal } from '../domain/refusal.ts';
import { type Failure, type Success, success } from '../outcome.ts';
import { clientView, invoiceView, paymentView } from './views.ts';

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
