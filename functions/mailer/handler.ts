/**
 * Queue-fed (no HTTP route): one attempt of one mail job per message — render the PDF, build the message, send it
 * with SESv2, record the outcome — retries scheduled through the queue's visibility timeout.
 * docs/sending-invoices.md "Delivery".
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { mailerPorts } from '../../shared/http/mailer.ts';
import { logger } from '../../shared/observability.ts';
import { deliverMailJob, type MailerPorts } from '../../shared/services/deliver-mail-job.ts';
import { deliverQueuedMail } from '../../shared/services/deliver-queued-mail.ts';
import { type MailQueue, sqsMailQueue } from '../../shared/store/mail-queue.ts';

/** The handler over a given queue and renderer; `npm start` builds it over its local queue. */
export function createMailerHandler(queue: () => MailQueue, ports: () => MailerPorts) {
  return (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    deliverQueuedMail(event, {
      queue: queue(),
      send: (jobId) => deliverMailJob(jobId, ports()),
      log: logger,
      ...(context ? { context } : {}),
    });
}

let deployedQueue: MailQueue | undefined;
export const handler = createMailerHandler(
  () => (deployedQueue ??= sqsMailQueue()),
  () => mailerPorts,
);
