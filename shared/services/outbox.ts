/**
 * The outbox's two moves, for every job kind (store/outbox.ts `JOB_KINDS`; docs/webhooks.md "Delivery architecture").
 *
 * The dispatcher: table stream → each job's queue, one message per job id. It never delivers anything, so a slow
 * endpoint or SES cannot hold a stream shard; it reports the first record it could not enqueue, so that Lambda (or the
 * local poller) retries from exactly that record (later ones are sent again: at least once).
 *
 * A worker: queue → the kind's deliver function, one attempt per message, the messages of a batch in parallel. An
 * attempt to be retried makes its message visible again after the schedule's delay and is reported as a batch item
 * failure; anything else (delivered, failed for good, skipped) completes the message. A message the deliver function
 * throws on, or one the dispatcher did not write, reappears after the queue's visibility timeout and, after the
 * queue's receive limit, lands in its dead-letter queue for a human to look at.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../observability.ts';
import {
  clampRetryDelay,
  deployedJobQueue,
  JOB_KINDS,
  type JobKindName,
  type JobQueue,
  parseJobMessage,
  readJobBatch,
} from '../store/outbox.ts';

/** What one attempt of a job came to. */
export type JobOutcome =
  | { kind: 'delivered' }
  /** The attempt failed and was recorded; try again after `delayMs`. */
  | { kind: 'retry'; delayMs: number }
  /** The last attempt failed, or the job can never be delivered; recorded as failed. */
  | { kind: 'failed' }
  /** Nothing to do: unknown or expired job, already done, or another attempt recorded first. */
  | { kind: 'skipped'; reason: string };

/** One attempt of the job with this id; safe to call twice for one job (the queue delivers at least once). */
export type DeliverJob = (id: string) => Promise<JobOutcome>;

export interface OutboxLog {
  debug(message: string, details: Record<string, unknown>): void;
  warn(message: string, details: Record<string, unknown>): void;
  error(message: string, details: Record<string, unknown>): void;
}

/** Where the dispatcher sends a kind's jobs (deployed: its SQS queue; `npm start`: its local queue). */
export type DispatchQueues = (kind: JobKindName) => Pick<JobQueue, 'send'>;

export async function dispatchJobs(
  records: readonly DynamoDBRecord[],
  deps: { queues?: DispatchQueues | undefined; log?: OutboxLog } = {},
): Promise<DynamoDBBatchResponse> {
  const { queues = deployedJobQueue, log = logger } = deps;
  const batch = readJobBatch(records);
  for (const { kind, position } of batch.withoutId)
    log.error('Outbox stream record without a valid job id; skipped', { kind, sequence_number: position });
  const kinds = [...new Set(batch.jobs.map((job) => job.kind))];
  const failures = await Promise.all(
    kinds.map(async (kind) => {
      const ids = batch.jobs.filter((job) => job.kind === kind).map((job) => job.id);
      return (await queues(kind).send(ids)).map((failure) => ({ ...failure, kind }));
    }),
  );
  const failed = failures.flat();
  if (failed.length === 0) return { batchItemFailures: [] };
  const unsent = new Set(failed.map(({ kind, id }) => `${kind} ${id}`));
  // Records are in stream order; the retry starts at the first one not enqueued.
  const first = batch.jobs.find(({ kind, id }) => unsent.has(`${kind} ${id}`))!;
  log.warn('Could not enqueue outbox jobs; the stream retries from the first of them', {
    failed: failed.length,
    reasons: [...new Set(failed.map(({ reason }) => reason))].slice(0, 3),
    retry_from: { kind: first.kind, id: first.id },
  });
  return { batchItemFailures: [{ itemIdentifier: first.position }] };
}

/** Reported as a batch item failure on purpose: the message stays queued for the job's next attempt. */
export class RetryScheduled extends Error {
  constructor(
    readonly kind: JobKindName,
    readonly id: string,
    readonly delayMs: number,
  ) {
    super(`${kind} job ${id}: next attempt in ${Math.round(delayMs / 1000)} s`);
    this.name = 'RetryScheduled';
  }
}

export interface ConsumeOptions {
  /** Deployed: the kind's SQS queue (made when a retry needs it); `npm start`: its local queue. */
  queue?: Pick<JobQueue, 'retryAfter'> | undefined;
  log?: OutboxLog;
  context?: Context;
}

export async function consumeJobs(
  kind: JobKindName,
  deliver: DeliverJob,
  event: SQSEvent,
  options: ConsumeOptions = {},
): Promise<SQSBatchResponse> {
  const { log = logger } = options;
  const { label } = JOB_KINDS[kind];
  const processor = new BatchProcessor(EventType.SQS, {
    logger: { debug: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const attempt = async (record: SQSRecord): Promise<JobOutcome['kind']> => {
    const id = parseJobMessage(kind, record.body);
    if (id === undefined) {
      log.error(`${label}: a queue message without a valid job id`, { kind, message_id: record.messageId });
      throw new Error(`Message ${record.messageId} has no valid job id`);
    }
    const outcome = await deliver(id);
    if (outcome.kind === 'retry') {
      const delayMs = clampRetryDelay(outcome.delayMs);
      await (options.queue ?? deployedJobQueue(kind)).retryAfter(record.receiptHandle, delayMs);
      log.debug(`${label}: an attempt failed; retry scheduled`, { kind, job_id: id, delay_ms: delayMs });
      throw new RetryScheduled(kind, id, delayMs);
    }
    if (outcome.kind === 'skipped') log.debug(`${label}: skipped`, { kind, job_id: id, reason: outcome.reason });
    return outcome.kind;
  };
  const response = await processPartialResponse(event, attempt, processor, {
    ...(options.context ? { context: options.context } : {}),
    // A batch whose every message waits for a retry is a normal outcome, not a function error.
    throwOnFullBatchFailure: false,
    processInParallel: true,
  });
  processor.errors.forEach((error, index) => {
    if (error instanceof RetryScheduled) return;
    log.warn(`${label}: an attempt threw; its message reappears after the visibility timeout`, {
      kind,
      message_id: (processor.failureMessages[index] as SQSRecord | undefined)?.messageId,
      error: error.name,
      reason: error.message.slice(0, 300),
    });
  });
  return response;
}

/** A kind's worker: its deliver function behind the queue (the kind's worker module exports one, and its handler). */
export interface OutboxWorker {
  kind: JobKindName;
  deliver: DeliverJob;
  /** The deployed function: the kind's SQS queue. */
  handler(event: SQSEvent, context?: Context): Promise<SQSBatchResponse>;
  /** The same over another queue (`npm start`'s local one). */
  consume(event: SQSEvent, options: ConsumeOptions): Promise<SQSBatchResponse>;
}

export function outboxWorker(kind: JobKindName, deliver: DeliverJob): OutboxWorker {
  return {
    kind,
    deliver,
    handler: (event, context) => consumeJobs(kind, deliver, event, context ? { context } : {}),
    consume: (event, options) => consumeJobs(kind, deliver, event, options),
  };
}
