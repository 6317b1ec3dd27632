/**
 * An endpoint against its floor in interleaved blocks (`compare`), what explains a ratio that has the endpoint
 * beating its floor (`explanation`), and with `BENCH_TAIL=1` which requests made a c=1 p99 (`slowestRequests`). The
 * per-block figures and verdicts are bench/stats.ts's (unit-tested).
 */
import { SIZES } from './config.ts';
import { clockTicksPerSecond } from './cpu.ts';
import { drive, type Run } from './drive.ts';
import { p99BeyondDynamoDbTail } from './dynamo-tail.ts';
import { prepareFloor, runFloorBlock, runFloorReplays } from './floor.ts';
import { ask } from './ipc.ts';
import { describeRun, httpOp, measured, measuredBlock, merge, snapshot } from './load.ts';
import type { Child } from './processes.ts';
import { log } from './progress.ts';
import type { ReplayTemplate } from './replay.ts';
import type { MakeRequest } from './requests.ts';
import type { PairFigures, SideFigures, Spread } from './stats.ts';
import * as stats from './stats.ts';

/** Requests per turn when the two sides of a block at concurrency 1 take turns (see `alternatingPair`). */
const TURN = 10;

/** One side of a block: its requests, its figures, and the DynamoDB time of each request (for the pooled p99s). */
type Side = { run: Run; figures: SideFigures; dynamoPerRequestMs: number[] };

/**
 * One block pair at concurrency 1 whose sides take turns every TURN requests (the endpoint first in even blocks),
 * so that both see the same moments of DynamoDB Local and of the machine. Each process's CPU and DynamoDB time
 * are its side's own; DynamoDB Local's and the load generator's CPU are shared, so each side is given half.
 */
async function alternatingPair(opts: {
  port: number;
  make: MakeRequest;
  floorMake: MakeRequest;
  expected: number;
  statuses: Record<string, number>;
  key: string;
  perBlock: number;
  endpointFirst: boolean;
}): Promise<{ endpoint: Side; floor: Side }> {
  const requestTimes = (child: Child) => ask<number[]>(child.child, { type: 'requestTimes' });
  await Promise.all([requestTimes(measured.server!), requestTimes(measured.floor!)]);
  const before = await snapshot();
  const endpointRuns: Run[] = [];
  const floorRuns: Run[] = [];
  for (let first = 0; first < opts.perBlock; first += TURN) {
    const count = Math.min(TURN, opts.perBlock - first);
    const endpointTurn = async () =>
      endpointRuns.push(
        await drive(
          count,
          1,
          httpOp(opts.port, (i, worker) => opts.make(first + i, worker), opts.expected, opts.statuses),
        ),
      );
    const floorTurn = async () => floorRuns.push(await runFloorReplays(opts.key, first, count, 1, opts.floorMake));
    const endpointNow = opts.endpointFirst === ((first / TURN) % 2 === 0);
    await (endpointNow ? endpointTurn : floorTurn)();
    await (endpointNow ? floorTurn : endpointTurn)();
  }
  const after = await snapshot();
  await ask(measured.floor!.child, { type: 'forget', key: opts.key });
  const cpu = stats.blockCpu(before, after, clockTicksPerSecond());
  const shared = { ...cpu, dynamoDbLocalMs: cpu.dynamoDbLocalMs / 2, loadGeneratorMs: cpu.loadGeneratorMs / 2 };
  const side = async (name: 'endpoint' | 'floor', runs: Run[], child: Child) => {
    const run = merge(runs);
    const dynamoPerRequestMs = await requestTimes(child);
    return {
      run,
      figures: stats.sideFigures(name, run.samples, run.elapsedMs, run.errors, shared, dynamoPerRequestMs),
      dynamoPerRequestMs,
    };
  };
  return {
    endpoint: await side('endpoint', endpointRuns, measured.server!),
    floor: await side('floor', floorRuns, measured.floor!),
  };
}

