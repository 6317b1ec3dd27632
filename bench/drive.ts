/** The load loop shared by the load generator (bench/main.ts) and the floor process (bench/floor-child.ts). */

export interface Run {
  samples: number[];
  elapsedMs: number;
  errors: number;
  statuses: Record<string, number>;
}

/** `count` operations, `concurrency` at a time; `op(i, worker)` resolves to its latency in ms. */
export async function drive(
  count: number,
  concurrency: number,
  op: (i: number, worker: number) => Promise<number>,
): Promise<Run> {
  const samples: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < count) {
        const i = next++;
        try {
          samples.push(await op(i, worker));
        } catch (error) {
          errors++;
          if (errors === 1) console.error(`  first error of this block: ${(error as Error).message.slice(0, 160)}`);
        }
      }
    }),
  );
  return { samples, elapsedMs: performance.now() - started, errors, statuses: {} };
}

/** `drive` for seeding, where every request must succeed: throws after the run if any failed. */
export async function driveEvery(
  count: number,
  concurrency: number,
  op: (i: number, worker: number) => Promise<number>,
): Promise<void> {
  const run = await drive(count, concurrency, op);
  if (run.errors > 0) throw new Error(`seeding: ${run.errors} of ${count} requests failed`);
}
