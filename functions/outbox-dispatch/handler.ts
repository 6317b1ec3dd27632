/**
 * Stream-fed (no HTTP route): the outbox's one dispatcher — the table's stream, filtered to the INSERTs of every job
 * kind's items (shared/store/outbox.ts), → one message per job on its kind's queue. docs/webhooks.md "Delivery
 * architecture".
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { type DispatchQueues, dispatchJobs } from '../../shared/services/outbox.ts';

/** The handler over given queues (`npm start` passes its local ones); deployed, each kind's SQS queue. */
export function createDispatchHandler(queues?: DispatchQueues) {
  return (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => dispatchJobs(event.Records ?? [], { queues });
}

export const handler = createDispatchHandler();
