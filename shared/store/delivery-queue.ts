/**
 * The webhook delivery queue: one message per event id, between the stream dispatcher and the
 * deliverer (docs/webhooks.md "Delivery architecture"). Deployed it is an SQS standard queue whose visibility
 * timeout schedules retries; `npm start` uses a persisted local implementation
 * (infra/local/webhook-queue.ts) behind the same interface.
 */
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { loadConfig } from '../config.ts';

export interface DeliveryQueue {
  /** Sends one message per event id. Resolves with the event ids that were not accepted (send them again later). */
  send(eventIds: readonly string[]): Promise<SendFailure[]>;
  /** Makes a received message visible again after `delayMs`: the next delivery attempt. */
  retryAfter(receiptHandle: string, delayMs: number): Promise<void>;
}

export interface SendFailure {
  eventId: string;
  reason: string;
}

/** The body of a queue message. */
export interface DeliveryMessage {
  event_id: string;
}

/**
 * SQS accepts a visibility timeout of at most 12 h counted from the message's receipt; the deliverer
 * asks within its own timeout of the receipt, so this leaves a few minutes of margin.
 */
export const MAX_RETRY_DELAY_MS = (12 * 3600 - 300) * 1000;

/** SQS SendMessageBatch takes at most 10 entries. */
export const SEND_BATCH_SIZE = 10;

export function deliveryMessageBody(eventId: string): string {
  return JSON.stringify({ event_id: eventId } satisfies DeliveryMessage);
}

const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The event id of a message body, or undefined for a body this service did not write. */
export function parseDeliveryMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<DeliveryMessage> | null;
    return typeof parsed?.event_id === 'string' && EVENT_ID.test(parsed.event_id) ? parsed.event_id : undefined;
  } catch {
    return undefined;
  }
}

export function clampRetryDelay(delayMs: number): number {
  return Math.min(Math.max(Math.ceil(delayMs), 0), MAX_RETRY_DELAY_MS);
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** The SQS queue named by DELIVERY_QUEUE_URL (set by the CDK stack on both webhook functions). */
export function sqsDeliveryQueue(
  queueUrl: string | undefined = loadConfig().deliveryQueueUrl,
  client?: SQSClient,
): DeliveryQueue {
  if (!queueUrl) throw new Error('DELIVERY_QUEUE_URL is not set.');
  return sqsIdQueue(queueUrl, deliveryMessageBody, client);
}

/**
 * An SQS queue of one message per id, each body written by `messageBody` (webhook deliveries, and the mail queue:
 * store/mail-queue.ts). `send` reports the ids SQS did not accept, so that the stream retries from the first of them.
 */
export function sqsIdQueue(queueUrl: string, messageBody: (id: string) => string, client?: SQSClient): DeliveryQueue {
  const sqs = client ?? new SQSClient({ region: loadConfig().region });
  return {
    async send(ids) {
      const failures: SendFailure[] = [];
      for (const batch of chunk(ids, SEND_BATCH_SIZE)) {
        try {
          const output = await sqs.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: batch.map((id, index) => ({ Id: String(index), MessageBody: messageBody(id) })),
            }),
          );
          for (const failed of output.Failed ?? []) {
            failures.push({
              eventId: batch[Number(failed.Id)]!,
              reason: `${failed.Code ?? 'error'}: ${failed.Message ?? ''}`.trim(),
            });
          }
        } catch (error) {
          for (const id of batch)
            failures.push({ eventId: id, reason: (error as Error).name || 'SendMessageBatch failed' });
        }
      }
      return failures;
    },
    async retryAfter(receiptHandle, delayMs) {
      await sqs.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: queueUrl,
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: Math.ceil(clampRetryDelay(delayMs) / 1000),
        }),
      );
    },
  };
}

let deployed: DeliveryQueue | undefined;

/** The deployed functions' queue (SQS, DELIVERY_QUEUE_URL), made on first use and kept for the warm container. */
export const deployedDeliveryQueue = (): DeliveryQueue => (deployed ??= sqsDeliveryQueue());
