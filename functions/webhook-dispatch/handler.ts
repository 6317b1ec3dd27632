/**
 * Stream-fed (no HTTP route): the table's stream, filtered by STREAM_FILTER_PATTERN in the event
 * source mapping, → one delivery-queue message per event. docs/webhooks.md "Delivery architecture".
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability.ts';
import { type DispatchQueue, dispatchWebhookEvents } from '../../shared/services/dispatch-webhook-events.ts';

/** The handler over a given queue (`npm start` passes its local queue); deployed, the SQS queue. */
export function createDispatchHandler(queue?: () => DispatchQueue) {
  return (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
    dispatchWebhookEvents(event.Records ?? [], { log: logger, queue: queue?.() });
}

export const handler = createDispatchHandler();
