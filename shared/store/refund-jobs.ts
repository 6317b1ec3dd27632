/**
 * Refund jobs (docs/getting-paid-online.md "Refunds"; docs/data-design.md "Getting paid online"): money a recording
 * decided to give back through Paystack's `POST /refund`. A job is put in the recording's transaction (`queued`, an
 * outbox item of the refund kind: store/outbox.ts); each attempt is counted on it before Paystack is called (so an
 * attempt that may have reached Paystack is known to the next one), and its end — `issued` with Paystack's refund, or
 * `failed` — is written with the payment's `refund` in one transaction, on condition that the job is still in the
 * attempt that decided it. The payment's `refund` is also where Paystack's later refund events write its status.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { OnlineRefund } from '../domain/payment-record.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { keys, refundJobIndexKeys } from './keys.ts';
import { latestListed } from './listing-index.ts';
import { putNew, type TransactItem } from './write-executor.ts';

export const REFUND_JOB_ENTITY = 'refund_job';
/** The job's id (`rfj_` + a ULID): the outbox's refund kind names its jobs by it (store/outbox.ts). */
export const REFUND_JOB_ID_ATTRIBUTE = 'job_id';
export const REFUND_JOB_ID_PATTERN = /^rfj_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * Why money goes back: more than the invoice could take, or nothing at all (voided, already paid, too little); or a
 * refund of a client's credit (`credit`: docs/bank-transfers.md "Refunding credit"), which names no payment (id 0).
 */
export type RefundReason = 'excess' | 'voided' | 'already_paid' | 'unpayable' | 'credit';

/** `queued` until Paystack has the refund (`issued`), or until it refused or every retry failed (`failed`). */
export type RefundJobState = 'queued' | 'issued' | 'failed';

export interface RefundJob {
  /** `rfj_` + ULID. */
  jobId: string;
  companyId: number;
  paymentId: number;
  referenceCode: string;
  /** The checkout reference and Paystack's transaction id: what Paystack's refund names. */
  reference: string;
  transactionId: string;
  amountKobo: number;
  reason: RefundReason;
  createdAt: string;
  /** A credit refund's client: where its amount goes back if the refund fails for good. */
  clientId?: number;
}

/** A job as it stands: what was decided, and what its attempts came to. */
export interface RefundJobStatus extends RefundJob {
  state: RefundJobState;
  /** Attempts counted so far (each before it calls Paystack). */
  attempts: number;
  lastError: string | undefined;
  /** ISO 8601 instants. */
  lastAttemptAt: string | undefined;
  nextAttemptAt: string | undefined;
  /** Paystack's refund, once issued. */
  refundId: string | undefined;
  refundStatus: string | undefined;
}

/**
 * A refund to make through Paystack's `POST /refund`, put in the recording's transaction: `job_state` `queued`, no
 * attempt yet.
 */
export function refundJobPut(table: string, job: RefundJob): TransactItem {
  return putNew(table, {
    ...keys.refundJob(job.jobId),
    GSI1PK: refundJobIndexKeys.partition(job.companyId),
    GSI1SK: refundJobIndexKeys.sort(job.jobId),
    entity: REFUND_JOB_ENTITY,
    [REFUND_JOB_ID_ATTRIBUTE]: job.jobId,
    company_id: job.companyId,
    payment_id: job.paymentId,
    reference_code: job.referenceCode,
    reference: job.reference,
    transaction_id: job.transactionId,
    amount: job.amountKobo,
    currency: 'NGN',
    reason: job.reason,
    job_state: 'queued',
    attempts: 0,
    created_at: job.createdAt,
    ...(job.clientId === undefined ? {} : { client_id: job.clientId }),
  });
}

const optionalText = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function jobFromItem(item: Item): RefundJobStatus {
  return {
    jobId: String(item[REFUND_JOB_ID_ATTRIBUTE]),
    companyId: Number(item.company_id),
    paymentId: Number(item.payment_id),
    referenceCode: String(item.reference_code),
    reference: String(item.reference),
    transactionId: String(item.transaction_id ?? ''),
    amountKobo: Number(item.amount),
    reason: item.reason as RefundReason,
    createdAt: String(item.created_at),
    ...(typeof item.client_id === 'number' ? { clientId: item.client_id } : {}),
    state: item.job_state as RefundJobState,
    attempts: Number(item.attempts ?? 0),
    lastError: optionalText(item.last_error),
    lastAttemptAt: optionalText(item.last_attempt_at),
    nextAttemptAt: optionalText(item.next_attempt_at),
    refundId: optionalText(item.refund_id),
    refundStatus: optionalText(item.refund_status),
  };
}

