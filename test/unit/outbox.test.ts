/**
 * The outbox's pure parts, for every job kind (shared/store/outbox.ts `JOB_KINDS`): the stream filter, the dispatcher
 * (records → each kind's queue), SQS batching, and the generic consumer's per-message outcomes.
 */

import { readFileSync } from 'node:fs';
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, SQSEvent } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../infra/cli/commands.ts';
import { consumeJobs, type DeliverJob, dispatchJobs, type JobOutcome } from '../../shared/services/outbox.ts';
import {
  type FilterPattern,
  JOB_KIND_NAMES,
  JOB_KINDS,
  type JobKindName,
  type JobQueue,
  jobMessageBody,
  MAX_RETRY_DELAY_MS,
  matchesFilterPattern,
  OUTBOX_STREAM_FILTER,
  parseJobMessage,
  readJobBatch,
  type SendFailure,
  sqsJobQueue,
} from '../../shared/store/outbox.ts';

const packageScripts = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;
const silent = { debug: () => undefined, warn: () => undefined, error: () => undefined };
const ULID = (n: number) => `01JZ0000000000000000000${String(n).padStart(3, '0')}`;
const JOB_ID: Record<JobKindName, (n: number) => string> = {
  webhook: (n) => `evt_${ULID(n)}`,
  mail: (n) => `mail_${ULID(n)}`,
  providerEvent: (n) => `pse_${ULID(n)}`,
  refund: (n) => `rfj_${ULID(n)}`,
  charge: (n) => `chg_${ULID(n)}_1`,
};
const ENTITY: Record<JobKindName, string> = {
  webhook: 'webhook_event',
  mail: 'mail_job',
  providerEvent: 'paystack_event',
  refund: 'refund_job',
  charge: 'charge_job',
};

function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  entity: string,
  sequence: number,
  id?: { attribute: string; value: string },
): DynamoDBRecord {
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: String(sequence).padStart(21, '0'),
      Keys: { PK: { S: `X#${sequence}` }, SK: { S: 'X' } },
      NewImage: {
        entity: { S: entity },
        ...(id ? { [id.attribute]: { S: id.value } } : {}),
        PK: { S: `X#${sequence}` },
      },
    },
  };
}

/** The INSERT of a job of `kind` (its first entity), at `sequence`. */
const jobRecord = (kind: JobKindName, sequence: number, id = JOB_ID[kind](sequence)) =>
  streamRecord('INSERT', ENTITY[kind], sequence, { attribute: JOB_KINDS[kind].idAttribute, value: id });

function fakeQueues(fail: (id: string) => boolean = () => false) {
  const sent: Partial<Record<JobKindName, string[][]>> = {};
  const queues = (kind: JobKindName): JobQueue => ({
    async send(ids) {
      (sent[kind] ??= []).push([...ids]);
      return ids.filter(fail).map((id): SendFailure => ({ id, reason: 'Throttled' }));
    },
    retryAfter: async () => undefined,
  });
  return { queues, sent };
}

describe('the job kinds', () => {
  it('name their entities once each, and a local directory and a queue each of their own', () => {
    const entities = JOB_KIND_NAMES.flatMap((kind) => JOB_KINDS[kind].entities);
    expect(new Set(entities).size).toBe(entities.length);
    expect(JOB_KINDS.webhook.entities).toEqual(['webhook_event', 'webhook_resend']);
    expect(JOB_KINDS.mail.entities).toEqual(['mail_job']);
    for (const field of ['localDirectory', 'queueUrlVariable'] as const) {
      const values = JOB_KIND_NAMES.map((kind) => JOB_KINDS[kind][field]);
      expect(new Set(values).size, field).toBe(values.length);
    }
  });

  it('share a CLI listing only among the Paystack kinds (paystack:events lists them all)', () => {
    const paystack = JOB_KIND_NAMES.filter((kind) => JOB_KINDS[kind].cliListing === 'paystack:events');
    expect(paystack).toEqual(['providerEvent', 'refund', 'charge']);
    const others = JOB_KIND_NAMES.filter((kind) => !paystack.includes(kind)).map((kind) => JOB_KINDS[kind].cliListing);
    expect(new Set(others).size).toBe(others.length);
  });

  it.each(JOB_KIND_NAMES)('%s: its CLI listing is a command of the CLI, with its npm script', (kind) => {
    const name = JOB_KINDS[kind].cliListing;
    expect(COMMANDS.map((command) => command.name)).toContain(name);
    expect(packageScripts[name]).toBe(`tsx infra/cli/main.ts ${name}`);
  });

  it.each(JOB_KIND_NAMES)(
    '%s: its message body carries the id under its id attribute, and only a valid id is read back',
    (kind) => {
      const id = JOB_ID[kind](1);
      expect(JSON.parse(jobMessageBody(kind, id))).toEqual({ [JOB_KINDS[kind].idAttribute]: id });
      expect(parseJobMessage(kind, jobMessageBody(kind, id))).toBe(id);
      const other = kind === 'webhook' ? 'mail' : 'webhook';
      expect(parseJobMessage(kind, jobMessageBody(other, JOB_ID[other](1)))).toBeUndefined();
      expect(parseJobMessage(kind, jobMessageBody(kind, 'not-an-id'))).toBeUndefined();
      expect(parseJobMessage(kind, 'not json')).toBeUndefined();
      expect(parseJobMessage(kind, 'null')).toBeUndefined();
    },
  );
});

