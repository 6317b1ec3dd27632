/** The transport's pure parts: stream filtering and batching (dispatch), SQS batching, the deliverer's per-message outcomes. */

import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord, SQSEvent } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { type FilterPattern, matchesFilterPattern } from '../../shared/domain/filter-pattern.ts';
import { type DeliverOne, deliverQueuedWebhooks } from '../../shared/services/deliver-queued-webhooks.ts';
import type { DeliveryOutcome } from '../../shared/services/deliver-webhook.ts';
import { dispatchWebhookEvents } from '../../shared/services/dispatch-webhook-events.ts';
import {
  type DeliveryQueue,
  deliveryMessageBody,
  MAX_RETRY_DELAY_MS,
  type SendFailure,
  sqsDeliveryQueue,
} from '../../shared/store/delivery-queue.ts';
import { dispatchableEventId } from '../../shared/store/stream-records.ts';
import { DISPATCHABLE_ENTITIES, STREAM_FILTER_PATTERN } from '../../shared/store/webhooks.ts';

const silent = { debug: () => undefined, warn: () => undefined, error: () => undefined };
const eventId = (n: number) => `evt_01JZ0000000000000000000${String(n).padStart(3, '0')}`;

function streamRecord(
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  entity: string,
  sequence: number,
  id?: string,
): DynamoDBRecord {
  return {
    eventName,
    eventSource: 'aws:dynamodb',
    dynamodb: {
      SequenceNumber: String(sequence).padStart(21, '0'),
      Keys: { PK: { S: `X#${sequence}` }, SK: { S: 'X' } },
      NewImage: { entity: { S: entity }, ...(id ? { event_id: { S: id } } : {}), PK: { S: `X#${sequence}` } },
    },
  };
}

function fakeQueue(fail: (id: string) => boolean = () => false) {
  const sent: string[][] = [];
  const queue: DeliveryQueue = {
    async send(ids) {
      sent.push([...ids]);
      return ids.filter(fail).map((id): SendFailure => ({ eventId: id, reason: 'Throttled' }));
    },
    retryAfter: vi.fn(async () => undefined),
  };
  return { queue, sent };
}

describe('stream filter', () => {
  it('passes exactly the INSERTs of dispatchable entities (property)', () => {
    const entity = fc.oneof(
      fc.constantFrom(...DISPATCHABLE_ENTITIES, 'invoice', 'payment', 'webhook_endpoint', 'idempotency'),
      fc.string(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('INSERT', 'MODIFY', 'REMOVE') as fc.Arbitrary<'INSERT' | 'MODIFY' | 'REMOVE'>,
        entity,
        (name, kind) => {
          const expected = name === 'INSERT' && (DISPATCHABLE_ENTITIES as readonly string[]).includes(kind);
          expect(
            matchesFilterPattern(
              STREAM_FILTER_PATTERN as unknown as FilterPattern,
              streamRecord(name, kind, 1, eventId(1)),
            ),
          ).toBe(expected);
        },
      ),
    );
  });

  it('needs every key of the pattern and rejects operators it does not implement', () => {
    expect(matchesFilterPattern({ a: { b: ['x'] } }, { a: { b: 'x' } })).toBe(true);
    expect(matchesFilterPattern({ a: { b: ['x'] } }, { a: {} })).toBe(false);
    expect(matchesFilterPattern({ a: ['x'], c: ['y'] }, { a: 'x' })).toBe(false);
    expect(() => matchesFilterPattern({ a: [{ prefix: 'x' }] as never }, { a: 'x' })).toThrow(/not supported/);
  });

  it('reads the event id of a dispatchable record only', () => {
    expect(dispatchableEventId(streamRecord('INSERT', 'webhook_resend', 1, eventId(7)))).toBe(eventId(7));
    expect(dispatchableEventId(streamRecord('MODIFY', 'webhook_event', 1, eventId(7)))).toBeUndefined();
    expect(dispatchableEventId(streamRecord('INSERT', 'webhook_event', 1))).toBeUndefined();
  });
});

