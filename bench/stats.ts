/** Pure helpers of the benchmark: percentiles, summaries, ratios (unit-tested); budgets are in bench/budgets.ts. */

export interface LatencySummary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1]!;
}

/** Median with interpolation of the two middle samples (for the cold-start runs). */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const n = samples.length;
  return {
    n,
    p50: round(percentile(samples, 50)),
    p90: round(percentile(samples, 90)),
    p99: round(percentile(samples, 99)),
    mean: round(n === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / n),
    min: round(n === 0 ? Number.NaN : Math.min(...samples)),
    max: round(n === 0 ? Number.NaN : Math.max(...samples)),
  };
}

/** a ÷ b, rounded to 3 decimals; NaN when b is 0 or either is not finite. */
export function ratio(a: number, b: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || b === 0) return Number.NaN;
  return Math.round((a / b) * 1000) / 1000;
}

export function round(value: number, decimals = 2): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** Requests per second from a count and a wall-clock duration in milliseconds. */
export function throughput(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? round((count * 1000) / elapsedMs, 1) : Number.NaN;
}

/**
 * Round trips a payment-history page may make: the payments Query and the Query of the range's day totals
 * (docs/data-design.md "Period totals"), then one BatchGetItem per 100 needed keys. The totals Query is sent together with the payments Query (the
 * floor replays both in one wave, bench/replay.ts `replayWaves`), so it adds a wait only when it is the slower of
 * the two (a long range); but it is one more request to DynamoDB, and round trips here are counted as the calls a
 * request makes (bench/capture.ts): it is counted.
 */
export const historyRoundTripBudget = (neededKeys: number): number => 2 + Math.ceil(neededKeys / 100);

// ---------------------------------------------------------------------------------------------------
// Interleaved blocks: each ratio is computed per block (endpoint block beside its floor block) and judged on
// the median of the blocks; the range shows how much the blocks disagree.

export interface Spread {
  median: number;
  min: number;
  max: number;
  values: number[];
}

/** Median and range of per-block figures (NaN figures are kept, so a failed block cannot hide). */
export function spreadOf(values: readonly number[], decimals = 3): Spread {
  const finite = values.every(Number.isFinite);
  return {
    median: finite ? round(median(values), decimals) : Number.NaN,
    min: finite ? round(Math.min(...values), decimals) : Number.NaN,
    max: finite ? round(Math.max(...values), decimals) : Number.NaN,
    values: values.map((v) => round(v, decimals)),
  };
}

/** "1.07 (1.02–1.11)": the median and, in parentheses, the range of the blocks. */
export const formatSpread = (s: Spread): string => `${s.median} (${s.min}–${s.max})`;

/** CPU and DynamoDB counters read at the start and at the end of a block (see bench/cpu.ts). */
export interface CpuSnapshot {
  wallMs: number;
  /** The load generator (this process), process.cpuUsage in µs. */
  loadGeneratorUs: number;
  serverUs: number;
  floorUs: number;
  /** DynamoDB Local's JVM, clock ticks. */
  dynamoDbLocalTicks: number;
  machineBusyTicks: number;
  machineTotalTicks: number;
  serverDynamo: { calls: number; ms: number };
  floorDynamo: { calls: number; ms: number };
  /** Garbage-collection pauses of the runtime and of the floor since their first snapshot, ms (absent: 0). */
  serverGcMs?: number;
  floorGcMs?: number;
}

export interface BlockCpu {
  wallMs: number;
  serverMs: number;
  floorMs: number;
  dynamoDbLocalMs: number;
  loadGeneratorMs: number;
  /** CPU of every other process on the machine during the block, as a share of all its CPUs. */
  foreignShare: number;
  serverDynamoMs: number;
  floorDynamoMs: number;
  serverGcMs: number;
  floorGcMs: number;
}

