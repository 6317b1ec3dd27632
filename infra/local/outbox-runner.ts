/**
 * One transactional outbox inside `npm start`, shaped as deployed (docs/webhooks.md "Delivery architecture",
 * docs/sending-invoices.md "Delivery"): the stream poller feeds the dispatcher (filtered like the event source
 * mapping), the dispatcher fills a local queue, and the queue consumer feeds the worker, which reschedules failed
 * attempts through the queue. Queue and stream position live under `directory`, so pending work survives a restart.
 * Webhooks and invoice e-mail each run one (webhook-runner.ts, mail-runner.ts).
 */
import { join } from 'node:path';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { FilterPattern } from '../../shared/domain/filter-pattern.ts';
import { startStreamPoller } from './stream-poller.ts';
import { LocalDeliveryQueue, type LocalQueueOptions, startQueueConsumer } from './webhook-queue.ts';

export interface OutboxRunner {
  queue: LocalDeliveryQueue;
  stop(): Promise<void>;
}

export interface OutboxRunnerOptions {
  endpoint: string;
  tableName: string;
  /** Where the queue file and the stream position are kept. */
  directory: string;
  queueOptions: LocalQueueOptions;
  filter: FilterPattern;
  dispatcher(queue: () => LocalDeliveryQueue): (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
  worker(queue: () => LocalDeliveryQueue): (event: SQSEvent) => Promise<SQSBatchResponse>;
  /** What the log says when a queue batch fails, and when reading the stream fails. */
  messages: { batchFailed: string; streamFailed: string };
  log: (message: string, error?: unknown) => void;
}

export function startOutboxRunner(options: OutboxRunnerOptions): OutboxRunner {
  const queue = new LocalDeliveryQueue(join(options.directory, 'queue.json'), options.queueOptions);
  const work = options.worker(() => queue);
  const consumer = startQueueConsumer(queue, (event) => work(event), {
    onError: (error) => options.log(options.messages.batchFailed, error),
  });
  const poller = startStreamPoller({
    endpoint: options.endpoint,
    tableName: options.tableName,
    checkpointFile: join(options.directory, 'stream-position.json'),
    filter: options.filter,
    handle: options.dispatcher(() => queue),
    onError: (error) => options.log(options.messages.streamFailed, error),
  });
  return {
    queue,
    async stop() {
      await Promise.all([poller.stop(), consumer.stop()]);
    },
  };
}
