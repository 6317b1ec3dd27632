/**
 * Refunds through Paystack (docs/getting-paid-online.md "Refunds"): the refund kind's deliver function — one attempt
 * of one refund job (store/refund-jobs.ts) — and what Paystack's refund events say of a refund it issued.
 *
 * An attempt is counted on the job before Paystack is called. The first asks `POST /refund` for the job's amount of
 * the transaction, its merchant note naming the job; a later one — an earlier attempt may have reached Paystack and
 * lost its answer — first asks Paystack's refund listing of the transaction for a refund naming the job, so a refund
 * is never asked twice. Issued: the job, the payment's `refund` (Paystack's id and status) and the event
 * `payment.refund_issued` in one transaction. Paystack unreachable: retried on the webhooks' schedule; refused, or
 * every retry failed: `failed`, counted (`RefundsFailed`, alarmed) and shown in `paystack:events` — and a refund of
 * client credit gives its amount back to the credit.
 */
import { todayForOverdue } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { returnFailedRefund } from '../domain/client-credit.ts';
import { formatTimestamp, toIsoDate } from '../domain/dates.ts';
import type { OnlineRefund } from '../domain/payment-record.ts';
import { PAYSTACK_RETRY_SCHEDULE, retryDelayMs } from '../domain/retry-schedule.ts';
import { type PaymentData, paymentRefundIssuedEvents } from '../domain/webhook-events.ts';
import { isRecord } from '../guards.ts';
import { countPaystackOutcome, logger } from '../observability.ts';
import type { PaystackRefund } from '../outbound/paystack.ts';
import { paymentView } from '../representation/views.ts';
import { accountFromItem, getAccount } from '../store/accounts.ts';
import { batchGet, itemOf } from '../store/batch.ts';
import { type CreditLine, readClientCredit } from '../store/client-credit.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, invoiceKeys, latestPaymentFrom } from '../store/invoices.ts';
import { paymentFromItem } from '../store/items.ts';
import { keys } from '../store/keys.ts';
import { readCheckoutAttempt } from '../store/online-payments.ts';
import {
  claimRefundAttempt,
  paymentRefundActions,
  type RefundJobChange,
  type RefundJobStatus,
  readRefundJob,
  refundJobChangeAction,
} from '../store/refund-jobs.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { commitUnlessChanged, type TransactItem } from '../store/write-executor.ts';
import { creditChangeWrites } from './client-credit.ts';
import type { JobOutcome } from './outbox.ts';
import { paystackOf } from './paystack-client.ts';

/** What Paystack said to an attempt. */
type Asked =
  | { kind: 'issued'; refund: PaystackRefund }
  | { kind: 'refused'; error: string }
  | { kind: 'transient'; error: string };

/** The refund kind's deliver function (store/outbox.ts): one attempt; safe to run twice. */
export async function deliverRefundJob(jobId: string): Promise<JobOutcome> {
  const job = await readRefundJob(jobId);
  if (!job) return { kind: 'skipped', reason: 'unknown job' };
  if (job.state !== 'queued') return { kind: 'skipped', reason: `already ${job.state}` };
  if (!(await claimRefundAttempt(job, new Date().toISOString())))
    return { kind: 'skipped', reason: 'another attempt was counted first' };
  return settle(job, job.attempts + 1, await askPaystack(job));
}

/** Paystack's refund naming the job: an earlier attempt's, else a new one. */
async function askPaystack(job: RefundJobStatus): Promise<Asked> {
  const api = await paystackOf(job.companyId);
  if (!api) return { kind: 'transient', error: 'the account is not connected to Paystack' };
  const transaction = job.transactionId || job.reference;
  if (job.attempts > 0) {
    const listed = await api.listRefunds(transaction);
    if (!listed.ok) {
      const { failure } = listed;
      if (failure.kind === 'unavailable') return { kind: 'transient', error: `refund listing: ${failure.detail}` };
      return {
        kind: 'refused',
        error: `an earlier attempt may have reached Paystack and its refund listing answered "${failure.message}": check the dashboard`,
      };
    }
    const earlier = listed.value.find((refund) => refund.merchantNote.includes(job.jobId));
    if (earlier) return { kind: 'issued', refund: earlier };
  }
  const asked = await api.refund({ transaction, amountKobo: job.amountKobo, merchantNote: refundNote(job) });
  if (asked.ok) return { kind: 'issued', refund: asked.value };
  const { failure } = asked;
  if (failure.kind === 'refused') return { kind: 'refused', error: `Paystack refused the refund: ${failure.message}` };
  return { kind: 'transient', error: `refund unavailable: ${failure.detail}` };
}