export interface Comparison {
  concurrency: number;
  blocks: { endpoint: SideFigures; floor: SideFigures; pair: PairFigures }[];
  p50Ratio: Spread;
  p99Ratio: Spread;
  /**
   * p99 of all blocks' requests pooled, endpoint ÷ floor: a block of 100 requests has no p99 of its own (its
   * nearest-rank p99 is its second slowest request), so the budget is judged on the pooled samples. The pooled
   * p99s of DynamoDB time per request too, and the ratio with their difference taken out (`p99BeyondDynamoDbTail`).
   */
  p99Pooled: {
    ratio: number;
    endpointMs: number;
    floorMs: number;
    endpointDynamoMs: number;
    floorDynamoMs: number;
    beyondDynamoDbTail: number;
  };
  throughputRatio: Spread;
  ourCpuMs: Spread;
  ourTimeMs: Spread;
  floorSlowerByMs: Spread;
  endpoint: ReturnType<typeof describeRun> & SideMedians;
  floor: ReturnType<typeof describeRun> & SideMedians;
}

/** The median over the blocks of each per-side figure the report explains itself with. */
type SideMedians = Pick<
  SideFigures,
  | 'processCpuMs'
  | 'dynamoMs'
  | 'dynamoP50Ms'
  | 'dynamoP99Ms'
  | 'dynamoDbLocalCpuMs'
  | 'loadGeneratorCpuMs'
  | 'foreignShare'
  | 'gcMs'
> & { p50Ms: number; p99Ms: number };
const sideMedians = (sides: SideFigures[]): SideMedians => {
  const median = (key: keyof SideFigures, digits: number) =>
    stats.spreadOf(
      sides.map((s) => s[key]),
      digits,
    ).median;
  return {
    p50Ms: median('p50', 2),
    p99Ms: median('p99', 2),
    processCpuMs: median('processCpuMs', 2),
    dynamoMs: median('dynamoMs', 2),
    dynamoP50Ms: median('dynamoP50Ms', 2),
    dynamoP99Ms: median('dynamoP99Ms', 2),
    dynamoDbLocalCpuMs: median('dynamoDbLocalCpuMs', 2),
    loadGeneratorCpuMs: median('loadGeneratorCpuMs', 2),
    foreignShare: median('foreignShare', 3),
    gcMs: median('gcMs', 2),
  };
};

interface CompareOptions {
  port: number;
  make: MakeRequest;
  /** The requests the floor is sent (their bodies and headers; the path is the replay's): `make` by default. */
  floorMake?: MakeRequest;
  expected: number;
  template: ReplayTemplate;
  /** Length of the endpoint's response: the floor answers as many bytes. */
  responseBytes: number;
  concurrency: number;
  perBlock: number;
  /** Pairs of blocks: `SIZES.blocks` unless given (the scale phase's rounds take fewer each). */
  blocks?: number;
  tag: string;
}

/**
 * Block pair `b`: at concurrency 1 the sides take turns (`alternatingPair`); otherwise one whole block each, the
 * endpoint first in even blocks.
 */
async function blockPair(
  opts: CompareOptions,
  b: number,
  statuses: Record<string, number>,
): Promise<{ e: Side; f: Side }> {
  const endpointBlock = () =>
    measuredBlock('endpoint', () =>
      drive(opts.perBlock, opts.concurrency, httpOp(opts.port, opts.make, opts.expected, statuses)),
    );
  const floorBlock = () =>
    measuredBlock('floor', () =>
      runFloorBlock(`${opts.tag}${b}`, opts.concurrency, opts.perBlock, opts.floorMake ?? opts.make),
    );
  let e: Side;
  let f: Side;
  if (opts.concurrency === 1) {
    ({ endpoint: e, floor: f } = await alternatingPair({
      port: opts.port,
      make: opts.make,
      floorMake: opts.floorMake ?? opts.make,
      expected: opts.expected,
      statuses,
      key: `${opts.tag}${b}`,
      perBlock: opts.perBlock,
      endpointFirst: b % 2 === 0,
    }));
  } else if (b % 2 === 0) {
    e = await endpointBlock();
    f = await floorBlock();
  } else {
    f = await floorBlock();
    e = await endpointBlock();
  }
  return { e, f };
}

/** The p99s of all blocks' requests of each side, and of their DynamoDB times (`Comparison.p99Pooled`). */
function pooledP99(endpointRuns: Run[], floorRuns: Run[], endpointDynamo: number[], floorDynamo: number[]) {
  const p99Of = (samples: readonly number[]) => stats.round(stats.percentile(samples, 99));
  const pooled = {
    endpointMs: p99Of(merge(endpointRuns).samples),
    floorMs: p99Of(merge(floorRuns).samples),
    endpointDynamoMs: p99Of(endpointDynamo),
    floorDynamoMs: p99Of(floorDynamo),
  };
  return {
    ...pooled,
    ratio: stats.ratio(pooled.endpointMs, pooled.floorMs),
    beyondDynamoDbTail: p99BeyondDynamoDbTail(pooled),
  };
}

