/**
 * Scale: the history page of the same account with 1,000 vs 50,000 payments in the table. DynamoDB Local itself
 * answers the same Query more slowly in a larger table (its in-memory store is not DynamoDB's partitions), so the raw
 * latency ratio measures DynamoDB Local; what is ours is the endpoint's ratio over its floor at each size — the same
 * DynamoDB requests replayed against the same table (docs/performance.md "Scale"). Both comparisons are the endpoint
 * rows' (bench/compare.ts, c=1, the sides taking turns); the capacity read must not grow either. Stops the runtime on
 * the large table when done.
 */
import { capture } from '../capture.ts';
import { type Comparison, compare } from '../compare.ts';
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { floorTemplate, runFloor } from '../floor.ts';
import { httpOp, measured } from '../load.ts';
import type { Child } from '../processes.ts';
import { stopChild } from '../processes.ts';
import { log } from '../progress.ts';
import { history } from '../requests.ts';
import * as stats from '../stats.ts';

/** The history page against its floor on the table `server` serves (the floor replays that table's requests). */
async function againstFloor(ctx: BenchContext, server: Child, tag: string) {
  const make = () => history(ctx.keys.history);
  // Each table has its own runtime process: the small one served the seeding, the large one only the warm-up, and a
  // colder JIT alone made the large table's page slower: in quick runs under load, its overhead over the floor was
  // 1.21–1.32 × the small table's after 0–60 warm-up requests, 0.95 × after 400.
  await drive(SIZES.scaleWarmup, 1, httpOp(server.port, make, 200, {}));
  const captured = await capture(server, make, 200, 3);
  const template = floorTemplate(captured.template);
  await runFloor(template, SIZES.floorWarmup, 4, `${tag}w`, make, captured.responseBytes);
  const runtime = measured.server;
  measured.server = server; // the CPU and DynamoDB time of this table's runtime
  try {
    const c1 = await compare({
      port: server.port,
      make,
      expected: 200,
      template,
      responseBytes: captured.responseBytes,
      concurrency: 1,
      perBlock: SIZES.scalePerBlock,
      tag,
    });
    return { captured, c1 };
  } finally {
    measured.server = runtime;
  }
}

const figures = (payments: number, m: { captured: { rcu: number; roundTrips: { max: number } }; c1: Comparison }) => ({
  payments,
  p50Ms: m.c1.endpoint.p50Ms,
  floorP50Ms: m.c1.floor.p50Ms,
  overheadP50: m.c1.p50Ratio,
  rcu: m.captured.rcu,
  roundTrips: m.captured.roundTrips.max,
});

export async function run(ctx: BenchContext): Promise<void> {
  const { small, large } = ctx;
  const { smallCount, largeCount } = ctx.seeded;
  ctx.phase(
    `Scale: history page with ${smallCount} vs ${largeCount} payments, each against its floor (${SIZES.blocks} blocks, c=1)`,
  );
  const atSmall = figures(smallCount, await againstFloor(ctx, small, 'scale-s'));
  const atLarge = figures(largeCount, await againstFloor(ctx, large, 'scale-l'));
  const overheadRatio = stats.ratio(atLarge.overheadP50.median, atSmall.overheadP50.median);
  const latencyRatioP50 = stats.ratio(atLarge.p50Ms, atSmall.p50Ms);
  const floorRatioP50 = stats.ratio(atLarge.floorP50Ms, atSmall.floorP50Ms);
  ctx.results.scale = { small: atSmall, large: atLarge, overheadRatio, latencyRatioP50, floorRatioP50 };
  ctx.later.scale = { overheadRatio, rcuSmall: atSmall.rcu, rcuLarge: atLarge.rcu };
  for (const f of [atSmall, atLarge])
    log(
      `  ${f.payments}: p50 ${f.p50Ms} ms, floor ${f.floorP50Ms} ms, overhead ${stats.formatSpread(f.overheadP50)}; ${f.rcu} RCU, ${f.roundTrips} round trips`,
    );
  log(
    `  ${largeCount} ÷ ${smallCount}: overhead ${overheadRatio}; latency ${latencyRatioP50}, of which DynamoDB Local's own (the floor) ${floorRatioP50}`,
  );
  await stopChild(large);
  ctx.children.splice(ctx.children.indexOf(large), 1);
}

/** The scale phase's budgets: pushed after the other phases', where the report has always listed them. */
export function pushBudgets(ctx: BenchContext): void {
  const { smallCount, largeCount } = ctx.seeded;
  const scale = ctx.later.scale!;
  ctx.budgets.push({
    name: `history overhead over its floor, ${largeCount} ÷ ${smallCount} payments`,
    value: scale.overheadRatio,
    comparator: '<=',
    limit: SCALE_OVERHEAD_BUDGET,
  });
  ctx.budgets.push({
    name: `history RCU at ${largeCount} minus at ${smallCount}`,
    value: scale.rcuLarge - scale.rcuSmall,
    comparator: '==',
    limit: 0,
    unit: 'RCU',
  });
}

/**
 * Our part of a history page must not grow with the table: its overhead over the floor (each the median of the
 * blocks, whose range is about ±0.04 in a run) at 50,000 payments ÷ at 1,000. The 1.1 allows the two medians' noise.
 */
const SCALE_OVERHEAD_BUDGET = 1.1;
