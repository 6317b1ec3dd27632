/**
 * E-mailing an invoice (docs/sending-invoices.md "Delivery"), pure: who a send goes to, what each attempt and each
 * report from SES does to the mail job, and what the invoice says about its latest send. A send commits a job in the
 * queued state; the mailer moves it to sent (SES accepted it), failed (a permanent rejection, or no attempt left) or
 * bounced (SES reported a bounce or a complaint). The invoice's `mail_status`, `sent_at` and `mail_error` always
 * describe its latest send: a late report about an older send changes that send's job, never the invoice.
 */
import { isEmailAddress } from './email-address.ts';
import type { Invoice, InvoiceMail, MailJobState } from './invoice.ts';
import { accept, type Decision, notFound, Refusal, refuse } from './refusal.ts';
import { type RetrySchedule, retryDelayMs } from './retry-schedule.ts';

/** `mail_` + a ULID: a mail job's id; job ids sort by creation. */
export const MAIL_JOB_ID_PATTERN = /^mail_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * When an attempt SES throttled or did not answer is tried again: its own schedule, with the same steps as webhook
 * deliveries' (about 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h × MAIL_RETRY_BASE_MS / 60 s; 8 attempts).
 */
export const MAIL_RETRY_SCHEDULE: RetrySchedule = { factors: [1, 5, 30, 120, 300, 600, 600] };

/** At most this many `cc` addresses per send (docs/api.md "Send an invoice"). */
export const MAX_CC_RECIPIENTS = 10;
/** The optional note to the client, in characters. */
export const MAX_MESSAGE_LENGTH = 1000;

/** A send as the client asked for it (every part optional). */
export interface SendRequest {
  to?: string | undefined;
  cc?: readonly string[] | undefined;
  message?: string | undefined;
}

export interface MailRecipients {
  to: string;
  /** Without the `to` address and without repeats (compared case-insensitively). */
  cc: string[];
}

/**
 * Who the send goes to, or why there is none: another account's invoice or none is 404, a voided one 409
 * `invoice_deleted`, and an invoice whose client has no (valid) e-mail address with no `to` given 422
 * `recipient_missing`.
 */
export function decideSend(
  invoice: Invoice | undefined,
  companyId: number,
  request: SendRequest,
): Decision<MailRecipients> {
  if (!invoice || invoice.details.companyId !== companyId) return refuse(notFound('invoice_not_found'));
  if (invoice.balance.deletedAt !== null)
    return refuse(
      new Refusal('invoice_deleted', 'This invoice was voided; it cannot be sent.', [
        { code: 'invoice_deleted', field: 'reference_code', message: 'the invoice was voided' },
      ]),
    );
  const to = (request.to ?? invoice.details.client.email).trim();
  if (to === '')
    return refuse(
      new Refusal('recipient_missing', "The invoice's client has no e-mail address: give one in `to`.", [
        { code: 'required', field: 'to', message: "is required when the invoice's client has no e-mail address" },
      ]),
    );
  // A client saved before control characters were refused: its address would reach another mailbox.
  if (!isEmailAddress(to))
    return refuse(
      new Refusal('recipient_missing', "The invoice's client e-mail address is not valid: give one in `to`.", [
        { code: 'invalid_email', field: 'to', message: "is required when the client's e-mail address is not valid" },
      ]),
    );
  return accept({ to, cc: distinctCopies(request.cc ?? [], to) });
}