export function blockCpu(before: CpuSnapshot, after: CpuSnapshot, ticksPerSecond: number): BlockCpu {
  const tickMs = 1000 / ticksPerSecond;
  const serverMs = (after.serverUs - before.serverUs) / 1000;
  const floorMs = (after.floorUs - before.floorUs) / 1000;
  const loadGeneratorMs = (after.loadGeneratorUs - before.loadGeneratorUs) / 1000;
  const dynamoDbLocalMs = (after.dynamoDbLocalTicks - before.dynamoDbLocalTicks) * tickMs;
  const machineBusyMs = (after.machineBusyTicks - before.machineBusyTicks) * tickMs;
  const machineTotalMs = (after.machineTotalTicks - before.machineTotalTicks) * tickMs;
  const foreignMs = Math.max(0, machineBusyMs - serverMs - floorMs - loadGeneratorMs - dynamoDbLocalMs);
  return {
    wallMs: after.wallMs - before.wallMs,
    serverMs,
    floorMs,
    dynamoDbLocalMs,
    loadGeneratorMs,
    foreignShare: machineTotalMs > 0 ? foreignMs / machineTotalMs : Number.NaN,
    serverDynamoMs: after.serverDynamo.ms - before.serverDynamo.ms,
    floorDynamoMs: after.floorDynamo.ms - before.floorDynamo.ms,
    serverGcMs: (after.serverGcMs ?? 0) - (before.serverGcMs ?? 0),
    floorGcMs: (after.floorGcMs ?? 0) - (before.floorGcMs ?? 0),
  };
}

/** One side of a block (the endpoint through HTTP, or its floor), with its CPU accounting per request. */
export interface SideFigures {
  n: number;
  errors: number;
  p50: number;
  p99: number;
  meanMs: number;
  throughputPerSecond: number;
  /** CPU of the process doing the work: the runtime for the endpoint, the floor process for the floor. */
  processCpuMs: number;
  /** Wall time of the DynamoDB calls, seen from inside that process. */
  dynamoMs: number;
  /** The same per request: its p50 and p99 over the block's requests. */
  dynamoP50Ms: number;
  dynamoP99Ms: number;
  dynamoDbLocalCpuMs: number;
  loadGeneratorCpuMs: number;
  foreignShare: number;
  /** Garbage-collection pauses of the process doing the work, per request (ms). */
  gcMs: number;
}

export function sideFigures(
  side: 'endpoint' | 'floor',
  samples: readonly number[],
  elapsedMs: number,
  errors: number,
  cpu: BlockCpu,
  /** DynamoDB wall time of each request of the block, seen from inside the process that served it. */
  dynamoPerRequestMs: readonly number[] = [],
): SideFigures {
  const n = samples.length;
  const per = (ms: number) => (n > 0 ? ms / n : Number.NaN);
  return {
    n,
    errors,
    p50: percentile(samples, 50),
    p99: percentile(samples, 99),
    meanMs: per(samples.reduce((a, b) => a + b, 0)),
    throughputPerSecond: elapsedMs > 0 ? (n * 1000) / elapsedMs : Number.NaN,
    processCpuMs: per(side === 'endpoint' ? cpu.serverMs : cpu.floorMs),
    dynamoMs: per(side === 'endpoint' ? cpu.serverDynamoMs : cpu.floorDynamoMs),
    dynamoP50Ms: percentile(dynamoPerRequestMs, 50),
    dynamoP99Ms: percentile(dynamoPerRequestMs, 99),
    dynamoDbLocalCpuMs: per(cpu.dynamoDbLocalMs),
    loadGeneratorCpuMs: per(cpu.loadGeneratorMs),
    foreignShare: cpu.foreignShare,
    gcMs: per(side === 'endpoint' ? cpu.serverGcMs : cpu.floorGcMs),
  };
}

/** The per-block figures of an endpoint block beside its floor block. */
export interface PairFigures {
  p50Ratio: number;
  p99Ratio: number;
  throughputRatio: number;
  /** Runtime CPU per request minus the floor process's CPU per replay, ms. */
  ourCpuMs: number;
  /**
   * Time the endpoint spends outside DynamoDB minus the time the floor spends outside DynamoDB (mean latency minus
   * the DynamoDB time seen inside each process): what our code adds, the transport both share taken out, ms.
   */
  ourTimeMs: number;
  /** DynamoDB time inside the floor minus DynamoDB time inside the runtime: how much slower DynamoDB answered the floor, ms. */
  floorSlowerByMs: number;
}

