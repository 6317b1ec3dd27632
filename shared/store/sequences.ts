/**
 * Per-account integer ids, handed out from blocks of BLOCK_SIZE ids that a process reserves from the
 * account's sequence item. A request that finds no id at hand reads the sequence item in its one read
 * and advances it by a whole block in its one transaction (on condition it still holds the value read);
 * once that commits, the rest of the block serves the process's next requests without touching the
 * sequence. So writes stay one read plus one transaction, and concurrent writes of one account contend on
 * the sequence only when two of them refill at the same moment (once per BLOCK_SIZE ids per process).
 * A request refills ahead, while it leaves fewer than REFILL_AHEAD ids in its process but still takes one
 * of them, so that the process's concurrent requests keep taking ids while the refill commits instead of
 * waiting for it (docs/data-design.md "Why it is shaped this way").
 * Ids are unique (blocks are disjoint; payments and clients are also keyed by id with
 * `attribute_not_exists`) and increase within a process; across processes they interleave, and ids of a
 * block a process never used are skipped.
 */

import { itemOf } from './batch.ts';
import type { Item } from './items.ts';
import { type Key, keys, type SequenceName } from './keys.ts';
import { ReadAgain, type TransactItem } from './write-executor.ts';

export const BLOCK_SIZE = 25;
/** A request that leaves fewer ids than this in its process also refills (the local runtime serves 8 at once). */
export const REFILL_AHEAD = 8;

interface Block {
  next: number;
  last: number;
}

/** Reserved, unused ids of this process, per `companyId#name`, oldest block first. */
const reserved = new Map<string, Block[]>();

function takeReserved(id: string): number | undefined {
  const queue = reserved.get(id);
  while (queue && queue.length > 0) {
    const block = queue[0]!;
    if (block.next <= block.last) return block.next++;
    queue.shift();
  }
  return undefined;
}

/** Ids this process still holds for `id`. */
function reservedCount(id: string): number {
  return (reserved.get(id) ?? []).reduce((n, block) => n + Math.max(0, block.last - block.next + 1), 0);
}

export interface IdClaim {
  id: number;
  /** The transaction action that reserves the id's block, when the id comes from a refill. */
  action?: ReturnType<typeof advanceSequence>;
}

/** Refills in flight in this process, per sequence: other requests wait for them instead of racing. */
const refilling = new Map<string, Promise<void>>();

/** The id one request needs from one sequence, across the attempts of its write. */
export class IdAllocator {
  private readonly blockId: string;
  private readonly sequenceKey: Key;
  /** An id taken from a reserved block: valid whatever happens to an attempt, so kept across attempts. */
  private kept: number | undefined;
  /** Whether `kept` went into a transaction (then it is never handed out again). */
  private written = false;
  /** This attempt's refill (this request read the sequence for its process), until it is settled. */
  private refill: { block: Block | undefined; done: () => void } | undefined;

  constructor(
    private readonly tableName: string,
    private readonly companyId: number,
    private readonly name: SequenceName,
  ) {
    this.blockId = `${companyId}#${name}`;
    this.sequenceKey = keys.sequence(companyId, name);
  }

  /**
   * What this attempt's read must include. A reserved id is taken now (so concurrent requests never
   * find the last ones gone after their read). One request per process reads the sequence to refill it:
   * the one that leaves fewer than REFILL_AHEAD ids (it keeps its reserved id), or, when none is left, the
   * first that finds none; the others wait for a refill only when no id is left.
   */
  async keysToRead(): Promise<Key[]> {
    for (;;) {
      this.kept ??= takeReserved(this.blockId);
      const inFlight = refilling.get(this.blockId);
      if (this.kept !== undefined) {
        if (inFlight || this.refill || reservedCount(this.blockId) >= REFILL_AHEAD) return [];
        break;
      }
      if (!inFlight) break;
      await inFlight;
    }
    if (!this.refill) {
      let done!: () => void;
      refilling.set(this.blockId, new Promise<void>((resolve) => (done = resolve)));
      this.refill = { block: undefined, done };
    }
    return [this.sequenceKey];
  }

  /**
   * The id for this attempt: the reserved one taken before the read, or the first id of the refilled block.
   * A refill alongside a reserved id puts its whole block in the pool.
   */
  claim(items: Map<string, Item>): IdClaim | undefined {
    const refill = this.refill;
    const current = refill ? Number(itemOf(items, this.sequenceKey)?.value ?? 0) : 0;
    const action = refill ? advanceSequence(this.tableName, this.companyId, this.name, current, BLOCK_SIZE) : undefined;
    if (this.kept !== undefined) {
      this.written = true;
      if (refill) refill.block = { next: current + 1, last: current + BLOCK_SIZE };
      return action ? { id: this.kept, action } : { id: this.kept };
    }
    if (!refill) return undefined;
    refill.block = { next: current + 2, last: current + BLOCK_SIZE };
    return { id: current + 1, action };
  }

  /**
   * Ends the request: a reserved id that never went into a transaction (a replay, a 404/409 outcome) goes
   * back to the process's pool. One that did is never reused, even if its transaction's outcome is unknown.
   */
  release(): void {
    if (this.kept !== undefined && !this.written) {
      reserved.set(this.blockId, [{ next: this.kept, last: this.kept }, ...(reserved.get(this.blockId) ?? [])]);
    }
    this.kept = undefined;
  }

  /** Ends an attempt: a committed refill makes the rest of its block available; either way waiters resume. */
  settle(committed: boolean): void {
    const refill = this.refill;
    if (!refill) return;
    this.refill = undefined;
    if (committed && refill.block) reserved.set(this.blockId, [...(reserved.get(this.blockId) ?? []), refill.block]);
    refilling.delete(this.blockId);
    refill.done();
  }
}

/** The id for this attempt; ReadAgain when the attempt's read lacked the sequence it needs. */
export function claimId(allocator: IdAllocator, items: Map<string, Item>): IdClaim {
  const claim = allocator.claim(items);
  if (!claim) throw new ReadAgain();
  return claim;
}

/** The sequence updates that reserve the blocks of the claimed ids (none when every id was at hand). */
export const sequenceActions = (claims: readonly IdClaim[]): TransactItem[] =>
  claims.flatMap((claim) => (claim.action ? [claim.action] : []));

/** A TransactWriteItems action advancing `name` from `current` to `current + count`. */
export function advanceSequence(
  tableName: string,
  companyId: number,
  name: SequenceName,
  current: number,
  count: number,
) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.sequence(companyId, name),
      UpdateExpression: 'SET #value = :next, entity = :entity',
      ConditionExpression: current === 0 ? 'attribute_not_exists(PK)' : '#value = :current',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: {
        ':next': current + count,
        ':entity': 'sequence',
        ...(current === 0 ? {} : { ':current': current }),
      },
    },
  };
}

/** Drops this process's reserved ids, as a new process (a new Lambda instance) would start. For tests. */
export function forgetIdBlocks(): void {
  reserved.clear();
}