describe('stream filter', () => {
  it("passes exactly the INSERTs of every kind's entities (property)", () => {
    const entities = JOB_KIND_NAMES.flatMap((kind) => JOB_KINDS[kind].entities) as string[];
    const entity = fc.oneof(fc.constantFrom(...entities, 'invoice', 'payment', 'webhook_endpoint'), fc.string());
    const name = fc.constantFrom('INSERT', 'MODIFY', 'REMOVE') as fc.Arbitrary<'INSERT' | 'MODIFY' | 'REMOVE'>;
    fc.assert(
      fc.property(name, entity, (eventName, kind) => {
        const record = streamRecord(eventName, kind, 1);
        const expected = eventName === 'INSERT' && entities.includes(kind);
        expect(matchesFilterPattern(OUTBOX_STREAM_FILTER as unknown as FilterPattern, record)).toBe(expected);
      }),
    );
    expect(JSON.parse(JSON.stringify(OUTBOX_STREAM_FILTER))).toEqual({
      eventName: ['INSERT'],
      dynamodb: {
        NewImage: {
          entity: { S: ['webhook_event', 'webhook_resend', 'mail_job', 'paystack_event', 'refund_job', 'charge_job'] },
        },
      },
    });
  });

  it('needs every key of the pattern and rejects operators it does not implement', () => {
    expect(matchesFilterPattern({ a: { b: ['x'] } }, { a: { b: 'x' } })).toBe(true);
    expect(matchesFilterPattern({ a: { b: ['x'] } }, { a: {} })).toBe(false);
    expect(matchesFilterPattern({ a: ['x'], c: ['y'] }, { a: 'x' })).toBe(false);
    expect(() => matchesFilterPattern({ a: [{ prefix: 'x' }] as never }, { a: 'x' })).toThrow(/not supported/);
  });

  it("reads each record's kind and id; a record of a kind without a valid id is set apart", () => {
    const records = [
      jobRecord('webhook', 1),
      streamRecord('INSERT', 'webhook_resend', 2, { attribute: 'event_id', value: JOB_ID.webhook(7) }),
      streamRecord('MODIFY', 'webhook_event', 3, { attribute: 'event_id', value: JOB_ID.webhook(3) }),
      jobRecord('mail', 4),
      streamRecord('INSERT', 'webhook_event', 5),
      jobRecord('mail', 6, 'mail_nope'),
      streamRecord('INSERT', 'mail_job', 8, { attribute: 'event_id', value: JOB_ID.webhook(8) }),
    ];
    const position = (n: number) => String(n).padStart(21, '0');
    expect(readJobBatch(records)).toEqual({
      jobs: [
        { kind: 'webhook', id: JOB_ID.webhook(1), position: position(1) },
        { kind: 'webhook', id: JOB_ID.webhook(7), position: position(2) },
        { kind: 'mail', id: JOB_ID.mail(4), position: position(4) },
      ],
      withoutId: [
        { kind: 'webhook', position: position(5) },
        { kind: 'mail', position: position(6) },
        { kind: 'mail', position: position(8) },
      ],
    });
  });
});

