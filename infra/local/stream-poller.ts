/**
 * `npm start`'s event source mapping: reads DynamoDB Local's table stream shard by shard (parents
 * before children, a closed shard until its end), keeps only the records the filter pattern
 * matches (as Lambda's filter criteria do), and hands them to the outbox dispatcher as a
 * DynamoDBStreamEvent. A reported batch item failure is retried from that record, after a pause.
 * The position in each shard is checkpointed under DATA_DIR (stream-checkpoints.ts), so a restart resumes where
 * it stopped; without a checkpoint (first start, stream trimmed or replaced) a shard is read from TRIM_HORIZON,
 * and events already delivered are skipped by the deliverer. The stream itself is read by stream-shards.ts.
 */
import type { _Record as StreamSdkRecord } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { type FilterPattern, matchesFilterPattern } from '../../shared/store/outbox.ts';
import { StreamCheckpoints } from './stream-checkpoints.ts';
import { StreamShards } from './stream-shards.ts';
import { wakeableSleep } from './wakeable-sleep.ts';

export { parentsFirst } from './stream-shards.ts';

export interface StreamPollerOptions {
  endpoint: string;
  tableName: string;
  checkpointFile: string;
  /** The checkpoint files of pollers this one replaces: without its own, it starts from the earliest of theirs. */
  legacyCheckpointFiles?: readonly string[];
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

const sequenceNumberOf = (record: StreamSdkRecord | DynamoDBRecord): string => record.dynamodb!.SequenceNumber!;

export function startStreamPoller(options: StreamPollerOptions): StreamPoller {
  const polling = new StreamPolling(options);
  const loop = polling.run();
  return {
    async stop() {
      await polling.stop(loop);
    },
    caughtUp: () => polling.nextPass(),
  };
}

class StreamPolling {
  private readonly shards: StreamShards;
  private readonly checkpoints: StreamCheckpoints;
  private readonly pause = wakeableSleep();
  private passWaiters: (() => void)[] = [];
  private stopped = false;

  constructor(private readonly options: StreamPollerOptions) {
    this.shards = new StreamShards(options.endpoint, options.tableName, options.describeEveryMs ?? 5_000);
    this.checkpoints = new StreamCheckpoints(options.checkpointFile, options.legacyCheckpointFiles);
  }

  /** Passes over every shard until stopped: soon again when all went well, after `retryMs` when one failed. */
  async run(): Promise<void> {
    while (!this.stopped) {
      let healthy: boolean;
      try {
        healthy = await this.pass();
      } catch (error) {
        if (this.stopped) break;
        this.options.onError?.(error);
        this.shards.describeAgain();
        healthy = false;
      }
      this.releaseWaiters();
      if (!this.stopped)
        await this.pause.sleep(healthy ? (this.options.idleMs ?? 250) : (this.options.retryMs ?? 1_000));
    }
  }

  async stop(loop: Promise<void>): Promise<void> {
    this.stopped = true;
    this.pause.wake();
    await loop;
    this.shards.destroy();
    this.releaseWaiters();
  }

  nextPass(): Promise<void> {
    return new Promise((resolveWaiter) => this.passWaiters.push(resolveWaiter));
  }

  private releaseWaiters(): void {
    const waiters = this.passWaiters;
    this.passWaiters = [];
    for (const resolveWaiter of waiters) resolveWaiter();
  }

  /** One pass over the shards that may be read now. Returns false when a batch failed (retry later). */
  private async pass(): Promise<boolean> {
    const { streamArn, shards } = await this.shards.layout();
    if (!streamArn) return true;
    if (this.checkpoints.useStream(streamArn)) this.shards.dropIterators();
    const live = new Set(shards.map((shard) => shard.ShardId!));
    this.checkpoints.keepOnly(live);
    let healthy = true;
    for (const shard of shards) {
      if (this.stopped) break;
      const shardId = shard.ShardId!;
      if (this.checkpoints.isDone(shardId)) continue;
      // A child waits until its parent was read to the end (order per item across a shard split).
      const parent = shard.ParentShardId;
      if (parent && live.has(parent) && !this.checkpoints.isDone(parent)) continue;
      if (!(await this.drainShard(streamArn, shardId))) healthy = false;
    }
    return healthy;
  }

  /** Reads one shard as far as it goes now. Returns false when a batch failed (retry later). */
  private async drainShard(streamArn: string, shardId: string): Promise<boolean> {
    let iterator = await this.shards.iterator(streamArn, shardId, this.checkpoints);
    while (iterator && !this.stopped) {
      const output = await this.shards.read(shardId, iterator);
      if (!output) return true;
      const records = output.Records ?? [];
      if (records.length > 0) {
        if (!(await this.deliver(streamArn, shardId, records))) return false;
        this.checkpoints.setPosition(shardId, sequenceNumberOf(records.at(-1)!));
      }
      iterator = output.NextShardIterator;
      if (!iterator) {
        this.checkpoints.markDone(shardId);
        this.shards.dropIterator(shardId);
        this.shards.describeAgain(); // its children may not be listed yet
        return true;
      }
      this.shards.keepIterator(shardId, iterator);
      if (records.length === 0) return true;
    }
    return true;
  }

  /** Hands the records the filter matches to the handler. False when one failed: the shard resumes from it later. */
  private async deliver(streamArn: string, shardId: string, records: StreamSdkRecord[]): Promise<boolean> {
    const matching = records
      .map((record) => toLambdaRecord(record, streamArn))
      .filter((record) => matchesFilterPattern(this.options.filter, record));
    if (matching.length === 0) return true;
    const failedAt = await this.firstFailure(matching);
    if (failedAt === undefined) return true;
    // Keep the position just before the failed record; the next pass starts from it.
    const before = records.findIndex((record) => record.dynamodb?.SequenceNumber === failedAt);
    if (before > 0) this.checkpoints.setPosition(shardId, sequenceNumberOf(records[before - 1]!));
    this.shards.dropIterator(shardId);
    return false;
  }

  /** The sequence number of the first record the handler failed (all of them when it threw). */
  private async firstFailure(matching: DynamoDBRecord[]): Promise<string | undefined> {
    try {
      return (await this.options.handle({ Records: matching })).batchItemFailures[0]?.itemIdentifier;
    } catch (error) {
      this.options.onError?.(error);
      return sequenceNumberOf(matching[0]!);
    }
  }
}
