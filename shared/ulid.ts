/**
 * ULIDs drawn from a pool of crypto randomness. ulid's default source asks the OS for one byte per
 * character (16 calls per id), which stood out in the write path's CPU profile (docs/performance.md
 * "What profiles found"); the pool asks once per 4,096 bytes.
 */
import { randomFillSync } from 'node:crypto';
import { monotonicFactory, ulid } from 'ulid';

const pool = new Uint8Array(4096);
let used = pool.length;

/** A uniform fraction in [0, 1) with 8 random bits: ulid takes one base-32 character (5 bits) from each. */
export function pooledRandom(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]! / 256;
}

/** A new ULID. */
export const newUlid = (): string => ulid(undefined, pooledRandom);

/** A generator of ULIDs that increase even within one millisecond (for ids that must sort in creation order). */
export const monotonicUlids = (): (() => string) => monotonicFactory(pooledRandom);