export async function readRefundJob(jobId: string): Promise<RefundJobStatus | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.refundJob(jobId), ConsistentRead: true }),
  );
  return out.Item?.entity === REFUND_JOB_ENTITY ? jobFromItem(out.Item) : undefined;
}

/** An account's refund jobs, newest first (one Query of its GSI1 partition): `paystack:events` lists them. */
export async function listRefundJobs(companyId: number, limit: number): Promise<RefundJobStatus[]> {
  return (await latestListed(refundJobIndexKeys.partition(companyId), limit)).map(jobFromItem);
}

/**
 * Counts an attempt before Paystack is called, on condition that the job is still queued at the attempts read: of two
 * copies of one queue message, one goes on. False when another counted first.
 */
export async function claimRefundAttempt(job: RefundJobStatus, at: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.refundJob(job.jobId),
        ConditionExpression: 'job_state = :queued AND attempts = :before',
        UpdateExpression: 'SET attempts = :after, last_attempt_at = :at REMOVE next_attempt_at',
        ExpressionAttributeValues: {
          ':queued': 'queued',
          ':before': job.attempts,
          ':after': job.attempts + 1,
          ':at': at,
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** What an attempt came to: issued (Paystack's refund), failed for good, or to be tried again at `nextAttemptAt`. */
export type RefundJobChange =
  | { state: 'issued'; refundId: string; refundStatus: string }
  | { state: 'failed'; error: string }
  | { state: 'queued'; error: string; nextAttemptAt: string };

/** The job's change after attempt number `attempt`, on condition that it is still queued at that attempt. */
export function refundJobChangeAction(
  table: string,
  jobId: string,
  attempt: number,
  change: RefundJobChange,
): TransactItem {
  const values: Item = { ':queued': 'queued', ':attempt': attempt, ':state': change.state };
  const set = ['job_state = :state'];
  if (change.state === 'issued') {
    set.push('refund_id = :refund', 'refund_status = :status', 'issued_at = :at');
    Object.assign(values, {
      ':refund': change.refundId,
      ':status': change.refundStatus,
      ':at': new Date().toISOString(),
    });
  } else {
    set.push('last_error = :error');
    values[':error'] = change.error.slice(0, 500);
  }
  if (change.state === 'queued') {
    set.push('next_attempt_at = :next');
    values[':next'] = change.nextAttemptAt;
  }
  return {
    Update: {
      TableName: table,
      Key: keys.refundJob(jobId),
      ConditionExpression: 'job_state = :queued AND attempts = :attempt',
      UpdateExpression: `SET ${set.join(', ')}`,
      ExpressionAttributeValues: values,
    },
  };
}

const refundAttribute = (refund: OnlineRefund): Item => ({
  amount: refund.amountKobo,
  status: refund.status,
  id: refund.id,
});

/**
 * A payment's `refund` (its item, and the copy its invoice header keeps when it is the latest payment), on condition
 * that the payment still has the refund it was read with (`before`): a refund event and the job never overwrite each
 * other's newer word.
 */
export function paymentRefundActions(
  table: string,
  payment: { companyId: number; id: number; referenceCode: string; isLatest: boolean },
  before: OnlineRefund,
  after: OnlineRefund,
): TransactItem[] {
  const names = { '#online': 'online', '#refund': 'refund', '#status': 'status', '#id': 'id' };
  const values = { ':before_status': before.status, ':before_id': before.id, ':refund': refundAttribute(after) };
  const unchanged = (path: string) => `${path}.#refund.#status = :before_status AND ${path}.#refund.#id = :before_id`;
  const actions: TransactItem[] = [
    {
      Update: {
        TableName: table,
        Key: keys.payment(payment.companyId, payment.id),
        ConditionExpression: unchanged('#online'),
        UpdateExpression: 'SET #online.#refund = :refund',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
  ];
  if (payment.isLatest)
    actions.push({
      Update: {
        TableName: table,
        Key: keys.invoiceHeader(payment.referenceCode),
        ConditionExpression: `latest_payment.payment_id = :payment AND ${unchanged('latest_payment.#online')}`,
        UpdateExpression: 'SET latest_payment.#online.#refund = :refund',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ':payment': payment.id },
      },
    });
  return actions;
}
