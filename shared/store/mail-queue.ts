/**
 * The mail queue: one message per mail job, between the mail dispatcher (table stream) and the mailer
 * (docs/sending-invoices.md "Delivery"). The same queue semantics as webhook delivery (store/delivery-queue.ts):
 * deployed an SQS standard queue whose visibility timeout schedules retries; `npm start` a persisted local queue.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { loadConfig } from '../config.ts';
import { type DeliveryQueue, sqsIdQueue } from './delivery-queue.ts';
import { MAIL_JOB_ID_PATTERN } from './mail-jobs.ts';

export type MailQueue = DeliveryQueue;

/** The body of a mail queue message. */
export interface MailMessage {
  job_id: string;
}

export const mailMessageBody = (jobId: string): string => JSON.stringify({ job_id: jobId } satisfies MailMessage);

/** The job id of a message body, or undefined for a body this service did not write. */
export function parseMailMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<MailMessage> | null;
    return typeof parsed?.job_id === 'string' && MAIL_JOB_ID_PATTERN.test(parsed.job_id) ? parsed.job_id : undefined;
  } catch {
    return undefined;
  }
}

/** The SQS queue named by MAIL_QUEUE_URL (set by the CDK stack on the mail dispatcher and the mailer). */
export function sqsMailQueue(queueUrl: string | undefined = loadConfig().mailQueueUrl, client?: SQSClient): MailQueue {
  if (!queueUrl) throw new Error('MAIL_QUEUE_URL is not set.');
  return sqsIdQueue(queueUrl, mailMessageBody, client);
}

let deployed: MailQueue | undefined;

/** The deployed functions' mail queue (SQS, MAIL_QUEUE_URL), made on first use and kept for the warm container. */
export const deployedMailQueue = (): MailQueue => (deployed ??= sqsMailQueue());
