/**
 * Webhook delivery inside `npm start`, with the code that runs deployed: the stream poller feeds the
 * dispatch handler (filtered by STREAM_FILTER_PATTERN, like the event source mapping), the dispatch
 * handler fills the local delivery queue, and the queue consumer feeds the deliver handler, which
 * reschedules failed attempts through the queue. Queue and stream position live under
 * DATA_DIR/webhooks, so pending retries survive a restart. docs/webhooks.md "Delivery architecture".
 */

import { join } from 'node:path';
import { createDeliverHandler } from '../../functions/webhook-deliver/handler.ts';
import { createDispatchHandler } from '../../functions/webhook-dispatch/handler.ts';
import { resetConfig } from '../../shared/config.ts';
import type { FilterPattern } from '../../shared/domain/filter-pattern.ts';
import { STREAM_FILTER_PATTERN } from '../../shared/store/webhooks.ts';
import { startStreamPoller } from './stream-poller.ts';
import { LocalDeliveryQueue, startQueueConsumer } from './webhook-queue.ts';

/** Like the deployed queue (infra/webhooks.ts): attempts of the schedule plus room for a few crashed ones. */
export const LOCAL_QUEUE = { visibilityTimeoutMs: 60_000, maxReceiveCount: 12 } as const;

export interface WebhookRunner {
  stop(): Promise<void>;
}

/** The environment the deliverer reads, for the local runtime (explicit settings win). */
export function useLocalWebhookSettings(dataDir: string, env: NodeJS.ProcessEnv = process.env): void {
  // Locally, receivers run on this machine: http://127.0.0.1:PORT and http://localhost:PORT are allowed.
  env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';
  // The deliverer and the CLI find the local signing-secret key under DATA_DIR.
  env.DATA_DIR = dataDir;
  if (env === process.env) resetConfig(); // the configuration is read once per process: read it again with these
}

export function startWebhookRunner(options: {
  endpoint: string;
  tableName: string;
  dataDir: string;
  log: (message: string, error?: unknown) => void;
}): WebhookRunner {
  useLocalWebhookSettings(options.dataDir);
  const directory = join(options.dataDir, 'webhooks');
  const queue = new LocalDeliveryQueue(join(directory, 'queue.json'), LOCAL_QUEUE);
  const dispatch = createDispatchHandler(() => queue);
  const deliver = createDeliverHandler(() => queue);
  const consumer = startQueueConsumer(queue, (event) => deliver(event), {
    onError: (error) =>
      options.log('Webhook delivery batch failed; it is retried after the visibility timeout.', error),
  });
  const poller = startStreamPoller({
    endpoint: options.endpoint,
    tableName: options.tableName,
    checkpointFile: join(directory, 'stream-position.json'),
    filter: STREAM_FILTER_PATTERN as unknown as FilterPattern,
    handle: dispatch,
    onError: (error) => options.log('Reading the table stream failed; retrying.', error),
  });
  return {
    async stop() {
      await Promise.all([poller.stop(), consumer.stop()]);
    },
  };
}