export function pairFigures(endpoint: SideFigures, floor: SideFigures): PairFigures {
  return {
    p50Ratio: ratio(endpoint.p50, floor.p50),
    p99Ratio: ratio(endpoint.p99, floor.p99),
    throughputRatio: ratio(endpoint.throughputPerSecond, floor.throughputPerSecond),
    ourCpuMs: endpoint.processCpuMs - floor.processCpuMs,
    ourTimeMs: endpoint.meanMs - endpoint.dynamoMs - (floor.meanMs - floor.dynamoMs),
    floorSlowerByMs: floor.dynamoMs - endpoint.dynamoMs,
  };
}

/**
 * Why an endpoint measured faster than its floor (a latency ratio under 1, a throughput ratio over 1).
 * Endpoint mean − floor mean = our time − how much slower DynamoDB answered the floor, all three measured.
 * The endpoint can only beat the floor if DynamoDB answered the floor more slowly, by more than our time:
 * that is "explained" (by the figures printed with it); anything else is "unexplained".
 */
export function explainFasterThanFloor(f: { ourTimeMs: number; floorSlowerByMs: number }): 'explained' | 'unexplained' {
  return Number.isFinite(f.floorSlowerByMs) && f.floorSlowerByMs > 0 && f.floorSlowerByMs >= f.ourTimeMs
    ? 'explained'
    : 'unexplained';
}

/**
 * Why an endpoint's latency percentile was below its floor's: explained when DynamoDB, measured inside each
 * process at the same percentile of its requests, answered the floor more slowly by at least the gap — the
 * endpoint's time outside DynamoDB was then not shorter than the floor's. Otherwise unexplained.
 */
export function explainLatencyBelowFloor(f: {
  endpointMs: number;
  floorMs: number;
  endpointDynamoMs: number;
  floorDynamoMs: number;
}): 'explained' | 'unexplained' {
  const gap = f.floorMs - f.endpointMs;
  const dynamoGap = f.floorDynamoMs - f.endpointDynamoMs;
  return Number.isFinite(gap) && Number.isFinite(dynamoGap) && dynamoGap > 0 && dynamoGap >= gap
    ? 'explained'
    : 'unexplained';
}

/**
 * Cost per byte of a large page ÷ cost per byte of a smaller page of the same payments. Cost linear in bytes
 * (plus a fixed part per request) gives at most 1; a cost growing faster than the bytes gives more.
 */
export function perByteRatio(large: { cost: number; bytes: number }, small: { cost: number; bytes: number }): number {
  if (!(large.bytes > 0) || !(small.bytes > 0)) return Number.NaN;
  return ratio(large.cost / large.bytes, small.cost / small.bytes);
}

/**
 * An item's size as DynamoDB bills it (approximately: its documented rules): each attribute's name in UTF-8 bytes
 * plus its value — a string's UTF-8 bytes, a number's significant digits ÷ 2 rounded up, plus 1, a boolean or null
 * 1 byte, binary its length, a map or list 3 bytes plus 1 per element plus its elements.
 */
export function dynamoItemBytes(item: Record<string, unknown>): number {
  const valueBytes = (value: unknown): number => {
    if (typeof value === 'string') return Buffer.byteLength(value);
    if (typeof value === 'number') {
      const digits = String(Math.abs(value)).replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
      return Math.ceil(Math.max(1, digits) / 2) + 1;
    }
    if (typeof value === 'boolean' || value === null || value === undefined) return 1;
    if (value instanceof Uint8Array) return value.length;
    if (Array.isArray(value)) return 3 + value.reduce((n: number, v) => n + 1 + valueBytes(v), 0);
    if (typeof value === 'object')
      return (
        3 +
        Object.entries(value as Record<string, unknown>).reduce(
          (n, [k, v]) => n + 1 + Buffer.byteLength(k) + valueBytes(v),
          0,
        )
      );
    return 0;
  };
  return Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name) + valueBytes(value), 0);
}

/**
 * Read units of a strongly consistent Query returning `rows` items of at most `rowBytes` each: a Query sums the sizes
 * of the items it reads and rounds the sum up to 4 KB, one unit per 4 KB (eventually consistent: half).
 */
export const consistentQueryRcu = (rows: number, rowBytes: number): number => Math.ceil((rows * rowBytes) / 4096);
