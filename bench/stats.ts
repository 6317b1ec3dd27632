/** Pure helpers of the benchmark: percentiles, summaries, ratios and budget evaluation (unit-tested). */

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

export interface Budget {
  /** Short name, e.g. "overhead p50 add-payment". */
  name: string;
  /** The measured figure. */
  value: number;
  comparator: '<=' | '>=' | '==';
  limit: number;
  /** Optional unit shown after the figures. */
  unit?: string;
}

export interface BudgetResult extends Budget {
  met: boolean;
}

/** A budget is met only when the figure is a finite number satisfying the comparison. */
export function evaluateBudget(budget: Budget): BudgetResult {
  const { value, limit, comparator } = budget;
  const met =
    Number.isFinite(value) &&
    (comparator === '<=' ? value <= limit : comparator === '>=' ? value >= limit : Math.abs(value - limit) < 1e-9);
  return { ...budget, met };
}

export function formatBudget(result: BudgetResult): string {
  const unit = result.unit ? ` ${result.unit}` : '';
  return `${result.met ? 'met' : 'MISSED'}: ${result.name} = ${result.value}${unit} (budget ${result.comparator} ${result.limit}${unit})`;
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

/** Round trips a history page may make: one Query, then one BatchGetItem per 100 needed keys. */
export const historyRoundTripBudget = (neededKeys: number): number => 1 + Math.ceil(neededKeys / 100);
