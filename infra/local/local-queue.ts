/**
 * `npm start`'s queue of one job kind (shared/store/outbox.ts): the same JobQueue interface as SQS, persisted in one
 * JSON file under DATA_DIR (written to a temporary file and renamed, so a crash leaves the old or the new state, never
 * half of one), so pending retries survive a restart. It keeps SQS's semantics where the worker relies on them: a
 * received message is invisible for `visibilityTimeoutMs` unless completed or rescheduled; a stale receipt handle is
 * ignored; a message received more than `maxReceiveCount` times moves to the dead letters.
 */

import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import {
  clampRetryDelay,
  type JobKindName,
  type JobQueue,
  jobMessageBody,
  type SendFailure,
} from '../../shared/store/outbox.ts';
import { wakeableSleep } from './wakeable-sleep.ts';

export interface QueuedMessage {
  id: string;
  /** The job's id (named for the first kind, webhook events: queue files written before stay readable). */
  eventId: string;
  /** Epoch ms from which the message can be received. */
  visibleAt: number;
  receiveCount: number;
  sentAt: number;
  /** Received and neither completed nor rescheduled yet. */
  inFlight?: boolean;
}

interface QueueFile {
  version: 1;
  messages: QueuedMessage[];
  deadLetters: QueuedMessage[];
}

export interface LocalQueueOptions {
  /** How long a received message stays invisible if its consumer neither completes nor reschedules it. */
  visibilityTimeoutMs: number;
  /** Receives after which a message moves to the dead letters (like an SQS redrive policy). */
  maxReceiveCount: number;
  now?: () => number;
}

export class LocalJobQueue implements JobQueue {
  private state: QueueFile;
  private readonly now: () => number;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly kind: JobKindName,
    readonly file: string,
    readonly options: LocalQueueOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.state = LocalJobQueue.load(file);
    this.releaseInFlight();
  }

  /**
   * Only one process uses a DATA_DIR (infra/local/engine-record.ts), so a message still in flight when the
   * queue is opened was received by a process that died mid-delivery: it is delivered again at once rather
   * than after the visibility timeout (which deployed SQS applies, since it cannot know the consumer died).
   */
  private releaseInFlight(): void {
    const now = this.now();
    for (const message of this.state.messages) {
      if (!message.inFlight) continue;
      message.inFlight = false;
      message.visibleAt = Math.min(message.visibleAt, now);
    }
  }

  private static load(file: string): QueueFile {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as QueueFile;
      if (parsed.version === 1 && Array.isArray(parsed.messages))
        return { ...parsed, deadLetters: parsed.deadLetters ?? [] };
      throw new Error(`unknown format in ${file}`);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return { version: 1, messages: [], deadLetters: [] };
      throw error;
    }
  }

  private persist(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state));
    renameSync(temporary, this.file);
  }

  /** Called whenever a message is sent or rescheduled (the consumer wakes up). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  async send(ids: readonly string[]): Promise<SendFailure[]> {
    const now = this.now();
    for (const eventId of ids) {
      this.state.messages.push({ id: randomUUID(), eventId, visibleAt: now, receiveCount: 0, sentAt: now });
    }
    this.persist();
    this.changed();
    return [];
  }

  /** Receives up to `max` visible messages (oldest visibility first); each gets a receipt handle for this receive. */
  receive(max: number): { message: QueuedMessage; receiptHandle: string }[] {
    const now = this.now();
    const visible = this.state.messages
      .filter((message) => message.visibleAt <= now)
      .sort((a, b) => a.visibleAt - b.visibleAt);
    const received: { message: QueuedMessage; receiptHandle: string }[] = [];
    for (const message of visible) {
      if (received.length === max) break;
      if (message.receiveCount >= this.options.maxReceiveCount) {
        this.state.messages = this.state.messages.filter((other) => other !== message);
        this.state.deadLetters.push(message);
        continue;
      }
      message.receiveCount += 1;
      message.visibleAt = now + this.options.visibilityTimeoutMs;
      message.inFlight = true;
      received.push({ message, receiptHandle: `${message.id}#${message.receiveCount}` });
    }
    if (received.length > 0 || visible.length > 0) this.persist();
    return received;
  }

  private byReceipt(receiptHandle: string): QueuedMessage | undefined {
    const [id, count] = receiptHandle.split('#');
    return this.state.messages.find((message) => message.id === id && String(message.receiveCount) === count);
  }

  async retryAfter(receiptHandle: string, delayMs: number): Promise<void> {
    const message = this.byReceipt(receiptHandle);
    if (!message) return;
    message.visibleAt = this.now() + clampRetryDelay(delayMs);
    message.inFlight = false;
    this.persist();
    this.changed();
  }

  /** Completes a received message. */
  delete(receiptHandle: string): void {
    const message = this.byReceipt(receiptHandle);
    if (!message) return;
    this.state.messages = this.state.messages.filter((other) => other !== message);
    this.persist();
  }

  /** Epoch ms at which the next message becomes visible, or undefined when the queue is empty. */
  nextVisibleAt(): number | undefined {
    return this.state.messages.reduce<number | undefined>(
      (next, { visibleAt }) => (next === undefined || visibleAt < next ? visibleAt : next),
      undefined,
    );
  }

  pending(): readonly QueuedMessage[] {
    return this.state.messages;
  }

  deadLetters(): readonly QueuedMessage[] {
    return this.state.deadLetters;
  }
}