/**
 * `blocks` pairs of blocks: the endpoint through HTTP and its floor (the same DynamoDB requests from the floor
 * process), alternating which goes first, each block's replays prepared (seeded) before either is timed.
 */
export async function compare(opts: CompareOptions): Promise<Comparison & { statuses: Record<string, number> }> {
  const statuses: Record<string, number> = {};
  const endpointRuns: Run[] = [];
  const floorRuns: Run[] = [];
  const endpointDynamo: number[] = [];
  const floorDynamo: number[] = [];
  const blocks: Comparison['blocks'] = [];
  const pairCount = opts.blocks ?? SIZES.blocks;
  // Every block's floor state is written before the first block is timed: no seeding between timed blocks.
  for (let b = 0; b < pairCount; b++)
    await prepareFloor(`${opts.tag}${b}`, opts.template, opts.perBlock, opts.responseBytes);
  for (let b = 0; b < pairCount; b++) {
    const { e, f } = await blockPair(opts, b, statuses);
    endpointRuns.push(e.run);
    floorRuns.push(f.run);
    endpointDynamo.push(...e.dynamoPerRequestMs);
    floorDynamo.push(...f.dynamoPerRequestMs);
    blocks.push({ endpoint: e.figures, floor: f.figures, pair: stats.pairFigures(e.figures, f.figures) });
  }
  const pairs = blocks.map((b) => b.pair);
  if (process.env.BENCH_TAIL === '1' && opts.concurrency === 1)
    logSlowest([merge(endpointRuns).samples, endpointDynamo], [merge(floorRuns).samples, floorDynamo]);
  return {
    p99Pooled: pooledP99(endpointRuns, floorRuns, endpointDynamo, floorDynamo),
    concurrency: opts.concurrency,
    statuses,
    blocks,
    p50Ratio: stats.spreadOf(pairs.map((p) => p.p50Ratio)),
    p99Ratio: stats.spreadOf(pairs.map((p) => p.p99Ratio)),
    throughputRatio: stats.spreadOf(pairs.map((p) => p.throughputRatio)),
    ourCpuMs: stats.spreadOf(
      pairs.map((p) => p.ourCpuMs),
      2,
    ),
    ourTimeMs: stats.spreadOf(
      pairs.map((p) => p.ourTimeMs),
      2,
    ),
    floorSlowerByMs: stats.spreadOf(
      pairs.map((p) => p.floorSlowerByMs),
      2,
    ),
    endpoint: { ...describeRun({ ...merge(endpointRuns), statuses }), ...sideMedians(blocks.map((b) => b.endpoint)) },
    floor: { ...describeRun(merge(floorRuns)), ...sideMedians(blocks.map((b) => b.floor)) },
  };
}

/**
 * The measurements that explain a comparison, and a verdict on every ratio that has the endpoint beating its floor:
 * at c=1 a p50 or p99 under 1 (judged at that percentile of the DynamoDB time measured inside each process), at c=8
 * a throughput over 1 (judged on the means) or a p99 under 1.
 */
