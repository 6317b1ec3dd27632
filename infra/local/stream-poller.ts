/**
 * `npm start`'s event source mapping: reads DynamoDB Local's table stream shard by shard (parents
 * before children, a closed shard until its end), keeps only the records the filter pattern
 * matches (as Lambda's filter criteria do), and hands them to the dispatch handler as a
 * DynamoDBStreamEvent. A reported batch item failure is retried from that record, after a pause.
 * The position in each shard is checkpointed under DATA_DIR, so a restart resumes where it stopped;
 * without a checkpoint (first start, stream trimmed or replaced) a shard is read from TRIM_HORIZON,
 * and events already delivered are skipped by the deliverer.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamSdkRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { type FilterPattern, matchesFilterPattern } from '../../shared/domain/filter-pattern.ts';
import { LOCAL_CREDENTIALS, localClient } from './dynamodb-local.ts';
import { wakeableSleep } from './wakeable-sleep.ts';

interface Checkpoints {
  streamArn: string;
  /** Per shard: the last sequence number handled, and whether the (closed) shard was read to its end. */
  shards: Record<string, { sequenceNumber?: string; done?: boolean }>;
}

export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  checkpointFile: string;
  filter: FilterPattern;
  handle(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse>;
  /** Pause between polls once every shard is caught up. */
  idleMs?: number;
  /** Pause before retrying a batch that reported a failure or threw. */
  retryMs?: number;
  /** How often the stream's shards are listed again. */
  describeEveryMs?: number;
  onError?(error: unknown): void;
}

export interface StreamPoller {
  stop(): Promise<void>;
  /** Resolves after the next complete pass over all shards (tests and shutdown use it). */
  caughtUp(): Promise<void>;
}

function loadCheckpoints(file: string): Checkpoints | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Checkpoints;
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}

function saveCheckpoints(file: string, checkpoints: Checkpoints): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(checkpoints));
  renameSync(temporary, file);
}

/** The JSON form Lambda gives a function: binary attributes in base64, the creation time in epoch seconds. */
function toLambdaShape(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (Array.isArray(value)) return value.map(toLambdaShape);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, toLambdaShape(v)]),
    );
  }
  return value;
}

export function toLambdaRecord(record: StreamSdkRecord, streamArn: string): DynamoDBRecord {
  return { ...(toLambdaShape(record) as DynamoDBRecord), eventSourceARN: streamArn };
}

/** Shards in an order where every parent comes before its children. */
export function parentsFirst(shards: readonly Shard[]): Shard[] {
  const byId = new Map(shards.map((shard) => [shard.ShardId!, shard]));
  const ordered: Shard[] = [];
  const seen = new Set<string>();
  const visit = (shard: Shard) => {
    if (seen.has(shard.ShardId!)) return;
    seen.add(shard.ShardId!);
    const parent = shard.ParentShardId ? byId.get(shard.ParentShardId) : undefined;
    if (parent) visit(parent);
    ordered.push(shard);
  };
  shards.forEach(visit);
  return ordered;
}

