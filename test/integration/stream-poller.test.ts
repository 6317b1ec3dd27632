/**
 * `npm start`'s stream poller on DynamoDB Local's real stream: only filtered records reach the
 * handler, in order; a reported failure is retried from that record; a new poller on the same
 * checkpoint file resumes after the last handled record (no replay, nothing lost).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local.ts';
import { type StreamPoller, startStreamPoller } from '../../infra/local/stream-poller.ts';
import { type FilterPattern, streamFilterOf } from '../../shared/store/outbox.ts';
import { createTableInput } from '../../shared/store/table.ts';
import { until } from '../support/until.ts';

const endpoint = process.env.DYNAMODB_ENDPOINT!;
const tableName = `stream-poller-${process.pid}-${Date.now()}`;
const directory = mkdtempSync(join(tmpdir(), 'stream-poller-'));
const checkpointFile = join(directory, 'stream-position.json');
const client = localClient(endpoint);
const pollers: StreamPoller[] = [];

const eventId = (n: number) => `evt_01JZ0000000000000000000${String(n).padStart(3, '0')}`;

async function put(entity: string, n: number): Promise<void> {
  await client.send(
    new PutItemCommand({
      TableName: tableName,
      Item: {
        PK: { S: `T#${n}` },
        SK: { S: entity },
        entity: { S: entity },
        event_id: { S: eventId(n) },
        body: { B: Buffer.from('gz') },
      },
    }),
  );
}

function poll(handle: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>): StreamPoller {
  const poller = startStreamPoller({
    endpoint,
    tableName,
    checkpointFile,
    filter: streamFilterOf(['webhook']) as unknown as FilterPattern,
    handle,
    idleMs: 50,
    retryMs: 50,
  });
  pollers.push(poller);
  return poller;
}

beforeAll(async () => {
  await ensureTable(endpoint, tableName);
});

afterAll(async () => {
  await Promise.all(pollers.map((poller) => poller.stop()));
  client.destroy();
  rmSync(directory, { recursive: true, force: true });
});

it('dispatches filtered INSERTs in order, retries from a failed record, and resumes from its checkpoint', async () => {
  await put('invoice', 1);
  await put('webhook_event', 2);
  await put('webhook_endpoint', 3);
  await put('webhook_resend', 4);

  const seen: string[] = [];
  let failOnce = true;
  const first = poll(async ({ Records }) => {
    const ids = Records.map((record) => record.dynamodb!.NewImage!.event_id!.S!);
    // Shaped like Lambda's event: binary attributes in base64.
    expect(Records.every((record) => typeof record.dynamodb!.NewImage!.body!.B === 'string')).toBe(true);
    seen.push(...ids);
    if (failOnce && ids.includes(eventId(4))) {
      failOnce = false;
      const failed = Records.find((record) => record.dynamodb!.NewImage!.event_id!.S === eventId(4))!;
      return { batchItemFailures: [{ itemIdentifier: failed.dynamodb!.SequenceNumber! }] };
    }
    return { batchItemFailures: [] };
  });
  // 2 and 4 arrive; 4 failed once and comes again alone (2 was handled and is not replayed).
  await until('the failed record again', () => seen.filter((id) => id === eventId(4)).length === 2, 20_000);
  expect(seen).toEqual([eventId(2), eventId(4), eventId(4)]);
  await first.stop();

  await put('webhook_event', 5);
  await put('payment', 6);
  const resumed: string[] = [];
  const second = poll(async ({ Records }) => {
    resumed.push(...Records.map((record) => record.dynamodb!.NewImage!.event_id!.S!));
    return { batchItemFailures: [] };
  });
  await until('the record after the checkpoint', () => resumed.includes(eventId(5)), 20_000);
  await second.caughtUp();
  expect(resumed).toEqual([eventId(5)]);
});

it('turns the stream on for a table created before it had one (an older DATA_DIR)', async () => {
  const older = `${tableName}-older`;
  const { StreamSpecification: _, ...withoutStream } = createTableInput(older);
  await client.send(new CreateTableCommand(withoutStream));
  expect(
    (await client.send(new DescribeTableCommand({ TableName: older }))).Table?.StreamSpecification?.StreamEnabled,
  ).not.toBe(true);
  expect(await ensureTable(endpoint, older)).toBe(false);
  const { Table } = await client.send(new DescribeTableCommand({ TableName: older }));
  expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
  expect(Table?.LatestStreamArn).toBeDefined();
  await client.send(new DeleteTableCommand({ TableName: older }));
});
