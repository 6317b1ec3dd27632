/**
 * Charges of automatic collection (docs/getting-paid-online.md "Automatic collection"): the charge kind's deliver
 * function — one delivery of one charge job (store/card-collections.ts), which the sweep queued with the attempt's
 * reference (services/collection-sweep.ts).
 *
 * A delivery is counted on the job before Paystack is called. The first charges the saved card with Paystack's
 * `POST /transaction/charge_authorization` under the job's reference; a later one — an earlier delivery may have
 * reached Paystack and lost its answer — first asks `GET /transaction/verify/{reference}`, so the card is never charged
 * twice (and Paystack refuses a reference used before). Money taken: recorded by `recordOnlinePayment`, the one way an
 * online payment is recorded (once per reference, whether the charge's answer or Paystack's `charge.success` webhook
 * comes first). Declined: the invoice's `collection` (domain/card-collection.ts `afterDecline`), the collection back
 * in the wake index for the next attempt, and `invoice.payment_failed`, with the job's end, in one transaction. The
 * invoice paid or voided before the charge: no charge (`stopped`).
 */

import { clockNow } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { afterDecline, type ChargeOutcome, chargeOutcome } from '../domain/card-collection.ts';
import { formatTimestamp, todayIn } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { acceptsPayments } from '../domain/invoice-deletion.ts';
import type { VerifiedCharge } from '../domain/online-recording.ts';
import { PAYSTACK_RETRY_SCHEDULE, retryDelayMs } from '../domain/retry-schedule.ts';
import { invoicePaymentFailedEvents } from '../domain/webhook-events.ts';
import { logger } from '../observability.ts';
import type { PaystackApi } from '../outbound/paystack.ts';
import { invoiceView } from '../representation/views.ts';
import { accountFromItem } from '../store/accounts.ts';
import { batchGet, itemOf } from '../store/batch.ts';
import {
  type ChargeJobStatus,
  chargeJobEndAction,
  claimChargeDelivery,
  declineActions,
  readChargeJob,
  readSealedAuthorization,
} from '../store/card-collections.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, invoiceKeys } from '../store/invoices.ts';
import { keys } from '../store/keys.ts';
import { unsealCardAuthorization } from '../store/paystack-connections.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { commitUnlessChanged } from '../store/write-executor.ts';
import type { JobOutcome } from './outbox.ts';
import { paystackOf } from './paystack-client.ts';
import { recordOnlinePayment } from './record-online-payment.ts';

/** What Paystack said of the attempt's charge, or why it was not asked. */
type Word =
  | { kind: 'paid'; charge: VerifiedCharge }
  | { kind: 'declined'; error: string }
  | { kind: 'stopped'; reason: string }
  | { kind: 'transient'; error: string };

/** The charge kind's deliver function (store/outbox.ts): one delivery; safe to run twice. */
export async function deliverChargeJob(jobId: string): Promise<JobOutcome> {
  const job = await readChargeJob(jobId);
  if (!job) return { kind: 'skipped', reason: 'unknown job' };
  if (job.state !== 'queued') return { kind: 'skipped', reason: `already ${job.state}` };
  if (!(await claimChargeDelivery(job, new Date().toISOString())))
    return { kind: 'skipped', reason: 'another delivery was counted first' };
  return settle(job, job.deliveries + 1, await askPaystack(job));
}

const wordOf = (outcome: ChargeOutcome, charge: VerifiedCharge): Word =>
  outcome === 'paid'
    ? { kind: 'paid', charge }
    : outcome === 'declined'
      ? { kind: 'declined', error: charge.gatewayResponse || charge.message || `Paystack status ${charge.status}` }
      : { kind: 'transient', error: `the charge is ${charge.status} at Paystack` };

async function askPaystack(job: ChargeJobStatus): Promise<Word> {
  const api = await paystackOf(job.companyId);
  if (!api) return { kind: 'declined', error: 'the account is not connected to Paystack' };
  if (job.deliveries > 0) {
    const earlier = await api.verify(job.reference);
    if (earlier.ok) return wordOf(chargeOutcome(earlier.value.status), earlier.value);
    if (earlier.failure.kind === 'unavailable')
      return { kind: 'transient', error: `verify: ${earlier.failure.detail}` };
    // Refused: Paystack has no transaction of that reference; no earlier delivery charged the card.
  }
  const invoice = await readInvoice(job.referenceCode);
  if (!invoice || !acceptsPayments(invoice.balance) || invoice.balance.amountDueKobo <= 0)
    return { kind: 'stopped', reason: 'the invoice was paid, voided or deleted before the charge' };
  return charge(api, job, invoice);
}

