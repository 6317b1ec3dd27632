/** Id blocks in one process (shared/store/sequences.ts), without DynamoDB: what each request reads and claims. */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { keyId } from '../../shared/store/batch.ts';
import type { Item } from '../../shared/store/items.ts';
import { keys } from '../../shared/store/keys.ts';
import { BLOCK_SIZE, forgetIdBlocks, IdAllocator, REFILL_AHEAD } from '../../shared/store/sequences.ts';

const COMPANY = 424_242;
const sequenceKey = keys.sequence(COMPANY, 'payment');
/** What the request's read returned for the sequence item. */
const readSequence = (value: number): Map<string, Item> =>
  new Map([[keyId(sequenceKey), { ...sequenceKey, value } as Item]]);
const allocator = (count = 1) => new IdAllocator('table', COMPANY, 'payment', count);

/** Resolves to 'waited' if `promise` is still pending after 100 ms. */
const withoutWaiting = <T>(promise: Promise<T>) =>
  Promise.race([promise, new Promise<'waited'>((r) => setTimeout(() => r('waited'), 100))]);

/** One request that takes a reserved id and commits (no refill expected). */
async function takeOne(): Promise<number> {
  const request = allocator();
  expect(await request.keysToRead()).toEqual([]);
  const claim = request.claim(new Map())!;
  expect(claim.action).toBeUndefined();
  request.settle(true);
  request.release();
  return claim.id;
}

describe('id blocks in one process', () => {
  afterEach(() => forgetIdBlocks());

  it('refills ahead: the request that leaves fewer than REFILL_AHEAD ids reads the sequence, and the others keep taking ids meanwhile', async () => {
    // Prepare: the first request finds no id and refills (the sequence held 0).
    const first = allocator();
    expect(await first.keysToRead()).toEqual([sequenceKey]);
    expect(first.claim(readSequence(0))).toMatchObject({ id: 1, action: { Update: { Key: sequenceKey } } });
    first.settle(true);
    first.release();
    const ids = [1];
    while (ids.length < BLOCK_SIZE - REFILL_AHEAD) ids.push(await takeOne());

    // Act: the next request leaves REFILL_AHEAD - 1 ids, so it refills while keeping its own id …
    const refiller = allocator();
    expect(await refiller.keysToRead()).toEqual([sequenceKey]);
    // … and while its refill is in flight, the process's other requests take the remaining ids without waiting.
    const others = Array.from({ length: REFILL_AHEAD - 1 }, allocator);
    const reads = await Promise.all(others.map((other) => withoutWaiting(other.keysToRead())));
    const claim = refiller.claim(readSequence(BLOCK_SIZE))!;
    refiller.settle(true);
    refiller.release();

    // Assess
    expect(reads).toEqual(others.map(() => []));
    expect(claim.id).toBe(BLOCK_SIZE - REFILL_AHEAD + 1);
    expect(claim.action?.Update.ExpressionAttributeValues).toMatchObject({
      ':current': BLOCK_SIZE,
      ':next': 2 * BLOCK_SIZE,
    });
    const othersIds = others.map((other) => other.claim(new Map())!.id);
    expect(othersIds).toEqual(Array.from({ length: REFILL_AHEAD - 1 }, (_, i) => claim.id + 1 + i));
    // The refilled block follows: ids keep increasing, with no read of the sequence.
    expect(await takeOne()).toBe(BLOCK_SIZE + 1);
  });

  it('makes a request wait for the refill in flight only when no id is left', async () => {
    // Prepare: one request is refilling and the process holds no id.
    const refiller = allocator();
    expect(await refiller.keysToRead()).toEqual([sequenceKey]);
    // Act
    const waiting = allocator().keysToRead();
    const before = await withoutWaiting(waiting);
    refiller.claim(readSequence(0));
    refiller.settle(true);
    // Assess: it waited, then took the refilled block's next id without reading the sequence.
    expect(before).toBe('waited');
    expect(await waiting).toEqual([]);
  });

  it('a refill that did not commit is attempted again by the same request', async () => {
    const first = allocator();
    await first.keysToRead();
    first.claim(readSequence(0));
    first.settle(false); // e.g. another process advanced the sequence first
    expect(await first.keysToRead()).toEqual([sequenceKey]);
    expect(first.claim(readSequence(BLOCK_SIZE))).toMatchObject({ id: BLOCK_SIZE + 1 });
    first.settle(true);
    first.release();
  });

  it('a claim of several ids takes what the process holds and the rest from one refill: one sequence update', async () => {
    // Prepare: the first refill leaves ids 2..25 in the process.
    const first = allocator();
    await first.keysToRead();
    first.claim(readSequence(0));
    first.settle(true);
    first.release();

    // Act: twenty ids leave four, so the request refills ahead while keeping its twenty.
    const twenty = allocator(20);
    expect(await twenty.keysToRead()).toEqual([sequenceKey]);
    const claimed = twenty.claim(readSequence(BLOCK_SIZE))!;
    twenty.settle(true);
    twenty.release();
    // Ten more cross from the first block into the refilled one, without reading the sequence.
    const ten = allocator(10);
    expect(await ten.keysToRead()).toEqual([]);
    const crossing = ten.claim(new Map())!;
    ten.settle(true);
    ten.release();

    // Assess
    expect(claimed.ids).toEqual(Array.from({ length: 20 }, (_, i) => 2 + i));
    expect(claimed.action?.Update.ExpressionAttributeValues).toMatchObject({ ':current': BLOCK_SIZE, ':next': 50 });
    expect(crossing).toEqual({ id: 22, ids: Array.from({ length: 10 }, (_, i) => 22 + i) });
  });

  it('a claim of more ids than a block holds advances the sequence past all of them at once', async () => {
    const many = allocator(BLOCK_SIZE + 5);
    expect(await many.keysToRead()).toEqual([sequenceKey]);
    const claim = many.claim(readSequence(0))!;
    many.settle(true);
    many.release();
    expect(claim.ids).toEqual(Array.from({ length: BLOCK_SIZE + 5 }, (_, i) => 1 + i));
    expect(claim.action?.Update.ExpressionAttributeValues).toMatchObject({ ':next': BLOCK_SIZE + 6 });
    // The one id left is the next request's (which, leaving none, refills ahead).
    const next = allocator();
    expect(await next.keysToRead()).toEqual([sequenceKey]);
    expect(next.claim(readSequence(BLOCK_SIZE + 6))).toMatchObject({ id: BLOCK_SIZE + 6 });
    next.settle(true);
    next.release();
  });

  it('claims of any sizes, committed or not, hand out each id at most once and never one the sequence has not passed', async () => {
    const request = fc.record({ count: fc.integer({ min: 1, max: 12 }), commits: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 40 }), async (requests) => {
        forgetIdBlocks();
        let sequence = 0;
        const handedOut: number[] = [];
        for (const { count, commits } of requests) {
          const ids = allocator(count);
          await ids.keysToRead();
          const claim = ids.claim(readSequence(sequence))!;
          if (commits && claim.action) sequence = claim.action.Update.ExpressionAttributeValues[':next'];
          ids.settle(commits);
          ids.release();
          expect(claim.ids).toHaveLength(count);
          // What a commit kept is taken for good; a claim whose refill did not commit hands out nothing.
          if (commits) handedOut.push(...claim.ids);
        }
        expect(new Set(handedOut).size).toBe(handedOut.length);
        expect(Math.max(...handedOut, 0)).toBeLessThanOrEqual(sequence);
      }),
    );
  });
});
