/**
 * Scale: the history page of the same account with 1,000 vs 50,000 payments in the table. DynamoDB Local itself
 * answers the same Query more slowly in a larger table (its in-memory store is not DynamoDB's partitions), so the raw
 * latency ratio measures DynamoDB Local; what is ours is the endpoint's ratio over its floor at each size — the same
 * DynamoDB requests replayed against the same table (docs/performance.md "Scale"). Both comparisons are the endpoint
 * rows' (bench/compare.ts, c=1, the sides taking turns), in two rounds per table taken in the order small, large, large,
 * small; the capacity read must not grow either. One runtime process serves both tables (bench/server-child.ts
 * `useTable`), so both are measured with the same JIT; it reads the small table again when the phase ends.
 */
import { capture } from '../capture.ts';
import { type Comparison, compare } from '../compare.ts';
import { LARGE_TABLE, SIZES, SMALL_TABLE } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive } from '../drive.ts';
import { floorTemplate, runFloor } from '../floor.ts';
import { ask } from '../ipc.ts';
import { httpOp } from '../load.ts';
import { log } from '../progress.ts';
import { history } from '../requests.ts';
import * as stats from '../stats.ts';

/** A table's page captured, and the floor warmed on that capture. */
type Prepared = Awaited<ReturnType<typeof prepare>>;

const useTable = (ctx: BenchContext, table: string) => ask(ctx.small.child, { type: 'useTable', table });

async function prepare(ctx: BenchContext, table: string, tag: string) {
  const make = () => history(ctx.keys.history);
  await useTable(ctx, table);
  const captured = await capture(ctx.small, make, 200, 3);
  const template = floorTemplate(captured.template);
  await runFloor(template, SIZES.floorWarmup, 4, `${tag}w`, make, captured.responseBytes);
  return { table, make, captured, template, tag };
}

/**
 * One round of interleaved blocks of the history page against its floor on `side.table`, both sides warmed again
 * first when the table changed: a round's first blocks after the other table's round were the slowest of the run. A
 * round that follows its own table's (the second large one) goes on from where that one left off.
 */
async function round(ctx: BenchContext, side: Prepared, name: string, tableChanged = true): Promise<Comparison> {
  await useTable(ctx, side.table);
  if (tableChanged) {
    await drive(SIZES.scaleRewarm, 1, httpOp(ctx.small.port, side.make, 200, {}));
    await runFloor(side.template, SIZES.floorWarmup, 1, `${side.tag}${name}w`, side.make, side.captured.responseBytes);
  }
  return compare({
    port: ctx.small.port,
    make: side.make,
    expected: 200,
    template: side.template,
    responseBytes: side.captured.responseBytes,
    concurrency: 1,
    perBlock: SIZES.scalePerBlock,
    blocks: SIZES.scaleBlocksPerRound,
    tag: `${side.tag}${name}`,
  });
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

/** The four rounds, small, large, large, small: DynamoDB Local's latency falls through the phase. */
async function rounds(ctx: BenchContext) {
  // The runtime's JIT for a history page, once: both tables are read by this process.
  await drive(
    SIZES.scaleWarmup,
    1,
    httpOp(ctx.small.port, () => history(ctx.keys.history), 200, {}),
  );
  const s = await prepare(ctx, SMALL_TABLE, 'scale-s');
  const l = await prepare(ctx, LARGE_TABLE, 'scale-l');
  // The table measured first had the lower overhead over its floor; this order gives each table an early and a late
  // round.
  const s1 = await round(ctx, s, 'a');
  const l1 = await round(ctx, l, 'a');
  const l2 = await round(ctx, l, 'b', false);
  const s2 = await round(ctx, s, 'b');
  return { s, l, small: [s1, s2], large: [l1, l2] };
}

export async function run(ctx: BenchContext): Promise<void> {
  const { smallCount, largeCount } = ctx.seeded;
  ctx.phase(
    `Scale: history page with ${smallCount} vs ${largeCount} payments, each against its floor (2 × ${SIZES.scaleBlocksPerRound} blocks, c=1)`,
  );
  const measured = await rounds(ctx).finally(() => useTable(ctx, SMALL_TABLE));
  const atSmall = figures(smallCount, measured.s, measured.small);
  const atLarge = figures(largeCount, measured.l, measured.large);
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
