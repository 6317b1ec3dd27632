/**
 * Stream-fed (no HTTP route): the table's stream, filtered by MAIL_STREAM_FILTER_PATTERN in the event source mapping,
 * → one mail-queue message per new mail job. docs/sending-invoices.md "Delivery".
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability.ts';
import { dispatchMailJobs } from '../../shared/services/dispatch-mail-jobs.ts';
import { type MailQueue, sqsMailQueue } from '../../shared/store/mail-queue.ts';

/** The handler over a given queue; `npm start` builds it over its local queue. */
export function createMailDispatchHandler(queue: () => MailQueue) {
  return (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
    dispatchMailJobs(event.Records ?? [], queue(), logger);
}

let deployedQueue: MailQueue | undefined;
export const handler = createMailDispatchHandler(() => (deployedQueue ??= sqsMailQueue()));