describe('dispatch', () => {
  it('sends one message per dispatchable record, in stream order, and nothing for the rest', async () => {
    const { queue, sent } = fakeQueue();
    const records = [
      streamRecord('INSERT', 'invoice', 1),
      streamRecord('INSERT', 'webhook_event', 2, eventId(2)),
      streamRecord('MODIFY', 'webhook_event', 3, eventId(2)),
      streamRecord('INSERT', 'webhook_resend', 4, eventId(9)),
      streamRecord('REMOVE', 'webhook_event', 5, eventId(5)),
    ];
    expect(await dispatchWebhookEvents(records, { queue, log: silent })).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([[eventId(2), eventId(9)]]);
  });

  it('makes no queue call for a batch without dispatchable records', async () => {
    const { queue, sent } = fakeQueue();
    expect(await dispatchWebhookEvents([streamRecord('INSERT', 'payment', 1)], { queue, log: silent })).toEqual({
      batchItemFailures: [],
    });
    expect(sent).toEqual([]);
  });

  it('reports the first record it could not enqueue, so the stream retries from there', async () => {
    const { queue } = fakeQueue((id) => id === eventId(3) || id === eventId(5));
    const records = [2, 3, 4, 5].map((n) => streamRecord('INSERT', 'webhook_event', n, eventId(n)));
    expect(await dispatchWebhookEvents(records, { queue, log: silent })).toEqual({
      batchItemFailures: [{ itemIdentifier: records[1]!.dynamodb!.SequenceNumber }],
    });
  });
});

describe('SQS delivery queue', () => {
  it('sends in batches of 10 and returns the entries SQS refused or could not take', async () => {
    let call = 0;
    const send = vi.fn(async (_command: { input: { Entries: { Id: string; MessageBody: string }[] } }) => {
      call += 1;
      if (call === 2) throw Object.assign(new Error('down'), { name: 'ServiceUnavailable' });
      return {
        Failed: call === 1 ? [{ Id: '3', Code: 'InternalError', Message: 'try again', SenderFault: false }] : [],
      };
    });
    const queue = sqsDeliveryQueue('https://sqs.local/queue', { send } as unknown as SQSClient);
    const ids = Array.from({ length: 25 }, (_, n) => eventId(n));
    const failures = await queue.send(ids);
    expect(send).toHaveBeenCalledTimes(3);
    expect(send.mock.calls.map(([command]) => command.input.Entries.length)).toEqual([10, 10, 5]);
    expect(send.mock.calls[0]![0].input.Entries[0]).toEqual({ Id: '0', MessageBody: deliveryMessageBody(eventId(0)) });
    expect(failures.map((failure) => failure.eventId)).toEqual([eventId(3), ...ids.slice(10, 20)]);
    expect(failures[0]!.reason).toContain('InternalError');
  });

  it('reschedules a message with ChangeMessageVisibility, in whole seconds, at most about 12 h', async () => {
    const send = vi.fn(async (_command: { input: unknown }) => ({}));
    const queue = sqsDeliveryQueue('https://sqs.local/queue', { send } as unknown as SQSClient);
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
});

describe('deliver (queue consumer)', () => {
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

  it('completes delivered, failed and skipped messages; reschedules retries; keeps what threw or is malformed', async () => {
    const outcomes: Record<string, DeliveryOutcome | Error> = {
      [eventId(0)]: { kind: 'delivered' },
      [eventId(1)]: { kind: 'retry', delayMs: 300_000 },
      [eventId(2)]: { kind: 'failed' },
      [eventId(3)]: { kind: 'skipped', reason: 'no endpoint' },
      [eventId(4)]: new Error('table unavailable'),
    };
    const deliver: DeliverOne = async (id) => {
      const outcome = outcomes[id]!;
      if (outcome instanceof Error) throw outcome;
      return outcome;
    };
    const { queue } = fakeQueue();
    const event = sqsEvent([...Object.keys(outcomes).map(deliveryMessageBody), '{"event_id":"not-an-event"}']);
    const response = await deliverQueuedWebhooks(event, { queue, deliver, log: silent });
    expect(response.batchItemFailures.map(({ itemIdentifier }) => itemIdentifier).sort()).toEqual(['m1', 'm4', 'm5']);
    expect(queue.retryAfter).toHaveBeenCalledTimes(1);
    expect(queue.retryAfter).toHaveBeenCalledWith('r1', 300_000);
  });

  it('reports a batch in which every message waits for a retry without throwing', async () => {
    const { queue } = fakeQueue();
    const response = await deliverQueuedWebhooks(sqsEvent([deliveryMessageBody(eventId(1))]), {
      queue,
      deliver: async () => ({ kind: 'retry', delayMs: 1_000 }),
      log: silent,
    });
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: 'm0' }] });
  });

  it('attempts the messages of a batch concurrently (one slow endpoint does not hold the others)', async () => {
    const { queue } = fakeQueue();
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const deliver: DeliverOne = async (id) => {
      started.push(id);
      await gate;
      return { kind: 'delivered' };
    };
    const done = deliverQueuedWebhooks(sqsEvent([0, 1, 2].map((n) => deliveryMessageBody(eventId(n)))), {
      queue,
      deliver,
      log: silent,
    });
    await vi.waitFor(() => expect(started).toHaveLength(3));
    release();
    expect(await done).toEqual({ batchItemFailures: [] });
  });
});
