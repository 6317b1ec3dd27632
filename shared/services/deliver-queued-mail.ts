/**
 * Mail queue → SES (docs/sending-invoices.md "Delivery"): each message is one attempt of one mail job, the messages of
 * a batch in parallel. An attempt SES throttled or failed to answer makes its message visible again after the retry
 * schedule's delay and is reported as a batch item failure; anything else (sent, failed for good, skipped) completes
 * the message. A message the mailer throws on reappears after the queue's visibility timeout and, after the queue's
 * maxReceiveCount, lands in the dead-letter queue (alarmed). The same design as webhook delivery
 * (docs/webhooks.md "Delivery architecture").
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { clampRetryDelay } from '../store/delivery-queue.ts';
import { deployedMailQueue, type MailQueue, parseMailMessage } from '../store/mail-queue.ts';
import { deliverMailJob, type MailDeliveryOutcome } from './deliver-mail-job.ts';

/** What the mailer needs of the mail queue: making a message visible again later (SQS deployed; `npm start`'s own). */
export type MailRetryQueue = Pick<MailQueue, 'retryAfter'>;

export type SendOne = (jobId: string) => Promise<MailDeliveryOutcome>;

export interface MailQueueLog {
  warn(message: string, details: Record<string, unknown>): void;
  error(message: string, details: Record<string, unknown>): void;
}

/** Reported as a batch item failure on purpose: the message stays queued for its next attempt. */
export class MailRetryScheduled extends Error {
  constructor(
    readonly jobId: string,
    readonly delayMs: number,
  ) {
    super(`Mail job ${jobId}: next attempt in ${Math.round(delayMs / 1000)} s`);
    this.name = 'MailRetryScheduled';
  }
}

export async function deliverQueuedMail(
  event: SQSEvent,
  deps: { log: MailQueueLog; queue?: MailRetryQueue | undefined; send?: SendOne | undefined; context?: Context },
): Promise<SQSBatchResponse> {
  const { log, queue = deployedMailQueue(), send = deliverMailJob } = deps;
  const processor = new BatchProcessor(EventType.SQS, {
    logger: { debug: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const sendRecord = async (record: SQSRecord): Promise<MailDeliveryOutcome['kind']> => {
    const jobId = parseMailMessage(record.body);
    if (jobId === undefined) {
      // Not written by the mail dispatcher: keep it (it ends in the dead-letter queue for a human to look at).
      log.error('Mail queue message without a valid job id', { message_id: record.messageId });
      throw new Error(`Message ${record.messageId} has no valid job id`);
    }
    const outcome = await send(jobId);
    if (outcome.kind === 'retry') {
      const delayMs = clampRetryDelay(outcome.delayMs);
      await queue.retryAfter(record.receiptHandle, delayMs);
      throw new MailRetryScheduled(jobId, delayMs);
    }
    return outcome.kind;
  };
  const response = await processPartialResponse(event, sendRecord, processor, {
    ...(deps.context ? { context: deps.context } : {}),
    throwOnFullBatchFailure: false,
    processInParallel: true,
  });
  processor.errors.forEach((error, index) => {
    if (error instanceof MailRetryScheduled) return;
    log.warn('Mail attempt threw; the message reappears after the visibility timeout', {
      message_id: (processor.failureMessages[index] as SQSRecord | undefined)?.messageId,
      error: error.name,
      reason: error.message.slice(0, 300),
    });
  });
  return response;
}
