/**
 * `npm start`'s job queues: persisted under DATA_DIR, SQS-like visibility, retries on time (fake timers); a queue file
 * written before the outbox was shared stays readable; the outbox poller's checkpoint starts from those of the pollers
 * it replaces.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalJobQueue, sqsEventOf, startQueueConsumer } from '../../infra/local/local-queue.ts';
import { type Checkpoints, earliestOf, StreamCheckpoints } from '../../infra/local/stream-checkpoints.ts';
import { parseJobMessage } from '../../shared/store/outbox.ts';

const OPTIONS = { visibilityTimeoutMs: 60_000, maxReceiveCount: 3 };
const EVENT = 'evt_01JZ00000000000000000000A1';
let directory: string;
let file: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'webhook-queue-'));
  file = join(directory, 'webhooks', 'queue.json');
  vi.useFakeTimers({ now: new Date('2026-11-22T12:00:00Z') });
});

afterEach(() => {
  vi.useRealTimers();
  rmSync(directory, { recursive: true, force: true });
});

describe('local delivery queue', () => {
  it('keeps a rescheduled message across a restart and hands it out only when its delay has passed', async () => {
    const before = new LocalJobQueue('webhook', file, OPTIONS);
    await before.send([EVENT]);
    const [received] = before.receive(10);
    expect(received!.message.eventId).toBe(EVENT);
    await before.retryAfter(received!.receiptHandle, 5_000);

    // A new process on the same DATA_DIR.
    const after = new LocalJobQueue('webhook', file, OPTIONS);
    expect(after.pending()).toHaveLength(1);
    expect(after.nextVisibleAt()).toBe(Date.now() + 5_000);
    vi.advanceTimersByTime(4_999);
    expect(after.receive(10)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(after.receive(10).map(({ message }) => message.eventId)).toEqual([EVENT]);
  });

  it('hides a received message for the visibility timeout, then hands it out again (a consumer that died)', async () => {
    const queue = new LocalJobQueue('webhook', file, OPTIONS);
    await queue.send([EVENT]);
    expect(queue.receive(10)).toHaveLength(1);
    expect(queue.receive(10)).toEqual([]);
    vi.advanceTimersByTime(OPTIONS.visibilityTimeoutMs);
    expect(queue.receive(10)).toHaveLength(1);
  });

  it('hands out at once, after a restart, a message that was in flight when its process died', async () => {
    // Prepare: received, then the process dies before completing or rescheduling it
    const before = new LocalJobQueue('webhook', file, OPTIONS);
    await before.send([EVENT]);
    expect(before.receive(10)).toHaveLength(1);
    // Act: a new process on the same DATA_DIR
    const after = new LocalJobQueue('webhook', file, OPTIONS);
    const received = after.receive(10);
    // Assess: not hidden for the visibility timeout; the crashed attempt still counts
    expect(received.map(({ message }) => [message.eventId, message.receiveCount])).toEqual([[EVENT, 2]]);
  });

  it('ignores stale receipt handles, like SQS', async () => {
    const queue = new LocalJobQueue('webhook', file, OPTIONS);
    await queue.send([EVENT]);
    const [first] = queue.receive(1);
    vi.advanceTimersByTime(OPTIONS.visibilityTimeoutMs);
    const [second] = queue.receive(1);
    queue.delete(first!.receiptHandle);
    await queue.retryAfter(first!.receiptHandle, 1);
    expect(queue.pending()).toHaveLength(1);
    queue.delete(second!.receiptHandle);
    expect(new LocalJobQueue('webhook', file, OPTIONS).pending()).toEqual([]);
  });

  it('moves a message received maxReceiveCount times to the dead letters (persisted)', async () => {
    const queue = new LocalJobQueue('webhook', file, OPTIONS);
    await queue.send([EVENT]);
    for (let receive = 0; receive < OPTIONS.maxReceiveCount; receive += 1) {
      expect(queue.receive(10)).toHaveLength(1);
      vi.advanceTimersByTime(OPTIONS.visibilityTimeoutMs);
    }
    expect(queue.receive(10)).toEqual([]);
    const reopened = new LocalJobQueue('webhook', file, OPTIONS);
    expect(reopened.pending()).toEqual([]);
    expect(reopened.deadLetters().map(({ eventId }) => eventId)).toEqual([EVENT]);
  });
});

describe('local queue consumer', () => {
  it('delivers at once, retries after exactly the delay the deliverer asked for, then completes the message', async () => {
    const queue = new LocalJobQueue('webhook', file, OPTIONS);
    const calls: { at: number; eventIds: (string | undefined)[] }[] = [];
    const handle = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      calls.push({ at: Date.now(), eventIds: event.Records.map((record) => parseJobMessage('webhook', record.body)) });
      if (calls.length === 1) {
        await queue.retryAfter(event.Records[0]!.receiptHandle, 5_000);
        return { batchItemFailures: [{ itemIdentifier: event.Records[0]!.messageId }] };
      }
      return { batchItemFailures: [] };
    };
    const consumer = startQueueConsumer(queue, handle);
    const start = Date.now();
    await queue.send([EVENT]);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual([{ at: start, eventIds: [EVENT] }]);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - start).toBe(5_000);
    expect(queue.pending()).toEqual([]);
    await consumer.stop();
  });

  it('leaves a batch that threw to reappear after the visibility timeout', async () => {
    const queue = new LocalJobQueue('webhook', file, OPTIONS);
    let calls = 0;
    const errors: unknown[] = [];
    const consumer = startQueueConsumer(
      queue,
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('crash');
        return { batchItemFailures: [] };
      },
      { onError: (error) => errors.push(error) },
    );
    await queue.send([EVENT]);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(OPTIONS.visibilityTimeoutMs - 1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toBe(2);
    expect(queue.pending()).toEqual([]);
    await consumer.stop();
  });
});

describe('the queue of each job kind', () => {
  const MAIL_JOB = 'mail_01JZ00000000000000000000A1';

  it("hands its kind's worker the message body the deployed dispatcher writes", async () => {
    const queue = new LocalJobQueue('mail', join(directory, 'mail-queue', 'queue.json'), OPTIONS);
    await queue.send([MAIL_JOB]);
    const event = sqsEventOf('mail', queue.receive(10));
    expect(event.Records.map((record) => JSON.parse(record.body))).toEqual([{ job_id: MAIL_JOB }]);
    expect(parseJobMessage('mail', event.Records[0]!.body)).toBe(MAIL_JOB);
  });

  it('reads a queue file the mail runner wrote before the outbox was shared, and keeps its format', async () => {
    const mailFile = join(directory, 'mail-queue', 'queue.json');
    mkdirSync(join(directory, 'mail-queue'), { recursive: true });
    const waiting = { id: 'm-1', eventId: MAIL_JOB, visibleAt: Date.now() + 1_000, receiveCount: 1, sentAt: 1 };
    writeFileSync(mailFile, JSON.stringify({ version: 1, messages: [waiting], deadLetters: [] }));
    const queue = new LocalJobQueue('mail', mailFile, OPTIONS);
    vi.advanceTimersByTime(1_000);
    expect(queue.receive(10).map(({ message }) => message.eventId)).toEqual([MAIL_JOB]);
    expect(JSON.parse(readFileSync(mailFile, 'utf8'))).toMatchObject({ version: 1, messages: [{ eventId: MAIL_JOB }] });
  });
});

describe("the outbox poller's checkpoint, from the pollers it replaces", () => {
  const STREAM = 'arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/1';
  const saved = (shards: Checkpoints['shards'], streamArn = STREAM): Checkpoints => ({ streamArn, shards });

  it('starts each shard at the earliest position of those not done with it; a shard one of them lacks, from its start', () => {
    const webhooks = saved({
      a: { sequenceNumber: '900' },
      b: { sequenceNumber: '1000', done: true },
      c: { sequenceNumber: '50' },
      d: { done: true },
    });
    const mail = saved({ a: { sequenceNumber: '1000' }, b: { sequenceNumber: '980' }, d: { done: true } });
    expect(earliestOf([webhooks, mail])).toEqual({
      a: { sequenceNumber: '900' },
      b: { sequenceNumber: '980' },
      d: { done: true },
    });
  });

  it('compares sequence numbers as numbers, not text', () => {
    const one = saved({ a: { sequenceNumber: '99' } });
    const two = saved({ a: { sequenceNumber: '100' } });
    expect(earliestOf([two, one])).toEqual({ a: { sequenceNumber: '99' } });
  });

  it('uses the old files only while it has none of its own, and only for the same stream', () => {
    const write = (path: string, checkpoints: Checkpoints) => {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, JSON.stringify(checkpoints));
    };
    const legacy = [
      join(directory, 'webhooks', 'stream-position.json'),
      join(directory, 'mail-queue', 'stream-position.json'),
    ];
    write(legacy[0]!, saved({ a: { sequenceNumber: '7' } }));
    write(legacy[1]!, saved({ a: { sequenceNumber: '5' } }));
    const own = join(directory, 'outbox', 'stream-position.json');
    const migrated = new StreamCheckpoints(own, legacy);
    migrated.useStream(STREAM);
    expect(migrated.position('a')).toBe('5');
    const other = new StreamCheckpoints(join(directory, 'other.json'), legacy);
    other.useStream(`${STREAM}-recreated`);
    expect(other.position('a')).toBeUndefined();
    migrated.setPosition('a', '12');
    const reopened = new StreamCheckpoints(own, legacy);
    reopened.useStream(STREAM);
    expect(reopened.position('a')).toBe('12');
  });
});
