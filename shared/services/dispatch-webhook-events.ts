/**
 * Stream → queue: one delivery message per dispatchable INSERT (docs/webhooks.md "Delivery architecture"). The
 * dispatcher never calls a merchant's endpoint, so one slow or dead endpoint cannot hold a stream
 * shard; it only enqueues, and reports the first record it could not enqueue so that Lambda (or the
 * local poller) retries from exactly that record. The records are read by the store (store/stream-records.ts).
 */
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import { type DeliveryQueue, deployedDeliveryQueue, type SendFailure } from '../store/delivery-queue.ts';
import { readDispatchBatch } from '../store/stream-records.ts';

/** What the dispatcher needs of a queue: sending (SQS deployed; `npm start`'s local queue). */
export type DispatchQueue = Pick<DeliveryQueue, 'send'>;

export interface DispatchLog {
  warn(message: string, details: Record<string, unknown>): void;
  error(message: string, details: Record<string, unknown>): void;
}

export async function dispatchWebhookEvents(
  records: readonly DynamoDBRecord[],
  deps: { log: DispatchLog; queue?: DispatchQueue | undefined },
): Promise<DynamoDBBatchResponse> {
  const { log, queue = deployedDeliveryQueue() } = deps;
  const batch = readDispatchBatch(records);
  for (const position of batch.withoutEventId) {
    // Written by this service with the outbox's entity but no event id: nothing to deliver, never retried.
    log.error('Dispatchable stream record without an event id; skipped', { sequence_number: position });
  }
  if (batch.events.length === 0) return { batchItemFailures: [] };

  const failures: SendFailure[] = await queue.send(batch.events.map(({ eventId }) => eventId));
  if (failures.length === 0) return { batchItemFailures: [] };
  const failed = new Set(failures.map(({ eventId }) => eventId));
  // Records are in stream order; the retry starts at the first one not enqueued (later ones are sent again: at least once).
  const first = batch.events.find(({ eventId }) => failed.has(eventId))!;
  log.warn('Could not enqueue webhook events; the stream retries from the first of them', {
    failed: failures.length,
    reasons: [...new Set(failures.map(({ reason }) => reason))].slice(0, 3),
    retry_from_event_id: first.eventId,
  });
  return { batchItemFailures: [{ itemIdentifier: first.position }] };
}