/** An SQS-shaped event of a kind's received messages, as Lambda's SQS event source builds it. */
export function sqsEventOf(kind: JobKindName, received: { message: QueuedMessage; receiptHandle: string }[]): SQSEvent {
  return {
    Records: received.map(
      ({ message, receiptHandle }): SQSRecord => ({
        messageId: message.id,
        receiptHandle,
        body: jobMessageBody(kind, message.eventId),
        attributes: {
          ApproximateReceiveCount: String(message.receiveCount),
          SentTimestamp: String(message.sentAt),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(message.sentAt),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:local:000000000000:${kind}-jobs`,
        awsRegion: 'local',
      }),
    ),
  };
}

export interface QueueConsumer {
  stop(): Promise<void>;
}

/**
 * Feeds visible messages to `handle` (the kind's worker, as Lambda's SQS event source would) in
 * batches of up to `batchSize`, and completes every message it does not report as failed. Sleeps
 * until the next message becomes visible (at most `maxIdleMs`), waking early when one is sent.
 */
export function startQueueConsumer(
  queue: LocalJobQueue,
  handle: (event: SQSEvent) => Promise<SQSBatchResponse>,
  options: { batchSize?: number; maxIdleMs?: number; onError?: (error: unknown) => void } = {},
): QueueConsumer {
  const batchSize = options.batchSize ?? 10;
  const maxIdleMs = options.maxIdleMs ?? 1_000;
  let stopped = false;
  const pause = wakeableSleep();
  const unsubscribe = queue.onChange(() => pause.wake());

  const loop = (async () => {
    while (!stopped) {
      const received = queue.receive(batchSize);
      if (received.length === 0) {
        const next = queue.nextVisibleAt();
        await pause.sleep(next === undefined ? maxIdleMs : Math.min(Math.max(next - Date.now(), 0), maxIdleMs));
        continue;
      }
      try {
        const response = await handle(sqsEventOf(queue.kind, received));
        const failed = new Set(response.batchItemFailures.map(({ itemIdentifier }) => itemIdentifier));
        for (const { message, receiptHandle } of received) if (!failed.has(message.id)) queue.delete(receiptHandle);
      } catch (error) {
        // Like a Lambda error: the whole batch reappears after the visibility timeout.
        options.onError?.(error);
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      pause.wake();
      await loop;
    },
  };
}
