/**
 * Webhook delivery inside `npm start`, with the code that runs deployed: the webhook outbox (outbox-runner.ts:
 * stream → dispatch handler → local delivery queue → deliver handler, which reschedules failed attempts). Queue and stream position live under
 * DATA_DIR/webhooks, so pending retries survive a restart. docs/webhooks.md "Delivery architecture".
 */

import { join } from 'node:path';
import { createDispatchHandler } from '../../functions/outbox-dispatch/handler.ts';
import { worker } from '../../functions/webhook-deliver/handler.ts';
import { resetConfig } from '../../shared/config.ts';
import type { FilterPattern } from '../../shared/domain/filter-pattern.ts';
import { streamFilterOf } from '../../shared/store/outbox.ts';
import { startOutboxRunner } from './outbox-runner.ts';

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
  return startOutboxRunner({
    ...options,
    directory: join(options.dataDir, 'webhooks'),
    queueOptions: LOCAL_QUEUE,
    filter: streamFilterOf(['webhook']) as unknown as FilterPattern,
    dispatcher: (queue) => createDispatchHandler(() => queue()),
    worker: (queue) => (event) => worker.consume(event, { queue: queue() }),
    messages: {
      batchFailed: 'Webhook delivery batch failed; it is retried after the visibility timeout.',
      streamFailed: 'Reading the table stream failed; retrying.',
    },
  });
}
