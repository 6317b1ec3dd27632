/**
 * Stream → mail queue: one message per new mail job (docs/sending-invoices.md "Delivery"), as webhook dispatch does
 * for events (docs/webhooks.md "Delivery architecture"): the dispatcher never calls SES, so a slow SES cannot hold a
 * stream shard; it reports the first record it could not enqueue so that Lambda (or the local poller) retries from it.
 * The records are read by the store (store/stream-records.ts).
 */
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { deployedMailQueue, type MailQueue } from '../store/mail-queue.ts';
import { readMailJobBatch } from '../store/stream-records.ts';
import type { DispatchLog } from './dispatch-webhook-events.ts';

/** What the dispatcher needs of the mail queue: sending (SQS deployed; `npm start`'s local queue). */
export type MailDispatchQueue = Pick<MailQueue, 'send'>;

export async function dispatchMailJobs(
  records: readonly DynamoDBRecord[],
  deps: { log: DispatchLog; queue?: MailDispatchQueue | undefined },
): Promise<DynamoDBBatchResponse> {
  const { log, queue = deployedMailQueue() } = deps;
  const jobs = readMailJobBatch(records);
  if (jobs.length === 0) return { batchItemFailures: [] };
  const failures = await queue.send(jobs.map(({ jobId }) => jobId));
  if (failures.length === 0) return { batchItemFailures: [] };
  const failed = new Set(failures.map(({ eventId }) => eventId));
  // Records are in stream order; the retry starts at the first one not enqueued (later ones are sent again: at least once).
  const first = jobs.find(({ jobId }) => failed.has(jobId))!;
  log.warn('Could not enqueue mail jobs; the stream retries from the first of them', {
    failed: failures.length,
    reasons: [...new Set(failures.map(({ reason }) => reason))].slice(0, 3),
    retry_from_job_id: first.jobId,
  });
  return { batchItemFailures: [{ itemIdentifier: first.position }] };
}
