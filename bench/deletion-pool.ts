/**
 * What the delete rows delete (bench/endpoint-defs.ts): each request voids an invoice or deletes a client never
 * deleted before. The rows that create such objects supply them: `add invoice (client_id)` makes unpaid invoices of
 * the writer's client and `add client` clients without invoices, the very requests seeding sent before, and their
 * answers are kept (`keep`, a reference pushed per answer: no parsing while a block is timed). Before a delete row
 * runs, the kept answers are read and the pool is topped up through the API to what the row will send (`ensure`,
 * never timed): with BENCH_ROWS, a delete row alone makes its whole pool that way.
 */
import { CONCURRENCY } from './config.ts';
import { driveEvery } from './drive.ts';

export interface DeletionPool<T> {
  /** Keeps a created object's answer, read later (the load generator calls it for each answer of the supplying row). */
  keep(body: string): void;
  /** Reads the kept answers, then creates through the API what is missing for `count` more takes (never timed). */
  ensure(count: number): Promise<void>;
  /** The next object, each once; fails loudly when the row takes more than `ensure` provided. */
  take(): T;
}

/**
 * A pool of objects to delete: `read` gets one from a kept answer, `create` makes one through the API (its latency
 * in ms and the object), `what` names them in the error of an empty pool.
 */
export function deletionPool<T>(
  what: string,
  read: (body: string) => T,
  create: () => Promise<{ ms: number; made: T }>,
): DeletionPool<T> {
  let kept: string[] = [];
  const items: T[] = [];
  let next = 0;
  return {
    keep: (body) => void kept.push(body),
    async ensure(count) {
      for (const body of kept) items.push(read(body));
      kept = [];
      const missing = count - (items.length - next);
      if (missing <= 0) return;
      await driveEvery(missing, CONCURRENCY, async () => {
        const { ms, made } = await create();
        items.push(made);
        return ms;
      });
    },
    take() {
      if (next >= items.length) throw new Error(`the bench has no more ${what}: all ${items.length} deleted`);
      return items[next++]!;
    },
  };
}
