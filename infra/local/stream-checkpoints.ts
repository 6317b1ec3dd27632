/**
 * Where `npm start`'s stream poller is in each shard of the table's stream, kept in one JSON file under DATA_DIR
 * (written to a temporary file and renamed, so a crash leaves the old or the new file, never half of one). A
 * restart resumes after the last record handled; another stream (the table was recreated) starts from nothing.
 * Without its file, it starts from the earliest of the `legacyFiles` (the positions of pollers it replaces), so that
 * no record any of them had yet to handle is missed.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Checkpoints {
  streamArn: string;
  /** Per shard: the last sequence number handled, and whether the (closed) shard was read to its end. */
  shards: Record<string, { sequenceNumber?: string; done?: boolean }>;
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

/** Sequence numbers are decimal strings of any length: compare them as numbers. */
const earlier = (a: string, b: string): string => (BigInt(a) <= BigInt(b) ? a : b);

/**
 * The positions every one of `saved` has passed: per shard, the earliest position of those not done with it; a shard
 * one of them has no position in is read from its start (nothing of it is known to be handled by all).
 */
export function earliestOf(saved: readonly Checkpoints[]): Checkpoints['shards'] {
  const shards: Checkpoints['shards'] = {};
  for (const shardId of Object.keys(saved[0]?.shards ?? {})) {
    const each = saved.map((checkpoints) => checkpoints.shards[shardId]);
    const open = each.filter((shard) => shard?.done !== true);
    if (open.length === 0) shards[shardId] = { done: true };
    else if (open.every((shard) => shard?.sequenceNumber !== undefined))
      shards[shardId] = { sequenceNumber: open.map((shard) => shard!.sequenceNumber!).reduce(earlier) };
  }
  return shards;
}

export class StreamCheckpoints {
  private current: Checkpoints | undefined;

  constructor(
    private readonly file: string,
    private readonly legacyFiles: readonly string[] = [],
  ) {}

  /** Reads the positions of `streamArn` (none when the file holds another stream's). True when the stream changed. */
  useStream(streamArn: string): boolean {
    if (this.current?.streamArn === streamArn) return false;
    const saved = loadCheckpoints(this.file) ?? this.fromLegacyFiles(streamArn);
    this.current = saved?.streamArn === streamArn ? saved : { streamArn, shards: {} };
    return true;
  }

  private fromLegacyFiles(streamArn: string): Checkpoints | undefined {
    const saved = this.legacyFiles.map(loadCheckpoints);
    if (saved.length === 0 || saved.some((checkpoints) => checkpoints?.streamArn !== streamArn)) return undefined;
    return { streamArn, shards: earliestOf(saved as Checkpoints[]) };
  }

  /** Forgets shards the stream no longer lists (trimmed away). */
  keepOnly(live: ReadonlySet<string>): void {
    for (const shardId of Object.keys(this.shards)) if (!live.has(shardId)) delete this.shards[shardId];
  }

  isDone(shardId: string): boolean {
    return this.shards[shardId]?.done === true;
  }

  /** The last sequence number handled in the shard, if any. */
  position(shardId: string): string | undefined {
    return this.shards[shardId]?.sequenceNumber;
  }

  /** The position fell out of the stream's retention: the shard is read again from what is left. */
  forgetPosition(shardId: string): void {
    delete this.shards[shardId]?.sequenceNumber;
  }

  setPosition(shardId: string, sequenceNumber: string): void {
    this.shards[shardId] = { ...this.shards[shardId], sequenceNumber };
    saveCheckpoints(this.file, this.current!);
  }

  /** A closed shard read to its end: its children take over. */
  markDone(shardId: string): void {
    this.shards[shardId] = { ...this.shards[shardId], done: true };
    saveCheckpoints(this.file, this.current!);
  }

  private get shards(): Checkpoints['shards'] {
    return this.current!.shards;
  }
}