/** The merchant note names the job: how a later attempt finds the refund an earlier one made. */
const REASON_WORDS = {
  excess: 'more than the invoice could take',
  voided: 'invoice voided',
  already_paid: 'invoice already paid',
  unpayable: 'too little to record',
} as const;
const refundNote = (job: RefundJobStatus): string =>
  job.reason === 'credit'
    ? `Refund ${job.jobId} of client credit from transfer ${job.reference}`
    : `Refund ${job.jobId} of payment ${job.paymentId} (invoice ${job.referenceCode}): ${REASON_WORDS[job.reason]}`;

async function settle(job: RefundJobStatus, attempt: number, asked: Asked): Promise<JobOutcome> {
  const log = { job_id: job.jobId, company_id: job.companyId, payment_id: job.paymentId, attempt };
  if (asked.kind === 'transient') {
    const delayMs = retryDelayMs(PAYSTACK_RETRY_SCHEDULE, attempt, loadConfig().webhookRetryBaseMs);
    if (delayMs !== undefined) {
      const nextAttemptAt = new Date(Date.now() + delayMs).toISOString();
      const change: RefundJobChange = { state: 'queued', error: asked.error, nextAttemptAt };
      if (!(await commitUnlessChanged([refundJobChangeAction(tableName(), job.jobId, attempt, change)])))
        return { kind: 'skipped', reason: 'the job changed meanwhile' };
      logger.warn('refund attempt failed; retry scheduled', { ...log, error: asked.error });
      return { kind: 'retry', delayMs };
    }
    return settle(job, attempt, { kind: 'refused', error: `gave up after ${attempt} attempts: ${asked.error}` });
  }
  const change: RefundJobChange =
    asked.kind === 'issued'
      ? { state: 'issued', refundId: asked.refund.id, refundStatus: asked.refund.status || 'pending' }
      : { state: 'failed', error: asked.error };
  if (!(await finish(job, attempt, change))) return { kind: 'skipped', reason: 'the job changed meanwhile' };
  if (change.state === 'issued') {
    countPaystackOutcome('RefundsIssued');
    logger.info('refund issued', { ...log, refund_id: change.refundId });
    return { kind: 'delivered' };
  }
  countPaystackOutcome('RefundsFailed');
  logger.warn('refund failed', { ...log, error: change.error });
  return { kind: 'failed' };
}

/** Rounds of "the payment or its invoice changed while this was decided: read again". */
const MAX_ROUNDS = 5;

/** The job's end with the payment's `refund` (and `payment.refund_issued`): false when the job itself changed. */
async function finish(
  job: RefundJobStatus,
  attempt: number,
  change: Exclude<RefundJobChange, { state: 'queued' }>,
): Promise<boolean> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const actions = [
      refundJobChangeAction(tableName(), job.jobId, attempt, change),
      ...(await paymentSide(job, change)),
    ];
    if (await commitUnlessChanged(actions)) return true;
    const current = await readRefundJob(job.jobId);
    if (current?.state !== 'queued' || current.attempts !== attempt) return false;
  }
  throw new Error(`Refund job ${job.jobId}: its payment kept changing; the attempt is retried.`);
}

/**
 * The payment's `refund` after the job, and the event when issued (none when the payment is gone). A refund of client
 * credit names no payment: issued, the job's own change is all there is to write; failed, its amount is credit again.
 */
async function paymentSide(job: RefundJobStatus, change: Exclude<RefundJobChange, { state: 'queued' }>) {
  if (job.reason === 'credit') return change.state === 'failed' ? creditReturned(job) : [];
  const paymentKey = keys.payment(job.companyId, job.paymentId);
  const items = await batchGet([paymentKey, ...invoiceKeys(job.referenceCode), keys.account(job.companyId)]);
  const paymentItem = itemOf(items, paymentKey);
  const invoice = invoiceFrom(items, job.referenceCode);
  const accountItem = itemOf(items, keys.account(job.companyId));
  if (!paymentItem || !invoice || !accountItem) return [];
  const payment = paymentFromItem(paymentItem);
  const before: OnlineRefund = payment.online?.refund ?? { amountKobo: job.amountKobo, status: 'pending', id: null };
  const after: OnlineRefund =
    change.state === 'issued'
      ? { amountKobo: before.amountKobo, status: change.refundStatus, id: change.refundId }
      : { amountKobo: before.amountKobo, status: 'failed', id: null };
  const isLatest = latestPaymentFrom(items, job.referenceCode)?.id === payment.id;
  const actions: TransactItem[] = payment.online?.refund
    ? paymentRefundActions(tableName(), { ...payment, isLatest }, before, after)
    : [];
  if (change.state !== 'issued' || !payment.online) return actions;
  const refunded = { ...payment, online: { ...payment.online, refund: after } };
  const today = todayForOverdue(accountFromItem(accountItem).timeZone);
  const data = paymentView(refunded, invoice, { today }) as PaymentData;
  const now = new Date();
  const context = { companyId: job.companyId, createdAt: formatTimestamp(now), newUlid: newEventUlid };
  return [...actions, ...eventPuts(paymentRefundIssuedEvents(data, context), now.getTime())];
}

