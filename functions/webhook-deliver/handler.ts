/**
 * Queue-fed (no HTTP route): one delivery attempt per message, retries scheduled through the
 * queue's visibility timeout. docs/webhooks.md "Delivery architecture".
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../../shared/observability.ts';
import {
  type DeliverOne,
  deliverQueuedWebhooks,
  type RetryQueue,
} from '../../shared/services/deliver-queued-webhooks.ts';

/** The handler over a given queue (`npm start` passes its local queue); deployed, the SQS queue. */
export function createDeliverHandler(queue?: () => RetryQueue, deliver?: DeliverOne) {
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    deliverQueuedWebhooks(event, { log: logger, queue: queue?.(), deliver, ...(context ? { context } : {}) });
}

export const handler = createDeliverHandler();