describe('dispatch', () => {
  it("sends each kind's jobs to its own queue, one message per job in stream order, nothing for the rest", async () => {
    const { queues, sent } = fakeQueues();
    const records = [
      streamRecord('INSERT', 'invoice', 1),
      jobRecord('webhook', 2),
      jobRecord('mail', 3),
      streamRecord('MODIFY', 'webhook_event', 4, { attribute: 'event_id', value: JOB_ID.webhook(2) }),
      jobRecord('webhook', 5),
      streamRecord('REMOVE', 'mail_job', 6, { attribute: 'job_id', value: JOB_ID.mail(6) }),
      jobRecord('mail', 7),
    ];
    expect(await dispatchJobs(records, { queues, log: silent })).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual({
      webhook: [[JOB_ID.webhook(2), JOB_ID.webhook(5)]],
      mail: [[JOB_ID.mail(3), JOB_ID.mail(7)]],
    });
  });

  it('makes no queue call for a batch without jobs, and logs a job record without an id', async () => {
    const { queues, sent } = fakeQueues();
    const log = { ...silent, error: vi.fn() };
    const records = [streamRecord('INSERT', 'payment', 1), streamRecord('INSERT', 'mail_job', 2)];
    expect(await dispatchJobs(records, { queues, log })).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual({});
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('without a valid job id'), {
      kind: 'mail',
      sequence_number: records[1]!.dynamodb!.SequenceNumber,
    });
  });

  it.each(JOB_KIND_NAMES)(
    'reports the first record it could not enqueue (a %s job), whatever its kind, so the stream retries from there',
    async (kind) => {
      const other: JobKindName = kind === 'webhook' ? 'mail' : 'webhook';
      const { queues } = fakeQueues((id) => id === JOB_ID[kind](4) || id === JOB_ID[other](5));
      const records = [jobRecord(other, 2), jobRecord(kind, 3), jobRecord(kind, 4), jobRecord(other, 5)];
      expect(await dispatchJobs(records, { queues, log: silent })).toEqual({
        batchItemFailures: [{ itemIdentifier: records[2]!.dynamodb!.SequenceNumber }],
      });
    },
  );
});

describe('SQS job queue', () => {
  it.each(JOB_KIND_NAMES)(
    '%s: sends in batches of 10 and returns the entries SQS refused or could not take',
    async (kind) => {
      let call = 0;
      const send = vi.fn(async (_command: { input: { Entries: { Id: string; MessageBody: string }[] } }) => {
        call += 1;
        if (call === 2) throw Object.assign(new Error('down'), { name: 'ServiceUnavailable' });
        return {
          Failed: call === 1 ? [{ Id: '3', Code: 'InternalError', Message: 'try again', SenderFault: false }] : [],
        };
      });
      const queue = sqsJobQueue(kind, 'https://sqs.local/queue', { send } as unknown as SQSClient);
      const ids = Array.from({ length: 25 }, (_, n) => JOB_ID[kind](n));
      const failures = await queue.send(ids);
      expect(send).toHaveBeenCalledTimes(3);
      expect(send.mock.calls.map(([command]) => command.input.Entries.length)).toEqual([10, 10, 5]);
      expect(send.mock.calls[0]![0].input.Entries[0]).toEqual({ Id: '0', MessageBody: jobMessageBody(kind, ids[0]!) });
      expect(failures.map((failure) => failure.id)).toEqual([ids[3], ...ids.slice(10, 20)]);
      expect(failures[0]!.reason).toContain('InternalError');
    },
  );

  it('reschedules a message with ChangeMessageVisibility, in whole seconds, at most about 12 h', async () => {
    const send = vi.fn(async (_command: { input: unknown }) => ({}));
    const queue = sqsJobQueue('mail', 'https://sqs.local/queue', { send } as unknown as SQSClient);
    await queue.retryAfter('receipt-1', 60_000);
    await queue.retryAfter('receipt-2', 1_500);
    await queue.retryAfter('receipt-3', 48 * 3600_000);
    expect(send.mock.calls.map(([command]) => command.input)).toEqual([
      { QueueUrl: 'https://sqs.local/queue', ReceiptHandle: 'receipt-1', VisibilityTimeout: 60 },
      { QueueUrl: 'https://sqs.local/queue', ReceiptHandle: 'receipt-2', VisibilityTimeout: 2 },
      { QueueUrl: 'https://sqs.local/queue', ReceiptHandle: 'receipt-3', VisibilityTimeout: MAX_RETRY_DELAY_MS / 1000 },
    ]);
    expect(MAX_RETRY_DELAY_MS).toBeLessThan(12 * 3600_000);
  });

  it("refuses to work without its queue's URL, naming the variable", () => {
    expect(() => sqsJobQueue('webhook', '')).toThrow('DELIVERY_QUEUE_URL is not set.');
    expect(() => sqsJobQueue('mail', '')).toThrow('MAIL_QUEUE_URL is not set.');
  });
});

