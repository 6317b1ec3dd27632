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
 * A request may claim several ids at once (`IdAllocator`'s count: a transfer paying several invoices in one
 * transaction), still with at most one update of the sequence in its transaction.
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
  /** The first of `ids` (a claim of one id has only it). */
  id: number;
  /** Every id claimed, in increasing order within what this process holds. */
  ids: number[];
  /** The transaction action that reserves the refilled block, when some id comes from a refill. */
  action?: ReturnType<typeof advanceSequence>;
}

/** Refills in flight in this process, per sequence: other requests wait for them instead of racing. */
const refilling = new Map<string, Promise<void>>();

/**
 * The ids one request needs from one sequence (`count`, one by default), across the attempts of its write. A request
 * that needs several (a transfer paying several invoices in one transaction) claims them together, so its
 * transaction updates the sequence item at most once (a transaction may not touch one item twice) and it never waits
 * for a refill of its own.
 */
export class IdAllocator {
  private readonly blockId: string;
  private readonly sequenceKey: Key;
  /** Ids taken from reserved blocks: valid whatever happens to an attempt, so kept across attempts. */
  private kept: number[] = [];
  /** Whether `kept` went into a transaction (then they are never handed out again). */
  private written = false;
  /** This attempt's refill (this request read the sequence for its process), until it is settled. */
  private refill: { block: Block | undefined; done: () => void } | undefined;

  constructor(
    private readonly tableName: string,
    private readonly companyId: number,
    private readonly name: SequenceName,
    private readonly count: number = 1,
  ) {
    if (!Number.isSafeInteger(count) || count < 1) throw new RangeError('an id claim takes at least one id');
    this.blockId = `${companyId}#${name}`;
    this.sequenceKey = keys.sequence(companyId, name);
  }

  /**
   * What this attempt's read must include. Reserved ids are taken now (so concurrent requests never find the last
   * ones gone after their read). One request per process reads the sequence to refill it: the one that leaves fewer
   * than REFILL_AHEAD ids (it keeps its reserved ids), or, when too few are left, the first that finds too few (it
   * keeps those it found and takes the rest from the refill); the others wait for a refill only when too few are left.
   */
  async keysToRead(): Promise<Key[]> {
    for (;;) {
      this.takeReserved();
      const inFlight = refilling.get(this.blockId);
      if (this.kept.length === this.count) {
        if (inFlight || this.refill || reservedCount(this.blockId) >= REFILL_AHEAD) return [];
        break;
      }
      if (!inFlight || this.refill) break;
      await inFlight;
    }
    if (!this.refill) {
      let done!: () => void;
      refilling.set(this.blockId, new Promise<void>((resolve) => (done = resolve)));
      this.refill = { block: undefined, done };
    }
    return [this.sequenceKey];
  }

  private takeReserved(): void {
    while (this.kept.length < this.count) {
      const id = takeReserved(this.blockId);
      if (id === undefined) return;
      this.kept.push(id);
    }
  }

  /**
   * The ids for this attempt: the reserved ones taken before the read, then the first ids of the refilled block. A
   * refill puts the rest of its block (at least BLOCK_SIZE ids in all) in the pool when it commits.
   */
  claim(items: Map<string, Item>): IdClaim | undefined {
    const refill = this.refill;
    const missing = this.count - this.kept.length;
    if (missing > 0 && !refill) return undefined;
    const current = refill ? Number(itemOf(items, this.sequenceKey)?.value ?? 0) : 0;
    const size = Math.max(BLOCK_SIZE, missing + 1);
    const action = refill ? advanceSequence(this.tableName, this.companyId, this.name, current, size) : undefined;
    const fresh = Array.from({ length: missing }, (_, i) => current + 1 + i);
    if (refill) refill.block = { next: current + missing + 1, last: current + size };
    if (this.kept.length > 0) this.written = true;
    const ids = [...this.kept, ...fresh];
    return action ? { id: ids[0]!, ids, action } : { id: ids[0]!, ids };
  }

  /**
   * Ends the request: reserved ids that never went into a transaction (a replay, a 404/409 outcome) go back to the
   * process's pool. Ones that did are never reused, even if their transaction's outcome is unknown.
   */
  release(): void {
    if (this.kept.length > 0 && !this.written) {
      const returned = this.kept.map((id) => ({ next: id, last: id }));
      reserved.set(this.blockId, [...returned, ...(reserved.get(this.blockId) ?? [])]);
    }
    this.kept = [];
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

/** The ids for this attempt; ReadAgain when the attempt's read lacked the sequence it needs. */
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
