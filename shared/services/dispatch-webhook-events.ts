/**
 * Stream → queue: one delivery message per dispatchable INSERT (docs/webhooks.md "Delivery architecture"). The
 * dispatcher never calls a merchant's endpoint, so one slow or dead endpoint cannot hold a stream
 * shard; it only enqueues, and reports the first record it could not enqueue so that Lambda (or the
 * local poller) retries from exactly that record.
 */
import type { DynamoDBBatchResponse, DynamoDBRecord } from 'aws-lambda';
import type { DeliveryQueue, SendFailure } from '../store/delivery-queue.ts';
import { dispatchableEventId, isDispatchableRecord } from '../store/webhooks.ts';

export { dispatchableEventId };

export interface DispatchLog {
  warn(message: string, details: Record<string, unknown>): void;
  error(message: string, details: Record<string, unknown>): void;
}

export async function dispatchWebhookEvents(
  records: readonly DynamoDBRecord[],
  queue: DeliveryQueue,
  log: DispatchLog,
): Promise<DynamoDBBatchResponse> {
  const dispatchable: { record: DynamoDBRecord; eventId: string }[] = [];
  for (const record of records) {
    const eventId = dispatchableEventId(record);
    if (eventId) dispatchable.push({ record, eventId });
    else if (isDispatchableRecord(record)) {
      // Written by this service with the outbox's entity but no event id: nothing to deliver, never retried.
      log.error('Dispatchable stream record without an event id; skipped', {
        sequence_number: record.dynamodb?.SequenceNumber,
      });
    }
  }
  if (dispatchable.length === 0) return { batchItemFailures: [] };

  const failures: SendFailure[] = await queue.send(dispatchable.map(({ eventId }) => eventId));
  if (failures.length === 0) return { batchItemFailures: [] };
  const failed = new Set(failures.map(({ eventId }) => eventId));
  // Records are in stream order; the retry starts at the first one not enqueued (later ones are sent again: at least once).
  const first = dispatchable.find(({ eventId }) => failed.has(eventId))!;
  log.warn('Could not enqueue webhook events; the stream retries from the first of them', {
    failed: failures.length,
    reasons: [...new Set(failures.map(({ reason }) => reason))].slice(0, 3),
    retry_from_event_id: first.eventId,
  });
  return { batchItemFailures: [{ itemIdentifier: first.record.dynamodb?.SequenceNumber ?? '' }] };
}