describe.each(JOB_KIND_NAMES)('the consumer of %s jobs', (kind) => {
  const sqsEvent = (bodies: string[]): SQSEvent => ({
    Records: bodies.map((body, index) => ({
      messageId: `m${index}`,
      receiptHandle: `r${index}`,
      body,
      attributes: {} as never,
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:0:q',
      awsRegion: 'local',
    })),
  });
  const retryQueue = () => ({ retryAfter: vi.fn(async (_receipt: string, _delayMs: number) => undefined) });
  const id = JOB_ID[kind];
  const other: JobKindName = kind === 'webhook' ? 'mail' : 'webhook';

  it('completes delivered, failed and skipped messages; reschedules retries; keeps what threw or is malformed', async () => {
    const outcomes: Record<string, JobOutcome | Error> = {
      [id(0)]: { kind: 'delivered' },
      [id(1)]: { kind: 'retry', delayMs: 300_000 },
      [id(2)]: { kind: 'failed' },
      [id(3)]: { kind: 'skipped', reason: 'already delivered' },
      [id(4)]: new Error('table unavailable'),
    };
    const deliver: DeliverJob = async (jobId) => {
      const outcome = outcomes[jobId]!;
      if (outcome instanceof Error) throw outcome;
      return outcome;
    };
    const queue = retryQueue();
    const malformed = ['{"event_id":"not-an-id"}', jobMessageBody(other, JOB_ID[other](9)), 'not json'];
    const bodies = [...Object.keys(outcomes).map((jobId) => jobMessageBody(kind, jobId)), ...malformed];
    const response = await consumeJobs(kind, deliver, sqsEvent(bodies), { queue, log: silent });
    expect(response.batchItemFailures.map(({ itemIdentifier }) => itemIdentifier).sort()).toEqual([
      'm1',
      'm4',
      'm5',
      'm6',
      'm7',
    ]);
    expect(queue.retryAfter).toHaveBeenCalledTimes(1);
    expect(queue.retryAfter).toHaveBeenCalledWith('r1', 300_000);
  });

  it('caps a retry delay at what SQS accepts', async () => {
    const queue = retryQueue();
    const deliver: DeliverJob = async () => ({ kind: 'retry', delayMs: 48 * 3600_000 });
    await consumeJobs(kind, deliver, sqsEvent([jobMessageBody(kind, id(1))]), { queue, log: silent });
    expect(queue.retryAfter).toHaveBeenCalledWith('r0', MAX_RETRY_DELAY_MS);
  });

  it('reports a batch in which every message waits for a retry without throwing', async () => {
    const response = await consumeJobs(
      kind,
      async () => ({ kind: 'retry', delayMs: 1_000 }),
      sqsEvent([jobMessageBody(kind, id(1))]),
      { queue: retryQueue(), log: silent },
    );
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm0' }] });
  });

  it('attempts the messages of a batch concurrently (one slow delivery does not hold the others)', async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const deliver: DeliverJob = async (jobId) => {
      started.push(jobId);
      await gate;
      return { kind: 'delivered' };
    };
    const event = sqsEvent([0, 1, 2].map((n) => jobMessageBody(kind, id(n))));
    const done = consumeJobs(kind, deliver, event, { queue: retryQueue(), log: silent });
    await vi.waitFor(() => expect(started).toHaveLength(3));
    release();
    expect(await done).toEqual({ batchItemFailures: [] });
  });

  it('warns about an attempt that threw, with the message id and the error, never the job', async () => {
    const log = { ...silent, warn: vi.fn() };
    const deliver: DeliverJob = async () => {
      throw Object.assign(new Error('Mail job changed too often'), { name: 'Conflict' });
    };
    await consumeJobs(kind, deliver, sqsEvent([jobMessageBody(kind, id(1))]), { queue: retryQueue(), log });
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining('threw'), {
      kind,
      message_id: 'm0',
      error: 'Conflict',
      reason: 'Mail job changed too often',
    });
  });
});
