/**
 * The outbox inside `npm start`, shaped as deployed (infra/outbox.ts; docs/webhooks.md "Delivery architecture"): one
 * stream poller feeds the one dispatcher (filtered like the event source mapping), which fills each job kind's local
 * queue; each queue's consumer feeds the kind's worker — the module the kind names (shared/store/outbox.ts), which
 * reschedules failed attempts through its queue. Each kind's queue is `DATA_DIR/<its localDirectory>/queue.json` and
 * the stream position `DATA_DIR/outbox/stream-position.json`, so pending work survives a restart; a DATA_DIR whose
 * kinds each had their own poller starts from the earliest of their positions (the files they left beside their
 * queues), so nothing either had yet to dispatch is missed.
 */
import { join } from 'node:path';
import { createDispatchHandler } from '../../functions/outbox-dispatch/handler.ts';
import type { OutboxWorker } from '../../shared/services/outbox.ts';
import {
  type FilterPattern,
  JOB_KIND_NAMES,
  JOB_KINDS,
  type JobKindName,
  maxReceiveCountOf,
  OUTBOX_STREAM_FILTER,
} from '../../shared/store/outbox.ts';
import { LocalJobQueue, type QueueConsumer, startQueueConsumer } from './local-queue.ts';
import { startStreamPoller } from './stream-poller.ts';

/** Like the deployed queues (infra/outbox.ts), with a minute's visibility: a crashed attempt is retried soon. */
export const LOCAL_VISIBILITY_TIMEOUT_MS = 60_000;

export interface OutboxRunner {
  queues: Readonly<Record<JobKindName, LocalJobQueue>>;
  stop(): Promise<void>;
}

const REPO_ROOT = new URL('../../', import.meta.url);

/** The kind's worker module, imported as the deployed function's entry is bundled. */
async function workerOf(kind: JobKindName): Promise<OutboxWorker> {
  const module = (await import(new URL(JOB_KINDS[kind].worker.entry, REPO_ROOT).href)) as { worker?: OutboxWorker };
  if (module.worker?.kind !== kind) throw new Error(`${JOB_KINDS[kind].worker.entry} exports no ${kind} worker.`);
  return module.worker;
}

export async function startOutboxRunner(options: {
  endpoint: string;
  tableName: string;
  dataDir: string;
  log: (message: string, error?: unknown) => void;
}): Promise<OutboxRunner> {
  const directoryOf = (kind: JobKindName) => join(options.dataDir, JOB_KINDS[kind].localDirectory);
  const queues = Object.fromEntries(
    JOB_KIND_NAMES.map((kind) => [
      kind,
      new LocalJobQueue(kind, join(directoryOf(kind), 'queue.json'), {
        visibilityTimeoutMs: LOCAL_VISIBILITY_TIMEOUT_MS,
        maxReceiveCount: maxReceiveCountOf(kind),
      }),
    ]),
  ) as Record<JobKindName, LocalJobQueue>;
  const consumers: QueueConsumer[] = [];
  for (const kind of JOB_KIND_NAMES) {
    const worker = await workerOf(kind);
    const handle = (event: Parameters<OutboxWorker['consume']>[0]) => worker.consume(event, { queue: queues[kind] });
    consumers.push(
      startQueueConsumer(queues[kind], handle, {
        onError: (error) =>
          options.log(`${JOB_KINDS[kind].label}: a batch failed; it is retried after the visibility timeout.`, error),
      }),
    );
  }
  const poller = startStreamPoller({
    endpoint: options.endpoint,
    tableName: options.tableName,
    checkpointFile: join(options.dataDir, 'outbox', 'stream-position.json'),
    legacyCheckpointFiles: JOB_KIND_NAMES.map((kind) => join(directoryOf(kind), 'stream-position.json')),
    filter: OUTBOX_STREAM_FILTER as unknown as FilterPattern,
    handle: createDispatchHandler((kind) => queues[kind]),
    onError: (error) => options.log('Reading the table stream failed; retrying.', error),
  });
  return {
    queues,
    async stop() {
      await Promise.all([poller.stop(), ...consumers.map((consumer) => consumer.stop())]);
    },
  };
}