/**
 * A credit refund that failed for good gives its amount back to the client's credit (a `refund_failed` line and
 * `client.credit_changed`), on condition of the credit's version, in the job's own transaction. Jobs written before
 * they named their client have none to give back to: their failure stays alarmed for a person to settle.
 */
async function creditReturned(job: RefundJobStatus): Promise<TransactItem[]> {
  if (job.clientId === undefined) return [];
  const ids = { companyId: job.companyId, clientId: job.clientId };
  const [before, account] = await Promise.all([
    readClientCredit(ids.companyId, ids.clientId),
    getAccount(job.companyId),
  ]);
  if (!account) return [];
  const after = returnFailedRefund(before, { reference: job.reference, amountKobo: job.amountKobo });
  const line: CreditLine = {
    kind: 'refund_failed',
    amountKobo: job.amountKobo,
    recordedAt: formatTimestamp(new Date()),
    date: toIsoDate(todayForOverdue(account.timeZone)),
    transferReference: job.reference,
  };
  return creditChangeWrites(ids, before, after, line);
}

/** Paystack's refund statuses in the order they move (`failed` and `needs-attention` may follow any). */
const REFUND_PROGRESS = ['pending', 'processing', 'processed'];

/**
 * A refund event of Paystack's (`refund.pending`, `refund.processing`, `refund.processed`, `refund.failed`…): the
 * status of a refund this service issued, written on its payment when it moves the refund on. A refund the job has not
 * recorded yet is waited for (`transient`); any other is ignored.
 */
export async function processRefundEvent(
  companyId: number,
  data: unknown,
): Promise<{ state: 'refund' | 'ignored' | 'transient'; outcome: string; paymentId?: number }> {
  const event = refundEventOf(data);
  if (!event) return { state: 'ignored', outcome: 'a refund event without its transaction reference, id or status' };
  const attempt = await readCheckoutAttempt(event.reference);
  if (attempt?.companyId !== companyId || attempt.recordedPaymentId === undefined)
    return { state: 'ignored', outcome: 'unknown_reference' };
  const paymentId = attempt.recordedPaymentId;
  const paymentKey = keys.payment(companyId, paymentId);
  const items = await batchGet([paymentKey, keys.invoiceHeader(attempt.referenceCode)]);
  const paymentItem = itemOf(items, paymentKey);
  const payment = paymentItem && paymentFromItem(paymentItem);
  const before = payment?.online?.refund;
  if (!payment || !before) return { state: 'ignored', outcome: 'no refund of this service', paymentId };
  if (before.id === null) return { state: 'transient', outcome: 'the refund job has not recorded it yet', paymentId };
  if (before.id !== event.id)
    return { state: 'ignored', outcome: `refund ${event.id} is not this service's`, paymentId };
  if (!movesOn(before.status, event.status))
    return { state: 'refund', outcome: `refund ${event.status} (already ${before.status})`, paymentId };
  const isLatest = latestPaymentFrom(items, attempt.referenceCode)?.id === paymentId;
  const after = { ...before, status: event.status };
  const committed = await commitUnlessChanged(
    paymentRefundActions(tableName(), { ...payment, isLatest }, before, after),
  );
  if (!committed) return { state: 'transient', outcome: 'the payment changed meanwhile', paymentId };
  return { state: 'refund', outcome: `refund ${event.status} for payment ${paymentId}`, paymentId };
}

function refundEventOf(data: unknown): { reference: string; id: string; status: string } | undefined {
  if (!isRecord(data)) return undefined;
  const { transaction_reference: reference, id, status } = data;
  if (typeof reference !== 'string' || (typeof id !== 'string' && typeof id !== 'number') || typeof status !== 'string')
    return undefined;
  return { reference, id: String(id), status };
}

function movesOn(before: string, after: string): boolean {
  if (before === after) return false;
  const from = REFUND_PROGRESS.indexOf(before);
  const to = REFUND_PROGRESS.indexOf(after);
  return from === -1 || to === -1 || to > from;
}
