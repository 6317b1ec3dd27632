/** The report: the results file (bench/results/), the table of the endpoints and the budgets. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { type Budget, type BudgetResult, budgetLine, evaluateBudget, formatBudget } from './budgets.ts';
import { type Calibration, REFERENCE_CALIBRATION_MS } from './calibration.ts';
import { QUICK, REPO_ROOT, SIZES } from './config.ts';
import { log, type Progress, steps } from './progress.ts';
import type { SideFigures } from './stats.ts';
import * as stats from './stats.ts';
import { durationLines, resultsTableRow } from './summary.ts';

/** The results as the run starts: when, on what machine, with which sizes. */
export const initialResults = (): Record<string, unknown> => ({
  startedAt: new Date().toISOString(),
  quick: QUICK,
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: loadavg(),
  },
  sizes: SIZES,
});

/**
 * Evaluates the budgets, completes the results and writes them to bench/results/bench-<timestamp>.json and
 * bench/results/latest.json; returns the evaluated budgets and the file's path.
 */
export function writeResults(
  results: Record<string, unknown>,
  budgets: Budget[],
  progress: Progress,
  calibration: Calibration,
): { evaluated: BudgetResult[]; file: string } {
  const evaluated = budgets.map((budget) => evaluateBudget(budget, calibration.factor));
  results.calibration = { ...calibration, referenceMs: REFERENCE_CALIBRATION_MS };
  results.budgets = evaluated;
  results.durationSeconds = Math.round((performance.now() - progress.runStarted) / 1000);
  results.phases = progress.phases;
  results.steps = steps;
  results.loadAverageAtEnd = loadavg();
  const resultsDir = path.join(REPO_ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  writeFileSync(path.join(resultsDir, 'latest.json'), JSON.stringify(results, null, 2));
  return { evaluated, file };
}

/** The markdown table of the endpoints (docs/performance.md), the HTTP hop, and a warning on any floor that differed. */
export function printTable(results: Record<string, unknown>, tableRows: string[], progress: Progress): void {
  progress.phase(
    'Table (median of the blocks, their range in parentheses; p99 ratios of all blocks pooled; floor figures in parentheses after the endpoint)',
  );
  log(
    '| Endpoint | Round trips | Capacity | p50 c=1 ms (floor) | Overhead p50 c=1 | Overhead p99 c=1 | Throughput c=8 (floor) | Throughput ratio | Tail p99 c=8 ratio | Our CPU per request |',
  );
  log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of tableRows) log(row);
  const hopFigures = results.httpHop as SideFigures | undefined;
  if (hopFigures)
    log(
      `\nHTTP hop alone (local runtime, empty route): p50 ${stats.round(hopFigures.p50)} ms, runtime CPU ${stats.round(hopFigures.processCpuMs)} ms per request.`,
    );

  const floorChecks = [
    ...((results.endpoints as { name: string; floorCheck: { same: boolean } }[] | undefined) ?? []).map((e) => ({
      name: e.name,
      same: e.floorCheck.same,
    })),
  ];
  if (floorChecks.some((c) => !c.same))
    log(
      `\nWARNING: the floor did not send DynamoDB the same work as the endpoint for ${floorChecks
        .filter((c) => !c.same)
        .map((c) => c.name)
        .join(', ')} (see "floor check" above): those ratios are not against a floor.`,
    );
}

/** Every budget, where the raw figures are, and the last line: `N budgets met, M missed`. */
export function printBudgets(
  evaluated: BudgetResult[],
  file: string,
  results: Record<string, unknown>,
  progress: Progress,
): void {
  progress.phase('Budgets (a figure with a range is the median of interleaved blocks)');
  const calibration = results.calibration as Calibration & { referenceMs: number };
  log(
    `  machine factor ${calibration.factor}: the calibration workload took ${calibration.samplesMs.join(', ')} ms of CPU (reference ${calibration.referenceMs} ms); absolute times and the limits derived from them are the reference's × ${calibration.factor}`,
  );
  for (const r of evaluated) log(`  ${formatBudget(r)}`);
  const endSeconds = (performance.now() - progress.runStarted) / 1000;
  log(`\n${durationLines(progress.phases, endSeconds).join('\n')}`);
  log(`\nThis run's row of the results table (docs/performance.md "Latest results"):`);
  log(resultsTableRow(evaluated, endSeconds));
  log(`\nRaw figures: ${path.relative(REPO_ROOT, file)} (${results.durationSeconds} s)`);
  log(budgetLine(evaluated));
}
