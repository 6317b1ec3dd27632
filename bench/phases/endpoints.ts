/**
 * Per endpoint: its DynamoDB work (captured), a check that the floor asks DynamoDB for the same work, then the
 * endpoint against its floor in interleaved blocks at concurrency 1 and 8; its budgets and its row of the table.
 */

import { type Budget, cpuBoundLimits, type FloorCost, machineTime, type RatioBudgets } from '../budgets.ts';
import { capture } from '../capture.ts';
import { type Comparison, compare, explanation } from '../compare.ts';
import { CONCURRENCY, SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { DEFAULT_RATIO_BUDGETS, type EndpointDef, rowRequests } from '../endpoint-defs.ts';
import { checkFloor, floorTemplate, runFloor } from '../floor.ts';
import { log } from '../progress.ts';
import * as stats from '../stats.ts';

/** Captures one endpoint, checks its floor, warms the floor up and compares them at c=1 and c=8. */
async function measure(ctx: BenchContext, ep: EndpointDef, index: number) {
  await ep.before?.(rowRequests());
  const captured = await capture(ctx.small, () => ep.make(0, 0), ep.expected, SIZES.captures);
  const template = floorTemplate(captured.template);
  const floorCheck = await checkFloor(template, captured.template, `k${index}`);
  // The floor process's JIT
  const floorMake = ep.floorMake ?? ep.make;
  await runFloor(template, SIZES.floorWarmup, 4, `w${index}`, floorMake, captured.responseBytes);
  const c1 = await compare({
    port: ctx.small.port,
    make: ep.make,
    floorMake,
    expected: ep.expected,
    template,
    responseBytes: captured.responseBytes,
    concurrency: 1,
    perBlock: SIZES.perBlock1,
    tag: `s${index}`,
  });
  const c8 = await compare({
    port: ctx.small.port,
    make: ep.make,
    floorMake,
    expected: ep.expected,
    template,
    responseBytes: captured.responseBytes,
    concurrency: CONCURRENCY,
    perBlock: SIZES.perBlock8,
    tag: `c${index}`,
  });
  return { captured, floorCheck, c1, c8, why1: explanation(c1), why8: explanation(c8) };
}

type Measured = Awaited<ReturnType<typeof measure>>;

/** The endpoint's entry of `results.endpoints`. */
function resultOf(ep: EndpointDef, { captured, floorCheck, c1, c8, why1, why8 }: Measured) {
  const { template: _t, responseBytes: _r, ...captureFigures } = captured;
  return {
    name: ep.name,
    database: captureFigures,
    concurrency1: c1,
    concurrency8: c8,
    explanation: { concurrency1: why1, concurrency8: why8 },
    floorCheck,
    replayedRequests: captured.template.map((c) => ({
      command: c.command,
      elapsedMs: stats.round(c.elapsedMs),
      consumedCapacity: c.consumedCapacity,
    })),
  };
}

function logFigures(ep: EndpointDef, { captured, floorCheck, c1, c8, why1, why8 }: Measured): void {
  const f = stats.formatSpread;
  log(
    `  round trips ${captured.roundTrips.max} (${captured.roundTrips.commands.join(' → ')}), ${captured.rcu} RCU, ${captured.wcu} WCU (index ${captured.indexUnits})`,
  );
  log(`  amortised, not counted above: ${captured.authReadsSeen} auth reads in ${captured.samples} captured requests`);
  log(`  floor check: ${floorCheck.line}`);
  log(
    `  c=1  endpoint p50 ${c1.endpoint.p50} / p99 ${c1.endpoint.p99} ms   floor p50 ${c1.floor.p50} / p99 ${c1.floor.p99} ms   ratio p50 ${f(c1.p50Ratio)}, p99 ${c1.p99Pooled.ratio} pooled (blocks ${c1.p99Ratio.min}–${c1.p99Ratio.max}), ${c1.p99Pooled.beyondDynamoDbTail} beyond DynamoDB Local's tail`,
  );
  log(
    `       CPU per request: runtime ${c1.endpoint.processCpuMs} ms, floor ${c1.floor.processCpuMs} ms → ours ${f(c1.ourCpuMs)} ms`,
  );
  log(`       ${why1.line}${why1.verdicts.map((v) => `\n       ${v}`).join('')}`);
  log(
    `  c=8  endpoint ${c8.endpoint.throughputPerSecond}/s, p99 ${c8.endpoint.p99} ms   floor ${c8.floor.throughputPerSecond}/s, p99 ${c8.floor.p99} ms   ratio throughput ${f(c8.throughputRatio)}, p99 ${c8.p99Pooled.ratio} pooled (blocks ${c8.p99Ratio.min}–${c8.p99Ratio.max}), ${c8.p99Pooled.beyondDynamoDbTail} beyond DynamoDB Local's tail`,
  );
  log(
    `       CPU per request: runtime ${c8.endpoint.processCpuMs} ms, floor ${c8.floor.processCpuMs} ms → ours ${f(c8.ourCpuMs)} ms`,
  );
  log(`       ${why8.line}${why8.verdicts.map((v) => `\n       ${v}`).join('')}`);
  if (Object.keys(c8.statuses).some((s) => s !== String(ep.expected)))
    log(`  c=8 statuses ${JSON.stringify(c8.statuses)}`);
}

/** What the row's floor costs, from this run (the basis of the ratio limits its CPU budget implies). */
const floorCost = ({ c1, c8 }: Measured): FloorCost => ({
  p50Ms: c1.floor.p50Ms,
  p99Ms: c1.p99Pooled.floorMs,
  machineCpuMsAtC8: c8.floor.processCpuMs + c8.floor.dynamoDbLocalCpuMs + c8.floor.loadGeneratorCpuMs,
  dynamoDbLocalGapMsAtC8: c8.endpoint.dynamoDbLocalCpuMs - c8.floor.dynamoDbLocalCpuMs,
});

/**
 * The row's four ratio budgets. Each limit is the row's stated one, or what spending its CPU budget on top of this
 * run's floor would give where that is more (`cpuBoundLimits`, docs/performance.md "Budgets"); the CPU budget is the
 * reference machine's × this machine's factor.
 */
function ratioBudgets(ep: EndpointDef, m: Measured): Budget[] {
  const { c1, c8 } = m;
  const stated = { ...DEFAULT_RATIO_BUDGETS, ...ep.ratioBudgets };
  const cost = floorCost(m);
  const limits = cpuBoundLimits(stated, ep.cpuBudgetMs, cost);
  const ms = (x: number) => stats.round(x, 1);
  const c8Floor = `${ms(cost.machineCpuMsAtC8)} ms of machine CPU per floor request, with DynamoDB Local's difference of ${ms(cost.dynamoDbLocalGapMsAtC8)} ms (endpoint − floor) taken out`;
  const ratio = (name: string, value: number, key: keyof RatioBudgets, what: string, spread?: stats.Spread) => ({
    name: `${name} ${ep.name}`,
    value,
    comparator: key === 'throughput' ? ('>=' as const) : ('<=' as const),
    limit: stated[key],
    scale: limits[key],
    basis: `or what ${ep.cpuBudgetMs} ms of our CPU (× machine) adds to ${what}`,
    ...(spread ? { spread } : {}),
  });
  return [
    ratio('overhead p50 c=1', c1.p50Ratio.median, 'p50', `a ${ms(cost.p50Ms)} ms floor`, c1.p50Ratio),
    ratio(
      "overhead p99 c=1 beyond DynamoDB Local's tail",
      c1.p99Pooled.beyondDynamoDbTail,
      'p99',
      `a ${ms(cost.p99Ms)} ms floor p99 (all blocks pooled; ${c1.p99Pooled.ratio} before DynamoDB p99 ${c1.p99Pooled.endpointDynamoMs} vs ${c1.p99Pooled.floorDynamoMs} ms was taken out)`,
    ),
    ratio('throughput c=8', c8.throughputRatio.median, 'throughput', c8Floor, c8.throughputRatio),
    ratio(
      "tail p99 c=8 beyond DynamoDB Local's tail",
      c8.p99Pooled.beyondDynamoDbTail,
      'tailP99',
      `${c8Floor} (p99 pooled; ${c8.p99Pooled.ratio} before DynamoDB p99 ${c8.p99Pooled.endpointDynamoMs} vs ${c8.p99Pooled.floorDynamoMs} ms was taken out)`,
    ),
  ];
}

/** The row's absolute budgets: our CPU (for this machine), round trips, write units. */
function absoluteBudgets(ep: EndpointDef, { captured, c1 }: Measured): Budget[] {
  const budgets: Budget[] = [
    {
      name: `our CPU per request ${ep.name}`,
      value: c1.ourCpuMs.median,
      spread: c1.ourCpuMs,
      comparator: '<=',
      limit: ep.cpuBudgetMs,
      scale: machineTime(ep.cpuBudgetMs),
      unit: 'ms',
    },
    {
      name: `round trips ${ep.name}`,
      value: captured.roundTrips.max,
      comparator: '<=',
      limit: ep.roundTripBudget(captured),
    },
  ];
  if (ep.wcuBudget !== undefined)
    budgets.push({
      name: `WCU ${ep.name} (with index and idempotency record)`,
      value: captured.wcu,
      comparator: '<=',
      limit: ep.wcuBudget,
    });
  return budgets;
}

/** The endpoint's row of the markdown table printed at the end. */
function tableRow(ep: EndpointDef, { captured, c1, c8 }: Measured): string {
  const f = stats.formatSpread;
  const capacity = [captured.rcu ? `${captured.rcu} RCU` : '', captured.wcu ? `${captured.wcu} WCU` : '']
    .filter(Boolean)
    .join(', ');
  return (
    `| ${ep.name} | ${captured.roundTrips.max} | ${capacity} | ${c1.endpoint.p50} (${c1.floor.p50}) | ${f(c1.p50Ratio)} | ${c1.p99Pooled.ratio} | ` +
    `${c8.endpoint.throughputPerSecond}/s (${c8.floor.throughputPerSecond}) | ${f(c8.throughputRatio)} | ${c8.p99Pooled.ratio} | ${f(c1.ourCpuMs)} ms |`
  );
}

export async function run(ctx: BenchContext): Promise<void> {
  const endpointResults: Record<string, unknown>[] = [];
  const rows = process.env.BENCH_ROWS?.split(',').map((name) => name.trim());
  for (const [index, ep] of ctx.endpoints.entries()) {
    if (rows && !rows.includes(ep.name)) continue;
    ctx.phase(`Endpoint: ${ep.name} (${SIZES.blocks} interleaved blocks per concurrency)`);
    const measured = await measure(ctx, ep, index);
    endpointResults.push(resultOf(ep, measured));
    if (ep.name === 'add payment') {
      ctx.later.singleAccountPayment = throughputBlocks(measured.c8);
      ctx.later.paymentCapture = measured.captured;
    }
    logFigures(ep, measured);
    ctx.budgets.push(...ratioBudgets(ep, measured), ...absoluteBudgets(ep, measured));
    ctx.tableRows.push(tableRow(ep, measured));
  }
  ctx.results.endpoints = endpointResults;
}

/** The endpoint's throughput in each block at c=8. */
const throughputBlocks = (c8: Comparison) =>
  stats.spreadOf(
    c8.blocks.map((b) => b.endpoint.throughputPerSecond),
    1,
  );