export function explanation(c: Comparison): { line: string; verdicts: string[] } {
  const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
  const line =
    `our time ${c.ourTimeMs.median} ms/request (outside DynamoDB: endpoint mean ${c.endpoint.mean} − ${c.endpoint.dynamoMs}, floor mean ${c.floor.mean} − ${c.floor.dynamoMs}); ` +
    `DynamoDB slower for the floor by ${c.floorSlowerByMs.median} ms; ` +
    `DynamoDB per request p50 ${c.endpoint.dynamoP50Ms} vs ${c.floor.dynamoP50Ms} ms, p99 ${c.endpoint.dynamoP99Ms} vs ${c.floor.dynamoP99Ms} ms; ` +
    `DynamoDB Local CPU ${c.endpoint.dynamoDbLocalCpuMs} vs ${c.floor.dynamoDbLocalCpuMs} ms/request; ` +
    `GC pauses ${c.endpoint.gcMs} vs ${c.floor.gcMs} ms/request; ` +
    `other processes ${pct(c.endpoint.foreignShare)} vs ${pct(c.floor.foreignShare)} of the machine`;
  const verdicts: string[] = [];
  const verdict = (explained: boolean) => (explained ? 'explained' : 'UNEXPLAINED');
  const percentileVerdict = (name: 'p50' | 'p99') => {
    const [endpointMs, floorMs] =
      name === 'p50' ? [c.endpoint.p50Ms, c.floor.p50Ms] : [c.endpoint.p99Ms, c.floor.p99Ms];
    const [endpointDynamoMs, floorDynamoMs] =
      name === 'p50' ? [c.endpoint.dynamoP50Ms, c.floor.dynamoP50Ms] : [c.endpoint.dynamoP99Ms, c.floor.dynamoP99Ms];
    const explained =
      stats.explainLatencyBelowFloor({ endpointMs, floorMs, endpointDynamoMs, floorDynamoMs }) === 'explained';
    verdicts.push(
      `${name} under the floor's: ${verdict(explained)} (DynamoDB ${name} slower for the floor by ${stats.round(floorDynamoMs - endpointDynamoMs)} ms, endpoint ${name} shorter by ${stats.round(floorMs - endpointMs)} ms, medians of the blocks)`,
    );
  };
  if (c.concurrency === 1 && c.p50Ratio.median < 1) percentileVerdict('p50');
  if (c.p99Ratio.median < 1) percentileVerdict('p99');
  if (c.concurrency > 1 && c.throughputRatio.median > 1) {
    const explained =
      stats.explainFasterThanFloor({ ourTimeMs: c.ourTimeMs.median, floorSlowerByMs: c.floorSlowerByMs.median }) ===
      'explained';
    verdicts.push(
      `throughput over the floor's: ${verdict(explained)} (DynamoDB slower for the floor by ${c.floorSlowerByMs.median} ms per request on average, our time ${c.ourTimeMs.median} ms)`,
    );
  }
  return { line, verdicts };
}

// The slowest requests of one side of a c=1 comparison, each split into its DynamoDB time and the rest
// (`BENCH_TAIL=1`, docs/performance.md "How to reproduce"): which of the two made a p99. Unit-tested.

export interface SlowRequest {
  ms: number;
  dynamoMs: number;
  /** The request's time outside DynamoDB: the process, its garbage collections, the HTTP hop, the scheduler. */
  outsideMs: number;
}

/**
 * The `count` slowest of `latencies`, each with the DynamoDB time at the same index. At concurrency 1 the load
 * generator's latencies and the process's DynamoDB times are both in the order the requests completed, so they
 * pair by index; lists of different lengths cannot be paired and give none.
 */
export function slowestRequests(
  latencies: readonly number[],
  dynamoMs: readonly number[],
  count: number,
): SlowRequest[] {
  if (latencies.length !== dynamoMs.length) return [];
  return latencies
    .map((ms, i) => ({ ms, dynamoMs: dynamoMs[i]!, outsideMs: ms - dynamoMs[i]! }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
}

/** One log line: `total [DynamoDB | outside]` per request, in milliseconds, slowest first. */
export function formatSlowest(name: string, slowest: readonly SlowRequest[]): string {
  if (slowest.length === 0) return `${name}: latencies and DynamoDB times do not pair (different counts)`;
  const ms = (x: number) => x.toFixed(1);
  return `${name}: ${slowest.map((r) => `${ms(r.ms)} [${ms(r.dynamoMs)} | ${ms(r.outsideMs)}]`).join(' ')}`;
}

/** BENCH_TAIL=1: the ten slowest requests of each side at c=1 (latencies and DynamoDB times in completion order). */
function logSlowest(
  [endpointMs, endpointDynamoMs]: [number[], number[]],
  [floorMs, floorDynamoMs]: [number[], number[]],
): void {
  log('  slowest requests at c=1, ms [DynamoDB | outside DynamoDB]:');
  log(`    ${formatSlowest('endpoint', slowestRequests(endpointMs, endpointDynamoMs, 10))}`);
  log(`    ${formatSlowest('floor', slowestRequests(floorMs, floorDynamoMs, 10))}`);
}
