/**
 * DynamoDB Local's table stream as `npm start`'s poller reads it: the stream's current ARN and its shards (parents
 * before children), looked up again every few seconds or when a shard closes, one shard iterator per shard, and
 * one GetRecords call.
 */
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import { LOCAL_CREDENTIALS, localClient } from './dynamodb-local.ts';
import type { StreamCheckpoints } from './stream-checkpoints.ts';

export interface StreamLayout {
  streamArn: string | undefined;
  /** Every parent before its children. */
  shards: Shard[];
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

export class StreamShards {
  private readonly streams: DynamoDBStreamsClient;
  private readonly iterators = new Map<string, string>();
  private described: (StreamLayout & { at: number }) | undefined;

  constructor(
    private readonly endpoint: string,
    private readonly tableName: string,
    /** The stream and its shards change rarely (a table recreated, a shard rolled over). */
    private readonly describeEveryMs: number,
  ) {
    this.streams = new DynamoDBStreamsClient({
      endpoint,
      region: 'local',
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 2,
    });
  }

  /** The stream and its shards, as last looked up unless that is older than `describeEveryMs`. */
  async layout(): Promise<StreamLayout> {
    if (this.described && Date.now() - this.described.at < this.describeEveryMs) return this.described;
    const streamArn = await this.currentStreamArn();
    const shards = streamArn ? parentsFirst(await this.listShards(streamArn)) : [];
    this.described = { at: Date.now(), streamArn, shards };
    return this.described;
  }

  /** The next `layout()` looks the stream up again (a shard closed and its children may not be listed yet). */
  describeAgain(): void {
    this.described = undefined;
  }

  /** The shard's iterator: the one kept from the last read, else after its checkpoint, else its oldest record. */
  async iterator(streamArn: string, shardId: string, checkpoints: StreamCheckpoints): Promise<string | undefined> {
    const known = this.iterators.get(shardId);
    if (known) return known;
    const after = checkpoints.position(shardId);
    try {
      return await this.shardIterator(streamArn, shardId, after);
    } catch (error) {
      if ((error as { name?: string }).name !== 'TrimmedDataAccessException' || !after) throw error;
      // The checkpoint fell out of the stream's retention: read what is left (deliveries are deduplicated).
      checkpoints.forgetPosition(shardId);
      return this.shardIterator(streamArn, shardId, undefined);
    }
  }

  /** One GetRecords; `undefined` when the iterator expired (the shard is read again from its checkpoint). */
  async read(shardId: string, iterator: string): Promise<GetRecordsCommandOutput | undefined> {
    try {
      return await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
    } catch (error) {
      this.iterators.delete(shardId);
      if ((error as { name?: string }).name === 'ExpiredIteratorException') return undefined;
      throw error;
    }
  }

  keepIterator(shardId: string, iterator: string): void {
    this.iterators.set(shardId, iterator);
  }

  dropIterator(shardId: string): void {
    this.iterators.delete(shardId);
  }

  dropIterators(): void {
    this.iterators.clear();
  }

  destroy(): void {
    this.streams.destroy();
  }

  private async shardIterator(streamArn: string, shardId: string, after: string | undefined) {
    const position = after
      ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER' as const, SequenceNumber: after }
      : { ShardIteratorType: 'TRIM_HORIZON' as const };
    const request = { StreamArn: streamArn, ShardId: shardId, ...position };
    return (await this.streams.send(new GetShardIteratorCommand(request))).ShardIterator;
  }

  private async currentStreamArn(): Promise<string | undefined> {
    const client = localClient(this.endpoint);
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: this.tableName }));
      return Table?.LatestStreamArn;
    } finally {
      client.destroy();
    }
  }

  private async listShards(streamArn: string): Promise<Shard[]> {
    const shards: Shard[] = [];
    let exclusiveStartShardId: string | undefined;
    do {
      const { StreamDescription } = await this.streams.send(
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
}
