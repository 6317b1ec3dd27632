/**
 * Webhook events (docs/webhooks.md "Events"), pure: which events a change makes is decided from the domain's own values
 * (a payment that settles the invoice, a mail job's outcome, the reminder sent); each event's `data` is the API's own
 * response data for the change. Signing is webhook-signature.ts, the retry schedule retry-schedule.ts, the endpoint URL
 * policy webhook-url-policy.ts.
 */
export const WEBHOOK_EVENT_TYPES = [
  'invoice.created',
  'payment.recorded',
  'invoice.paid',
  'invoice.deleted',
  'invoice.overdue',
  'payment.reversed',
  'invoice.sent',
  'invoice.delivery_failed',
  'invoice.reminder_sent',
  'credit_note.created',
  'payment.refund_issued',
  'invoice.payment_failed',
  'recurring.completed',
  'client.credit_changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The JSON body POSTed to the endpoint; `data` is exactly the matching API response's `data`. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** YYYY-MM-DD HH:MM:SS (UTC), the same instant as the write's `created_at`. */
  created_at: string;
  company_id: string;
  data: Record<string, unknown>;
}

export const EVENT_ID_PREFIX = 'evt_';
/** `evt_` + a ULID (26 Crockford base32 characters). */
export const EVENT_ID_PATTERN = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

export const eventId = (ulid: string): string => `${EVENT_ID_PREFIX}${ulid}`;

interface EventContext {
  companyId: number;
  /** YYYY-MM-DD HH:MM:SS of the write. */
  createdAt: string;
  /** Returns a fresh ULID for each call (monotonic within the write, so ids sort by creation). */
  newUlid: () => string;
}

const event = (type: WebhookEventType, data: Record<string, unknown>, context: EventContext): WebhookEvent => ({
  id: eventId(context.newUlid()),
  type,
  created_at: context.createdAt,
  company_id: String(context.companyId),
  data,
});

/** `invoice.created`, from add invoice's response `data`. */
export function invoiceCreatedEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('invoice.created', data, context)];
}

/** Add payment's response `data`: the payment, with its invoice and client. */
export interface PaymentData extends Record<string, unknown> {
  invoice: Record<string, unknown>;
  client: unknown;
}

/**
 * `payment.recorded`, from add payment's response `data`; plus `invoice.paid` (that payment's `data.invoice` with
 * `client` added) when the payment settled the invoice (payment-acceptance.ts `AcceptedPayment.settles`).
 */
export function paymentEvents(payment: { settles: boolean }, data: PaymentData, context: EventContext): WebhookEvent[] {
  const events = [event('payment.recorded', data, context)];
  if (payment.settles) events.push(event('invoice.paid', { ...data.invoice, client: data.client }, context));
  return events;
}

/**
 * `invoice.deleted`, from the deletion's response `data` (the invoice with `client` and `items`: docs/webhooks.md
 * "invoice.deleted").
 */
export function invoiceDeletedEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('invoice.deleted', data, context)];
}

/**
 * `invoice.overdue`, once per invoice on its first overdue day (docs/webhooks.md "The wake sweep"): the invoice with
 * `client` and `items` as it is shown that day (the wake sweep: services/reminders.ts).
 */
export function invoiceOverdueEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('invoice.overdue', data, context)];
}

/**
 * `payment.reversed`, from the reversal's response `data` (the reversed payment with its invoice and client:
 * docs/api.md "Reversing a payment").
 */
export function paymentReversedEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('payment.reversed', data, context)];
}

/**
 * The outcome of an invoice's latest send (docs/sending-invoices.md "Delivery"): `invoice.sent` when SES accepted it,
 * `invoice.delivery_failed` when it was rejected, never sent, bounced or reported as spam. `data` is the invoice with
 * `client` and `items` after the change (`mail_status`, `sent_at`, `mail_error`).
 */
export function invoiceMailEvents(
  outcome: 'sent' | 'failed' | 'bounced',
  data: Record<string, unknown>,
  context: EventContext,
): WebhookEvent[] {
  return [event(outcome === 'sent' ? 'invoice.sent' : 'invoice.delivery_failed', data, context)];
}

/**
 * `invoice.reminder_sent`, when the sweep queued a reminder (docs/receivables.md "Reminders"): the invoice with
 * `client` and `items` as it is shown that day (its `reminders` include this one), plus `reminder_offset`.
 */
export function invoiceReminderEvents(
  data: Record<string, unknown>,
  offset: number,
  context: EventContext,
): WebhookEvent[] {
  return [event('invoice.reminder_sent', { ...data, reminder_offset: offset }, context)];
}

/** `credit_note.created`, from the credit-note route's response `data` (the credit note with its invoice after it). */
export function creditNoteCreatedEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('credit_note.created', data, context)];
}

/**
 * `payment.refund_issued`, when Paystack accepted the refund of money an online payment's invoice could not take
 * (docs/getting-paid-online.md "Refunds"): the payment with its `refund` (Paystack's id and status), its invoice and
 * client, as `payment.recorded`'s data.
 */
export function paymentRefundIssuedEvents(data: PaymentData, context: EventContext): WebhookEvent[] {
  return [event('payment.refund_issued', data, context)];
}

/**
 * `client.credit_changed`, for each change of a client's credit (docs/bank-transfers.md "Client credit"): received
 * from a transfer, applied to an invoice, refunded. `data` is the client's id, its `credit_balance` after, and the
 * change.
 */
export function clientCreditChangedEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('client.credit_changed', data, context)];
}

/**
 * `invoice.payment_failed`, for each declined charge of a saved card (docs/getting-paid-online.md "Automatic
 * collection"): the invoice with `client` and `items`, its `collection` after the decline.
 */
export function invoicePaymentFailedEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('invoice.payment_failed', data, context)];
}

/** `recurring.completed`: the series' last period's invoice was created; `data` is the series as `GET` shows it. */
export function recurringCompletedEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('recurring.completed', data, context)];
}
