/**
 * Per endpoint: its DynamoDB work (captured), a check that the floor asks DynamoDB for the same work, then the
 * endpoint against its floor in interleaved blocks at concurrency 1 and 8; its budgets and its row of the table.
 */
import { capture } from '../capture.ts';
import { type Comparison, compare, explanation } from '../compare.ts';
import { CONCURRENCY, SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { DEFAULT_RATIO_BUDGETS, type EndpointDef } from '../endpoint-defs.ts';
import { checkFloor, floorTemplate, runFloor } from '../floor.ts';
import { log } from '../progress.ts';
import * as stats from '../stats.ts';

/** Captures one endpoint, checks its floor, warms the floor up and compares them at c=1 and c=8. */
async function measure(ctx: BenchContext, ep: EndpointDef, index: number) {
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
    `  c=1  endpoint p50 ${c1.endpoint.p50} / p99 ${c1.endpoint.p99} ms   floor p50 ${c1.floor.p50} / p99 ${c1.floor.p99} ms   ratio p50 ${f(c1.p50Ratio)}, p99 ${f(c1.p99Ratio)}`,
  );
  log(
    `       CPU per request: runtime ${c1.endpoint.processCpuMs} ms, floor ${c1.floor.processCpuMs} ms → ours ${f(c1.ourCpuMs)} ms`,
  );
  log(`       ${why1.line}${why1.verdicts.map((v) => `\n       ${v}`).join('')}`);
  log(
    `  c=8  endpoint ${c8.endpoint.throughputPerSecond}/s, p99 ${c8.endpoint.p99} ms   floor ${c8.floor.throughputPerSecond}/s, p99 ${c8.floor.p99} ms   ratio throughput ${f(c8.throughputRatio)}, p99 ${f(c8.p99Ratio)}`,
  );
  log(
    `       CPU per request: runtime ${c8.endpoint.processCpuMs} ms, floor ${c8.floor.processCpuMs} ms → ours ${f(c8.ourCpuMs)} ms`,
  );
  log(`       ${why8.line}${why8.verdicts.map((v) => `\n       ${v}`).join('')}`);
  if (Object.keys(c8.statuses).some((s) => s !== String(ep.expected)))
    log(`  c=8 statuses ${JSON.stringify(c8.statuses)}`);
}

function pushBudgets(ctx: BenchContext, ep: EndpointDef, { captured, c1, c8 }: Measured): void {
  const { budgets } = ctx;
  const ratios = { ...DEFAULT_RATIO_BUDGETS, ...ep.ratioBudgets };
  budgets.push({
    name: `overhead p50 c=1 ${ep.name}`,
    value: c1.p50Ratio.median,
    spread: c1.p50Ratio,
    comparator: '<=',
    limit: ratios.p50,
  });
  budgets.push({
    name: `overhead p99 c=1 ${ep.name}`,
    value: c1.p99Ratio.median,
    spread: c1.p99Ratio,
    comparator: '<=',
    limit: ratios.p99,
  });
  budgets.push({
    name: `throughput c=8 ${ep.name}`,
    value: c8.throughputRatio.median,
    spread: c8.throughputRatio,
    comparator: '>=',
    limit: ratios.throughput,
  });
  budgets.push({
    name: `tail p99 c=8 ${ep.name}`,
    value: c8.p99Ratio.median,
    spread: c8.p99Ratio,
    comparator: '<=',
    limit: ratios.tailP99,
  });
  budgets.push({
    name: `our CPU per request ${ep.name}`,
    value: c1.ourCpuMs.median,
    spread: c1.ourCpuMs,
    comparator: '<=',
    limit: ep.cpuBudgetMs,
    unit: 'ms',
  });
  budgets.push({
    name: `round trips ${ep.name}`,
    value: captured.roundTrips.max,
    comparator: '<=',
    limit: ep.roundTripBudget(captured),
  });
  if (ep.wcuBudget !== undefined)
    budgets.push({
      name: `WCU ${ep.name} (with index and idempotency record)`,
      value: captured.wcu,
      comparator: '<=',
      limit: ep.wcuBudget,
    });
}

/** The endpoint's row of the markdown table printed at the end. */
function tableRow(ep: EndpointDef, { captured, c1, c8 }: Measured): string {
  const f = stats.formatSpread;
  const capacity = [captured.rcu ? `${captured.rcu} RCU` : '', captured.wcu ? `${captured.wcu} WCU` : '']
    .filter(Boolean)
    .join(', ');
  return (
    `| ${ep.name} | ${captured.roundTrips.max} | ${capacity} | ${c1.endpoint.p50} (${c1.floor.p50}) | ${f(c1.p50Ratio)} | ${f(c1.p99Ratio)} | ` +
    `${c8.endpoint.throughputPerSecond}/s (${c8.floor.throughputPerSecond}) | ${f(c8.throughputRatio)} | ${f(c8.p99Ratio)} | ${f(c1.ourCpuMs)} ms |`
  );
}

export async function run(ctx: BenchContext): Promise<void> {
  const endpointResults: Record<string, unknown>[] = [];
  for (const [index, ep] of ctx.endpoints.entries()) {
    ctx.phase(`Endpoint: ${ep.name} (${SIZES.blocks} interleaved blocks per concurrency)`);
    const measured = await measure(ctx, ep, index);
    endpointResults.push(resultOf(ep, measured));
    if (ep.name === 'add payment') ctx.later.singleAccountPayment = throughputBlocks(measured.c8);
    logFigures(ep, measured);
    pushBudgets(ctx, ep, measured);
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
