/**
 * Scale: the history page of the same account with 1,000 vs 50,000 payments in the table. DynamoDB Local itself
 * answers the same Query more slowly in a larger table (its in-memory store is not DynamoDB's partitions), so the raw
 * latency ratio measures DynamoDB Local; what is ours is the endpoint's ratio over its floor at each size — the same
 * DynamoDB requests replayed against the same table (docs/performance.md "Scale"). Both comparisons are the endpoint
 * rows' (bench/compare.ts, c=1, the sides taking turns), in two rounds per table taken in the order small, large, large,
 * small; the capacity read must not grow either. Stops the runtime on the large table when done.
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

/** A table's runtime ready to be measured: warmed, its page captured, the floor warmed on that capture. */
type Prepared = Awaited<ReturnType<typeof prepare>>;

async function prepare(ctx: BenchContext, server: Child, tag: string) {
  const make = () => history(ctx.keys.history);
  // Each table has its own runtime process: the small one served the seeding, the large one only the warm-up, and a
  // colder JIT alone made the large table's page slower: in quick runs under load, its overhead over the floor was
  // 1.21–1.32 × the small table's after 0–60 warm-up requests, 0.95 × after 400.
  await drive(SIZES.scaleWarmup, 1, httpOp(server.port, make, 200, {}));
  const captured = await capture(server, make, 200, 3);
  const template = floorTemplate(captured.template);
  await runFloor(template, SIZES.floorWarmup, 4, `${tag}w`, make, captured.responseBytes);
  return { server, make, captured, template, tag };
}

/**
 * One round of interleaved blocks of the history page against its floor on the table `side.server` serves, both
 * sides warmed again first: a round's first blocks after the other table's round were the slowest of the run.
 */
async function round(side: Prepared, name: string): Promise<Comparison> {
  await drive(SIZES.scaleRewarm, 1, httpOp(side.server.port, side.make, 200, {}));
  await runFloor(side.template, SIZES.floorWarmup, 1, `${side.tag}${name}w`, side.make, side.captured.responseBytes);
  const runtime = measured.server;
  measured.server = side.server; // the CPU and DynamoDB time of this table's runtime
  try {
    return await compare({
      port: side.server.port,
      make: side.make,
      expected: 200,
      template: side.template,
      responseBytes: side.captured.responseBytes,
      concurrency: 1,
      perBlock: SIZES.scalePerBlock,
      tag: `${side.tag}${name}`,
    });
  } finally {
    measured.server = runtime;
  }
}

/** A table's figures over its two rounds' blocks (each a median of the blocks, as in the endpoint rows). */
const figures = (payments: number, side: Prepared, rounds: Comparison[]) => {
  const blocks = rounds.flatMap((r) => r.blocks);
  return {
    payments,
    p50Ms: stats.spreadOf(
      blocks.map((b) => b.endpoint.p50),
      2,
    ).median,
    floorP50Ms: stats.spreadOf(
      blocks.map((b) => b.floor.p50),
      2,
    ).median,
    overheadP50: stats.spreadOf(blocks.map((b) => b.pair.p50Ratio)),
    rcu: side.captured.rcu,
    roundTrips: side.captured.roundTrips.max,
  };
};

export async function run(ctx: BenchContext): Promise<void> {
  const { small, large } = ctx;
  const { smallCount, largeCount } = ctx.seeded;
  ctx.phase(
    `Scale: history page with ${smallCount} vs ${largeCount} payments, each against its floor (2 × ${SIZES.blocks} blocks, c=1)`,
  );
  const s = await prepare(ctx, small, 'scale-s');
  const l = await prepare(ctx, large, 'scale-l');
  // In the order small, large, large, small: DynamoDB Local's latency falls through the phase, and the table
  // measured first had the lower overhead over its floor; this order gives each table an early and a late round.
  const s1 = await round(s, 'a');
  const l1 = await round(l, 'a');
  const l2 = await round(l, 'b');
  const s2 = await round(s, 'b');
  const atSmall = figures(smallCount, s, [s1, s2]);
  const atLarge = figures(largeCount, l, [l1, l2]);
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
 * Our part of a history page must not grow with the table: its overhead over the floor (each the median of its two
 * rounds' blocks, whose range is about ±0.1 in a run) at 50,000 payments ÷ at 1,000. The 1.1 allows the two medians'
 * noise.
 */
const SCALE_OVERHEAD_BUDGET = 1.1;
