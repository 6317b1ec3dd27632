/**
 * Stream-fed (no HTTP route): the table's stream, filtered by STREAM_FILTER_PATTERN in the event
 * source mapping, → one delivery-queue message per event. docs/webhooks.md "Delivery architecture".
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability.ts';
import { dispatchWebhookEvents } from '../../shared/services/dispatch-webhook-events.ts';
import { type DeliveryQueue, sqsDeliveryQueue } from '../../shared/store/delivery-queue.ts';

/** The handler over a given queue; `npm start` builds it over its local queue. */
export function createDispatchHandler(queue: () => DeliveryQueue) {
  return (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
    dispatchWebhookEvents(event.Records ?? [], queue(), logger);
}

let deployedQueue: DeliveryQueue | undefined;
export const handler = createDispatchHandler(() => (deployedQueue ??= sqsDeliveryQueue()));
