/**
 * How a write service gets its answer without knowing HTTP. The answer to a write is committed with it (the
 * Idempotency-Key's record stores it, so a retry replays it byte for byte), so the service asks for it before
 * committing; what it contains — status, message, the API object — is decided in shared/http/write-answers.ts.
 * The API object is also what the write's webhook events carry (docs/webhooks.md: the same `data`).
 */
import type { CalendarDate } from '../domain/dates.ts';
import type { ClientRecord, Invoice } from '../domain/invoice.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import type { Outcome } from '../outcome.ts';

export interface Answer {
  outcome: Outcome;
  /** The API object the answer carries: the `data` of the write's webhook events. */
  data: Record<string, unknown>;
}

/** `today` is the account's calendar date the invoice is shown on (it decides `overdue`: shared/clock.ts). */
export interface InvoiceAnswers {
  created(invoice: Invoice, today: CalendarDate): Answer;
}

export interface PaymentAnswers {
  recorded(payment: PaymentRecord, invoice: Pick<Invoice, 'details' | 'balance'>, today: CalendarDate): Answer;
}

export interface PaymentReversalAnswers {
  /** The reversed payment with its invoice after the reversal. */
  reversed(payment: PaymentRecord, invoice: Pick<Invoice, 'details' | 'balance'>, today: CalendarDate): Answer;
}

export interface InvoiceDeletionAnswers {
  /** The answer to a deletion, also when repeated (the same 200). */
  deleted(invoice: Invoice, today: CalendarDate): Answer;
}

export interface SendAnswers {
  /** The answer to a send: the invoice with its new `mail_status` `queued`. */
  queued(invoice: Invoice, today: CalendarDate): Answer;
}

export interface ClientAnswers {
  created(client: ClientRecord): Answer;
  /** `POST /clients` with the e-mail of a live client: that client, unchanged. */
  existing(client: ClientRecord): Answer;
  updated(client: ClientRecord): Answer;
  deleted(client: ClientRecord): Answer;
}
