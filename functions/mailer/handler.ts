/**
 * Queue-fed (no HTTP route): one attempt of one mail job per message — render the PDF, build the message, send it
 * with SESv2, record the outcome — retries scheduled through the queue's visibility timeout.
 * docs/sending-invoices.md "Delivery".
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../../shared/observability.ts';
import { deliverQueuedMail, type MailRetryQueue } from '../../shared/services/deliver-queued-mail.ts';

/** The handler over a given queue (`npm start` passes its local queue); deployed, the SQS queue. */
export function createMailerHandler(queue?: () => MailRetryQueue) {
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    deliverQueuedMail(event, { log: logger, queue: queue?.(), ...(context ? { context } : {}) });
}

export const handler = createMailerHandler();
