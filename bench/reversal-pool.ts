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
