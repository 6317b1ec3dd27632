/**
 * The slowest requests of one side of a c=1 comparison, each split into its DynamoDB time and the rest
 * (`BENCH_TAIL=1`, docs/performance.md "How to reproduce"): which of the two made a p99. The pure part is unit-tested.
 */
import { log } from './progress.ts';

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
export function logSlowest(
  [endpointMs, endpointDynamoMs]: [number[], number[]],
  [floorMs, floorDynamoMs]: [number[], number[]],
): void {
  log('  slowest requests at c=1, ms [DynamoDB | outside DynamoDB]:');
  log(`    ${formatSlowest('endpoint', slowestRequests(endpointMs, endpointDynamoMs, 10))}`);
  log(`    ${formatSlowest('floor', slowestRequests(floorMs, floorDynamoMs, 10))}`);
}