/** The copies once each (compared case-insensitively, the first spelling kept), none to `to`. */
function distinctCopies(cc: readonly string[], to: string | undefined): string[] {
  const seen = new Set(to === undefined ? [] : [to.toLowerCase()]);
  return cc.filter((address) => {
    const folded = address.toLowerCase();
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

/**
 * The send as its Idempotency-Key compares it (docs/api.md "Idempotency": the normalised request): a repeated copy,
 * or a copy to the `to` given, is dropped as the send drops it.
 */
export function normalisedSend<R extends SendRequest>(request: R): R {
  return request.cc ? { ...request, cc: distinctCopies(request.cc, request.to?.trim()) } : request;
}

/**
 * A stage without a sender e-mails nothing (docs/deploying.md "E-mail"): the refusal names the stage setting. It is
 * answered after the invoice was found (an unknown reference is 404, as on every route that names an invoice) and
 * before anything is written, so an Idempotency-Key replays nothing of it once the stage has a sender.
 */
export const mailNotConfigured = (): Refusal =>
  new Refusal(
    'mail_not_configured',
    'This stage has no e-mail sender: set the stage setting `mailFrom` (MAIL_FROM) to a verified SES identity ' +
      '(docs/deploying.md "E-mail").',
  );

/** What SES answered one attempt with. */
export type SendResult =
  | { kind: 'accepted'; messageId: string }
  /** A permanent refusal (4xx other than throttling): sending the same message again would be refused again. */
  | { kind: 'rejected'; error: string }
  /** Throttling, a 5xx or no answer: worth another attempt later. */
  | { kind: 'transient'; error: string };

/** A job after an attempt: sent, failed for good, or still queued with the delay before the next attempt. */
export type AttemptDecision =
  | { state: 'sent'; messageId: string }
  | { state: 'failed'; error: string }
  | { state: 'queued'; error: string; retryInMs: number };

/** The job after attempt number `attemptsBefore + 1`; retries follow `MAIL_RETRY_SCHEDULE`. */
export function decideAttempt(result: SendResult, attemptsBefore: number, retryBaseMs: number): AttemptDecision {
  if (result.kind === 'accepted') return { state: 'sent', messageId: result.messageId };
  if (result.kind === 'rejected') return { state: 'failed', error: result.error };
  const attempts = attemptsBefore + 1;
  const retryInMs = retryDelayMs(MAIL_RETRY_SCHEDULE, attempts, retryBaseMs);
  if (retryInMs === undefined)
    return { state: 'failed', error: `Not sent after ${attempts} attempts; the last: ${result.error}` };
  return { state: 'queued', error: result.error, retryInMs };
}

/**
 * Why a queued job is not sent at all (its invoice is gone or was voided meanwhile; a reminder's, paid meanwhile), or
 * undefined to send it.
 */
export function reasonNotToSend(invoice: Invoice | undefined, reminder = false): string | undefined {
  if (!invoice) return 'The invoice no longer exists.';
  if (invoice.balance.deletedAt !== null) return 'The invoice was voided before it could be sent.';
  if (reminder && invoice.balance.amountDueKobo <= 0) return 'The invoice was paid before the reminder could be sent.';
  return undefined;
}

/**
 * Who a payment's receipt goes to (docs/getting-paid-online.md "Receipt e-mails"): the invoice's client, when the
 * account sends receipts, the stage has a sender and the client a valid address; else none is queued.
 */
export function receiptRecipient(
  sendReceipts: boolean,
  clientEmail: string,
  mailConfigured: boolean,
): string | undefined {
  const to = clientEmail.trim();
  return sendReceipts && mailConfigured && isEmailAddress(to) ? to : undefined;
}

/** The payment a receipt is about, as it was recorded (the job keeps it: later payments do not change it). */
export interface ReceiptFacts {
  amountKobo: number;
  /** Unix seconds of the payment date, as the payment's `transaction_date`. */
  transactionDate: number;
  channel: string;
  /** What the invoice still had due right after this payment. */
  amountDueKobo: number;
}

/** A report SES sends about a message it accepted (deployed: the configuration set's event destination). */
export interface SesNotice {
  kind: 'bounce' | 'complaint' | 'reject';
  /** One line for `mail_error`: the recipients and SES's classification. */
  detail: string;
}

/**
 * The job's new state after a report, or undefined when the report changes nothing: failed and bounced are final,
 * and a report can only follow an acceptance (a job still queued had SES accept it just before a crash).
 */
export function decideNotice(
  state: MailJobState,
  notice: SesNotice,
): { state: 'bounced' | 'failed'; error: string } | undefined {
  if (state === 'failed' || state === 'bounced') return undefined;
  if (notice.kind === 'reject') return { state: 'failed', error: `Rejected by SES after acceptance: ${notice.detail}` };
  const what = notice.kind === 'bounce' ? 'Bounced' : 'Marked as spam by the recipient';
  return { state: 'bounced', error: `${what}: ${notice.detail}` };
}

/** Whether the invoice's mail fields describe `jobId` (its latest send), so that the job's outcome may change them. */
export const describesJob = (mail: InvoiceMail | undefined, jobId: string): boolean => mail?.jobId === jobId;
