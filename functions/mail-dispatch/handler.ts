/**
 * Stream-fed (no HTTP route): the table's stream, filtered by the mail jobs' filter pattern in the event source
 * mapping, → one mail-queue message per new mail job. docs/sending-invoices.md "Delivery".
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability.ts';
import { dispatchMailJobs, type MailDispatchQueue } from '../../shared/services/dispatch-mail-jobs.ts';

/** The handler over a given queue (`npm start` passes its local queue); deployed, the SQS queue. */
export function createMailDispatchHandler(queue?: () => MailDispatchQueue) {
  return (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
    dispatchMailJobs(event.Records ?? [], { log: logger, queue: queue?.() });
}

export const handler = createMailDispatchHandler();
