import { CONCURRENCY } from './config.ts';

/**
 * Invoices of the pool: a few more than the load generator's workers, so that every take chooses among several free
 * invoices and the payments are used evenly. With as many invoices as workers, each worker got back the invoice it had
 * just released, workers do not serve equal shares of a block, and the pool needed half as many payments again.
 */
export const REVERSAL_INVOICES = CONCURRENCY + 4;

/**
 * Payments per invoice for `needed` reversals: an even share and a margin of 8 (test/bench/stats.test.ts draws the
 * order in which the workers come back; 2 already sufficed in 299 of 300 such runs).
 */
export const reversalsPerInvoice = (needed: number): number => Math.ceil(needed / REVERSAL_INVOICES) + 8;

/**
 * Hands out the seeded payments of the reverse-payment row (bench/seeding.ts `seedReversals`): a fresh, never-reversed
 * payment for every request, and concurrent requests on different invoices. Concurrent reversals on one invoice
 * conflict by design (the invoice header's version), so they would measure retries, not a reversal.
 *
 * A load-generator worker sends its next request only once its previous one was answered (bench/drive.ts), so when
 * `take(i, worker)` is called, the invoices in flight are at most those last given to the other workers. Each call
 * releases the caller's previous invoice and takes the next payment of a free invoice, the one with the most
 * payments left (so the invoices are used in turn). Index 0 starts a new run of `drive`: every hold is dropped
 * (workers of an earlier block are done). Pure apart from its own state (unit-tested in test/bench).
 */
export function reversalPicker(pool: readonly (readonly number[])[]): (i: number, worker: number) => number {
  const queues = pool.map((ids) => [...ids]);
  /** The invoice each worker was last given. */
  const held = new Map<number, number>();
  let turn = 0;
  return (i, worker) => {
    if (i === 0) held.clear();
    held.delete(worker);
    const busy = new Set(held.values());
    let best = -1;
    for (let k = 0; k < queues.length; k++) {
      const q = (turn + k) % queues.length;
      if (busy.has(q) || queues[q]!.length === 0) continue;
      if (best === -1 || queues[q]!.length > queues[best]!.length) best = q;
    }
    if (best === -1)
      throw new Error(
        `reversal pool exhausted (${queues.reduce((n, q) => n + q.length, 0)} payments left on invoices in use): seed more (bench/seeding.ts reversalsNeeded)`,
      );
    turn = best + 1;
    held.set(worker, best);
    return queues[best]!.shift()!;
  };
}
