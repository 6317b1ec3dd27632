/**
 * Budgets and how they are judged (pure; unit-tested in test/bench/budgets.test.ts). A budget states a limit for the
 * reference machine; a budget that is an absolute time, or a ratio derived from one, also says how its limit moves
 * with the machine (`scale`, given the run's machine factor from bench/calibration.ts), so a slower machine does not
 * fail it and a faster one does not let a regression through (docs/performance.md "Budgets").
 */
import type { Spread } from './stats.ts';

export interface Budget {
  /** Short name, e.g. "overhead p50 add-payment". */
  name: string;
  /** The measured figure. */
  value: number;
  comparator: '<=' | '>=' | '==';
  /** The limit on the reference machine (the one bench/calibration.ts's reference was measured on). */
  limit: number;
  /** Optional unit shown after the figures. */
  unit?: string;
  /** When the figure is the median of interleaved blocks: their range. */
  spread?: Spread;
  /** The limit on this run's machine, given its factor (1 on the reference machine). Absent: `limit` everywhere. */
  scale?: (machineFactor: number) => number;
  /** Where the limit comes from, when it is derived (printed beside it). */
  basis?: string;
}

export interface BudgetResult extends Omit<Budget, 'scale'> {
  met: boolean;
  /** The limit stated for the reference machine, when this run's differs from it. */
  referenceLimit?: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** A budget is met only when the figure is a finite number satisfying the comparison (the limit for this machine). */
export function evaluateBudget(budget: Budget, machineFactor = 1): BudgetResult {
  const { scale, ...rest } = budget;
  const limit = scale ? round3(scale(machineFactor)) : budget.limit;
  const { value, comparator } = budget;
  const met =
    Number.isFinite(value) &&
    (comparator === '<=' ? value <= limit : comparator === '>=' ? value >= limit : Math.abs(value - limit) < 1e-9);
  return { ...rest, limit, ...(limit !== budget.limit ? { referenceLimit: budget.limit } : {}), met };
}

export function formatBudget(result: BudgetResult): string {
  const unit = result.unit ? ` ${result.unit}` : '';
  const range = result.spread
    ? ` [${result.spread.min}–${result.spread.max} over ${result.spread.values.length} blocks]`
    : '';
  const reference = result.referenceLimit !== undefined ? `; ${result.referenceLimit}${unit} as stated` : '';
  const basis = result.basis ? ` — ${result.basis}` : '';
  return `${result.met ? 'met' : 'MISSED'}: ${result.name} = ${result.value}${unit}${range} (budget ${result.comparator} ${result.limit}${unit}${reference})${basis}`;
}

/** The report's last line: `N budgets met, M missed` followed by each budget and its figure. */
export function budgetLine(results: readonly BudgetResult[]): string {
  const met = results.filter((r) => r.met).length;
  const missed = results.length - met;
  const list = results
    .map((r) => `${r.name} ${r.value}${r.unit ? ` ${r.unit}` : ''} ${r.comparator} ${r.limit} ${r.met ? '✓' : '✗'}`)
    .join('; ');
  return `${met} budgets met, ${missed} missed — ${list}`;
}

/** An absolute time stated for the reference machine: on another, multiplied by the machine factor. */
export const machineTime =
  (referenceMs: number) =>
  (machineFactor: number): number =>
    referenceMs * machineFactor;

/** A phase's budget on one of its figures; a `timed` limit is a time on the reference machine (`machineTime`). */
export interface FigureBudget<Figure extends string> {
  name: string;
  figure: Figure;
  limit: number;
  comparator: Budget['comparator'];
  unit: string;
  timed: boolean;
}

/** A phase's budgets, each on its figure's value. */
export function figureBudgets<Figure extends string>(
  budgets: readonly FigureBudget<Figure>[],
  figures: Record<Figure, number>,
): Budget[] {
  return budgets.map(({ name, figure, limit, comparator, unit, timed }) => ({
    name,
    value: figures[figure],
    comparator,
    limit,
    unit,
    ...(timed ? { scale: machineTime(limit) } : {}),
  }));
}

/** The four ratio budgets of an endpoint row (bench/endpoint-defs.ts). */
export interface RatioBudgets {
  /** Latency at c=1 ÷ floor, at most. */
  p50: number;
  p99: number;
  /** Throughput at c=8 ÷ floor, at least. */
  throughput: number;
  /** p99 at c=8 ÷ floor, at most. */
  tailP99: number;
}

/** What the floor of a row costs, measured in the run: its latency at c=1, and the machine's CPU per request at c=8. */
export interface FloorCost {
  p50Ms: number;
  p99Ms: number;
  /** The floor process's, DynamoDB Local's and the load generator's CPU per request at c=8 (ms). */
  machineCpuMsAtC8: number;
  /**
   * DynamoDB Local's CPU per request at c=8 in the endpoint's blocks minus in the floor's (ms; either sign). Both sides
   * send the same calls, so this is the JVM's own unevenness between blocks, not our work.
   */
  dynamoDbLocalGapMsAtC8: number;
}

/**
 * The ratio limits a row's own CPU budget implies (docs/performance.md "Budgets": ratios our CPU budget explains),
 * where they allow more than the row's stated ratios. At c=1 our CPU is on the request's path: spending the budget
 * adds it to the floor's latency (1 + budget ÷ floor). At c=8 two cores are saturated, so throughput goes as the
 * machine's CPU per request: spending the budget gives floor ÷ (floor + budget), and each request's wait in line
 * grows by the inverse; what DynamoDB Local spent unevenly on the two sides' blocks is taken out there, in either
 * direction, as at c=1's p99 and in many tenants (bench/dynamo-tail.ts). Each function takes the machine factor (the
 * CPU budget is the reference machine's).
 */
export function cpuBoundLimits(
  stated: RatioBudgets,
  cpuBudgetMs: number,
  floor: FloorCost,
): { [K in keyof RatioBudgets]: (machineFactor: number) => number } {
  const spent = (k: number) => cpuBudgetMs * k;
  const c8 = floor.machineCpuMsAtC8;
  const endpointC8 = (k: number) => c8 + spent(k) + floor.dynamoDbLocalGapMsAtC8;
  return {
    p50: (k) => Math.max(stated.p50, 1 + spent(k) / floor.p50Ms),
    p99: (k) => Math.max(stated.p99, 1 + spent(k) / floor.p99Ms),
    throughput: (k) => Math.min(stated.throughput, c8 / endpointC8(k)),
    tailP99: (k) => Math.max(stated.tailP99, endpointC8(k) / c8),
  };
}