async function readInvoice(referenceCode: string): Promise<Invoice | undefined> {
  return invoiceFrom(await batchGet(invoiceKeys(referenceCode)), referenceCode);
}

async function charge(api: PaystackApi, job: ChargeJobStatus, invoice: Invoice): Promise<Word> {
  const sealed = await readSealedAuthorization(job.companyId, job.cardToken);
  if (!sealed) return { kind: 'declined', error: 'the saved card was removed' };
  const charged = await api.chargeAuthorization({
    authorizationCode: await unsealCardAuthorization(job.companyId, sealed),
    email: invoice.details.client.email,
    amountKobo: job.amountKobo,
    reference: job.reference,
    metadata: { reference_code: job.referenceCode, company_id: job.companyId, collection_attempt: job.attempt },
  });
  if (charged.ok) return wordOf(chargeOutcome(charged.value.status), charged.value);
  const { failure } = charged;
  if (failure.kind === 'unavailable') return { kind: 'transient', error: `charge: ${failure.detail}` };
  return { kind: 'declined', error: failure.message };
}

async function settle(job: ChargeJobStatus, delivery: number, word: Word): Promise<JobOutcome> {
  const log = { job_id: job.jobId, company_id: job.companyId, reference_code: job.referenceCode, delivery };
  if (word.kind === 'transient') {
    const delayMs = retryDelayMs(PAYSTACK_RETRY_SCHEDULE, delivery, loadConfig().webhookRetryBaseMs);
    logger.warn('collection charge: no answer yet', { ...log, error: word.error });
    if (delayMs !== undefined) return { kind: 'retry', delayMs };
    return settle(job, delivery, { kind: 'declined', error: `Paystack did not answer: ${word.error}` });
  }
  if (word.kind === 'stopped') return end(job, delivery, 'stopped', word.reason);
  if (word.kind === 'paid') {
    const recorded = await recordOnlinePayment({
      companyId: job.companyId,
      reference: job.reference,
      charge: word.charge,
    });
    const outcome =
      recorded.outcome === 'ignored' ? `not recorded: ${recorded.because}` : `payment ${recorded.paymentId}`;
    logger.info('collection charge succeeded', { ...log, outcome });
    return end(job, delivery, 'charged', outcome);
  }
  return decline(job, delivery, word.error);
}

async function end(
  job: ChargeJobStatus,
  delivery: number,
  state: 'charged' | 'stopped',
  outcome: string,
): Promise<JobOutcome> {
  const committed = await commitUnlessChanged([
    chargeJobEndAction(tableName(), job.jobId, delivery, { state, outcome }),
  ]);
  return committed ? { kind: 'delivered' } : { kind: 'skipped', reason: 'the job changed meanwhile' };
}

/** Rounds of "the invoice changed while the decline was decided: read again". */
const MAX_ROUNDS = 5;

/** The decline with the job's end: the invoice's `collection`, the next attempt's wake, `invoice.payment_failed`. */
async function decline(job: ChargeJobStatus, delivery: number, error: string): Promise<JobOutcome> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const items = await batchGet([...invoiceKeys(job.referenceCode), keys.account(job.companyId)]);
    const invoice = invoiceFrom(items, job.referenceCode);
    const accountItem = itemOf(items, keys.account(job.companyId));
    const jobEnd = chargeJobEndAction(tableName(), job.jobId, delivery, { state: 'declined', outcome: error });
    if (!invoice || !accountItem) return (await commitUnlessChanged([jobEnd])) ? { kind: 'delivered' } : skippedJob;
    const now = new Date();
    const today = todayIn(accountFromItem(accountItem).timeZone, clockNow());
    const state = afterDecline(invoice.balance.collection, job.attemptDay, error);
    const declined = { ...invoice, balance: { ...invoice.balance, collection: state } };
    const data = invoiceView(declined, { today, withClient: true });
    const context = { companyId: job.companyId, createdAt: formatTimestamp(now), newUlid: newEventUlid };
    const actions = [
      jobEnd,
      ...declineActions(tableName(), job.referenceCode, job.attempt, state),
      ...eventPuts(invoicePaymentFailedEvents(data, context), now.getTime()),
    ];
    if (await commitUnlessChanged(actions)) {
      logger.warn('collection charge declined', {
        job_id: job.jobId,
        attempt: job.attempt,
        status: state.status,
        error,
      });
      return { kind: 'delivered' };
    }
    const current = await readChargeJob(job.jobId);
    if (current?.state !== 'queued' || current.deliveries !== delivery) return skippedJob;
  }
  throw new Error(`Charge job ${job.jobId}: its invoice kept changing; the delivery is retried.`);
}

const skippedJob: JobOutcome = { kind: 'skipped', reason: 'the job changed meanwhile' };
