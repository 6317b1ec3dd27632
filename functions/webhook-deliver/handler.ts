/**
 * Queue-fed (no HTTP route): one delivery attempt per message, retries scheduled through the
 * queue's visibility timeout. docs/webhooks.md "Delivery architecture".
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../../shared/observability.ts';
import { type DeliverOne, deliverQueuedWebhooks } from '../../shared/services/deliver-queued-webhooks.ts';
import { deliverWebhook } from '../../shared/services/deliver-webhook.ts';
import { type DeliveryQueue, sqsDeliveryQueue } from '../../shared/store/delivery-queue.ts';

/** The handler over a given queue; `npm start` builds it over its local queue. */
export function createDeliverHandler(queue: () => DeliveryQueue, deliver: DeliverOne = deliverWebhook) {
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    deliverQueuedWebhooks(event, { queue: queue(), deliver, log: logger, ...(context ? { context } : {}) });
}

let deployedQueue: DeliveryQueue | undefined;
export const handler = createDeliverHandler(() => (deployedQueue ??= sqsDeliveryQueue()));