export function startStreamPoller(options: StreamPollerOptions): StreamPoller {
  const idleMs = options.idleMs ?? 250;
  const retryMs = options.retryMs ?? 1_000;
  const streams = new DynamoDBStreamsClient({
    endpoint: options.endpoint,
    region: 'local',
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 2,
  });
  const iterators = new Map<string, string>();
  // The stream and its shards change rarely (a table recreated, a shard rolled over): look them up every few seconds.
  const describeEveryMs = options.describeEveryMs ?? 5_000;
  let described: { at: number; streamArn: string | undefined; shards: Shard[] } | undefined;
  let checkpoints: Checkpoints | undefined;
  let stopped = false;
  const pause = wakeableSleep();
  let passWaiters: (() => void)[] = [];

  async function currentStreamArn(): Promise<string | undefined> {
    const client = localClient(options.endpoint);
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: options.tableName }));
      return Table?.LatestStreamArn;
    } finally {
      client.destroy();
    }
  }

  async function listShards(streamArn: string): Promise<Shard[]> {
    const shards: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await streams.send(
        new DescribeStreamCommand({
          StreamArn: streamArn,
          ...(exclusiveStartShardId ? { ExclusiveStartShardId: exclusiveStartShardId } : {}),
        }),
      );
      shards.push(...(StreamDescription?.Shards ?? []));
      exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
    } while (exclusiveStartShardId);
    return shards;
  }

  async function iteratorFor(streamArn: string, shardId: string): Promise<string | undefined> {
    const known = iterators.get(shardId);
    if (known) return known;
    const after = checkpoints!.shards[shardId]?.sequenceNumber;
    const request = after
      ? {
          StreamArn: streamArn,
          ShardId: shardId,
          ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const,
          SequenceNumber: after,
        }
      : { StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' as const };
    try {
      return (await streams.send(new GetShardIteratorCommand(request))).ShardIterator;
    } catch (error) {
      if ((error as { name?: string }).name !== 'TrimmedDataAccessException' || !after) throw error;
      // The checkpoint fell out of the stream's retention: read what is left (deliveries are deduplicated).
      delete checkpoints!.shards[shardId]!.sequenceNumber;
      return (
        await streams.send(
          new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }),
        )
      ).ShardIterator;
    }
  }

  /** Reads one shard as far as it goes now. Returns false when a batch failed (retry later). */
  async function drainShard(streamArn: string, shardId: string): Promise<boolean> {
    let iterator = await iteratorFor(streamArn, shardId);
    while (iterator && !stopped) {
      let output: GetRecordsCommandOutput;
      try {
        output = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      } catch (error) {
        iterators.delete(shardId);
        if ((error as { name?: string }).name === 'ExpiredIteratorException') return true;
        throw error;
      }
      const records = output.Records ?? [];
      if (records.length > 0) {
        const matching = records
          .map((record) => toLambdaRecord(record, streamArn))
          .filter((record) => matchesFilterPattern(options.filter, record));
        if (matching.length > 0) {
          let failedAt: string | undefined;
          try {
            failedAt = (await options.handle({ Records: matching })).batchItemFailures[0]?.itemIdentifier;
          } catch (error) {
            options.onError?.(error);
            failedAt = matching[0]!.dynamodb!.SequenceNumber!;
          }
          if (failedAt !== undefined) {
            // Keep the position just before the failed record; the next pass starts from it.
            const before = records.findIndex((record) => record.dynamodb?.SequenceNumber === failedAt);
            if (before > 0) setPosition(shardId, records[before - 1]!.dynamodb!.SequenceNumber!);
            iterators.delete(shardId);
            return false;
          }
        }
        setPosition(shardId, records.at(-1)!.dynamodb!.SequenceNumber!);
      }
      iterator = output.NextShardIterator;
      if (!iterator) {
        // A closed shard read to its end: its children take over.
        checkpoints!.shards[shardId] = { ...checkpoints!.shards[shardId], done: true };
        saveCheckpoints(options.checkpointFile, checkpoints!);
        iterators.delete(shardId);
        described = undefined; // its children may not be listed yet
        return true;
      }
      iterators.set(shardId, iterator);
      if (records.length === 0) return true;
    }
    return true;
  }

  function setPosition(shardId: string, sequenceNumber: string): void {
    checkpoints!.shards[shardId] = { ...checkpoints!.shards[shardId], sequenceNumber };
    saveCheckpoints(options.checkpointFile, checkpoints!);
  }

  async function describe(): Promise<{ streamArn: string | undefined; shards: Shard[] }> {
    if (described && Date.now() - described.at < describeEveryMs) return described;
    const streamArn = await currentStreamArn();
    described = { at: Date.now(), streamArn, shards: streamArn ? parentsFirst(await listShards(streamArn)) : [] };
    return described;
  }

  async function pass(): Promise<boolean> {
    const { streamArn, shards } = await describe();
    if (!streamArn) return true;
    if (checkpoints?.streamArn !== streamArn) {
      const saved = loadCheckpoints(options.checkpointFile);
      checkpoints = saved?.streamArn === streamArn ? saved : { streamArn, shards: {} };
      iterators.clear();
    }
    const live = new Set(shards.map((shard) => shard.ShardId!));
    for (const shardId of Object.keys(checkpoints.shards)) if (!live.has(shardId)) delete checkpoints.shards[shardId];
    let healthy = true;
    for (const shard of shards) {
      if (stopped) break;
      const shardId = shard.ShardId!;
      if (checkpoints.shards[shardId]?.done) continue;
      // A child waits until its parent was read to the end (order per item across a shard split).
      const parent = shard.ParentShardId;
      if (parent && live.has(parent) && !checkpoints.shards[parent]?.done) continue;
      if (!(await drainShard(streamArn, shardId))) healthy = false;
    }
    return healthy;
  }

  const loop = (async () => {
    while (!stopped) {
      let healthy: boolean;
      try {
        healthy = await pass();
      } catch (error) {
        if (stopped) break;
        options.onError?.(error);
        described = undefined;
        healthy = false;
      }
      const waiters = passWaiters;
      passWaiters = [];
      for (const resolveWaiter of waiters) resolveWaiter();
      if (!stopped) await pause.sleep(healthy ? idleMs : retryMs);
    }
  })();

  return {
    async stop() {
      stopped = true;
      pause.wake();
      await loop;
      streams.destroy();
      for (const resolveWaiter of passWaiters) resolveWaiter();
    },
    caughtUp() {
      return new Promise((resolveWaiter) => passWaiters.push(resolveWaiter));
    },
  };
}
