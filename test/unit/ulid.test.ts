import { decodeTime, isValid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { monotonicUlids, newUlid, pooledRandom } from '../../shared/ulid.ts';

describe('pooled randomness for ULIDs', () => {
  it('gives fractions in [0, 1) spread over all 32 characters a ULID can use', () => {
    // Prepare / Act: more draws than one pool holds, so the pool refills.
    const counts = new Array<number>(32).fill(0);
    for (let i = 0; i < 32 * 1000; i++) {
      const fraction = pooledRandom();
      expect(fraction).toBeGreaterThanOrEqual(0);
      expect(fraction).toBeLessThan(1);
      counts[Math.floor(fraction * 32)]!++;
    }
    // Assess: each character about 1,000 times (a fixed or stuck source would fail this by far).
    for (const count of counts) {
      expect(count).toBeGreaterThan(800);
      expect(count).toBeLessThan(1200);
    }
  });

  it('makes valid, distinct ULIDs carrying the current time', () => {
    const before = Date.now();
    const ids = Array.from({ length: 2000 }, newUlid);
    const after = Date.now();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(isValid(id)).toBe(true);
      expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
      expect(decodeTime(id)).toBeLessThanOrEqual(after);
    }
  });

  it('makes monotonic ULIDs that increase within one millisecond', () => {
    const next = monotonicUlids();
    const ids = Array.from({ length: 500 }, () => next());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
