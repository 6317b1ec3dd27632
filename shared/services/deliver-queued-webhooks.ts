/**
 * Queue → merchant: each message is one delivery attempt of one event (`deliverWebhook`), the
 * messages of a batch in parallel. A failed attempt that will be retried makes its message visible
 * again after the schedule's delay and is reported as a batch item failure; anything else (delivered,
 * failed for good, skipped) completes the message. A message the deliverer throws on reappears after
 * the queue's visibility timeout and, after the queue's maxReceiveCount, lands in the dead-letter queue.
 * docs/webhooks.md "Delivery architecture" explains the choice of queue visibility over a scheduler.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import {
  clampRetryDelay,
  type DeliveryQueue,
  deployedDeliveryQueue,
  parseDeliveryMessage,
} from '../store/delivery-queue.ts';
import { type DeliveryOutcome, deliverWebhook } from './deliver-webhook.ts';

/**
 * What the deliverer needs of a queue: making a message visible again later (SQS deployed; `npm start`'s local queue).
 */
export type RetryQueue = Pick<DeliveryQueue, 'retryAfter'>;

export type DeliverOne = (eventId: string) => Promise<DeliveryOutcome>;

export interface DeliveryLog {
  debug(message: string, details: Record<string, unknown>): void;
  warn(message: string, details: Record<string, unknown>): void;
  error(message: string, details: Record<string, unknown>): void;
}

/** Reported as a batch item failure on purpose: the message stays queued for its next attempt. */
export class RetryScheduled extends Error {
  constructor(
    readonly eventId: string,
    readonly delayMs: number,
  ) {
    super(`Webhook ${eventId}: next attempt in ${Math.round(delayMs / 1000)} s`);
    this.name = 'RetryScheduled';
  }
}

export async function deliverQueuedWebhooks(
  event: SQSEvent,
  deps: { log: DeliveryLog; queue?: RetryQueue | undefined; deliver?: DeliverOne | undefined; context?: Context },
): Promise<SQSBatchResponse> {
  const { log, queue = deployedDeliveryQueue(), deliver = deliverWebhook } = deps;
  const processor = new BatchProcessor(EventType.SQS, {
    logger: { debug: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const deliverRecord = async (record: SQSRecord): Promise<DeliveryOutcome['kind']> => {
    const eventId = parseDeliveryMessage(record.body);
    if (eventId === undefined) {
      // Not written by the dispatcher: keep it (it ends in the dead-letter queue for a human to look at).
      log.error('Delivery message without a valid event id', { message_id: record.messageId });
      throw new Error(`Message ${record.messageId} has no valid event id`);
    }
    const outcome = await deliver(eventId);
    if (outcome.kind === 'retry') {
      const delayMs = clampRetryDelay(outcome.delayMs);
      await queue.retryAfter(record.receiptHandle, delayMs);
      log.debug('Webhook delivery attempt failed; retry scheduled', { event_id: eventId, delay_ms: delayMs });
      throw new RetryScheduled(eventId, delayMs);
    }
    if (outcome.kind === 'skipped')
      log.debug('Webhook delivery skipped', { event_id: eventId, reason: outcome.reason });
    return outcome.kind;
  };
  const response = await processPartialResponse(event, deliverRecord, processor, {
    ...(deps.context ? { context: deps.context } : {}),
    // A batch whose every message waits for a retry is a normal outcome, not a function error.
    throwOnFullBatchFailure: false,
    processInParallel: true,
  });
  processor.errors.forEach((error, index) => {
    if (error instanceof RetryScheduled) return;
    log.warn('Webhook delivery threw; the message reappears after the visibility timeout', {
      message_id: (processor.failureMessages[index] as SQSRecord | undefined)?.messageId,
      error: error.name,
    });
  });
  return response;
}
