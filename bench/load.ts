/**
 * Load generation: requests through HTTP (`httpOp`), and blocks whose CPU is accounted for (`measuredBlock`) in
 * every process of the bench (the runtime, the floor, DynamoDB Local, the load generator) and the rest of the machine.
 */
import { clockTicksPerSecond, machineTicks, processTicks } from './cpu.ts';
import type { Run } from './drive.ts';
import { httpRequest } from './http.ts';
import { ask, type ProcessStats } from './ipc.ts';
import type { Child } from './processes.ts';
import type { MakeRequest } from './requests.ts';
import type { CpuSnapshot, SideFigures } from './stats.ts';
import * as stats from './stats.ts';

export function httpOp(port: number, make: MakeRequest, expected: number, statuses: Record<string, number>) {
  return async (i: number, worker: number) => {
    const spec = make(i, worker);
    const result = await httpRequest(port, spec.method ?? 'POST', spec.path, spec.body, spec.headers);
    statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    if (result.status !== expected) throw new Error(`${spec.path}: ${result.status} ${result.body.slice(0, 200)}`);
    spec.onAnswer?.(result.body);
    return result.ms;
  };
}

export function merge(runs: Run[]): Run {
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [k, v] of Object.entries(run.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return {
    samples: runs.flatMap((r) => r.samples),
    elapsedMs: runs.reduce((a, r) => a + r.elapsedMs, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    statuses,
  };
}

export const describeRun = (run: Run) => ({
  ...stats.summarize(run.samples),
  throughputPerSecond: stats.throughput(run.samples.length, run.elapsedMs),
  errors: run.errors,
  ...(Object.keys(run.statuses).length ? { statuses: run.statuses } : {}),
});

/** The processes whose CPU a block accounts for (set by bench/main.ts once they are started). */
export const measured: { server?: Child; floor?: Child; dynamoDbLocalPid?: number } = {};
const ZERO_STATS: ProcessStats = { cpuUs: 0, dynamo: { requests: 0, calls: 0, ms: 0 }, gcMs: 0 };

export async function snapshot(): Promise<CpuSnapshot> {
  const [server, floor] = await Promise.all([
    measured.server ? ask<ProcessStats>(measured.server.child, { type: 'stats' }) : ZERO_STATS,
    measured.floor ? ask<ProcessStats>(measured.floor.child, { type: 'stats' }) : ZERO_STATS,
  ]);
  const self = process.cpuUsage();
  const machine = machineTicks();
  return {
    wallMs: performance.now(),
    loadGeneratorUs: self.user + self.system,
    serverUs: server.cpuUs,
    floorUs: floor.cpuUs,
    dynamoDbLocalTicks: processTicks(measured.dynamoDbLocalPid),
    machineBusyTicks: machine.busy,
    machineTotalTicks: machine.total,
    serverDynamo: server.dynamo,
    floorDynamo: floor.dynamo,
    serverGcMs: server.gcMs,
    floorGcMs: floor.gcMs,
  };
}

/** Runs one block and accounts for its CPU (every process of the bench, and the rest of the machine). */
export async function measuredBlock(
  side: 'endpoint' | 'floor',
  run: () => Promise<Run>,
): Promise<{ run: Run; figures: SideFigures; dynamoPerRequestMs: number[] }> {
  const serving = side === 'endpoint' ? measured.server : measured.floor;
  const requestTimes = () => (serving ? ask<number[]>(serving.child, { type: 'requestTimes' }) : Promise.resolve([]));
  await requestTimes(); // forget what came before the block
  const before = await snapshot();
  const result = await run();
  const after = await snapshot();
  const dynamoPerRequestMs = await requestTimes();
  return {
    run: result,
    figures: stats.sideFigures(
      side,
      result.samples,
      result.elapsedMs,
      result.errors,
      stats.blockCpu(before, after, clockTicksPerSecond()),
      dynamoPerRequestMs,
    ),
    dynamoPerRequestMs,
  };
}
