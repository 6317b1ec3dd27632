/**
 * The run's last lines: where its time went (each phase's seconds and the total) and its row of the one results table
 * of docs/performance.md ("Latest results"), ready to paste. Pure: the report prints what these return.
 */

import type { BudgetResult } from './budgets.ts';

export interface PhaseStart {
  name: string;
  startedAtSeconds: number;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Each phase's seconds: from its start to the next phase's (the last one's to `endSeconds`). */
export function phaseDurations(phases: readonly PhaseStart[], endSeconds: number): { name: string; seconds: number }[] {
  return phases.map((p, i) => ({
    name: p.name,
    seconds: round1((phases[i + 1]?.startedAtSeconds ?? endSeconds) - p.startedAtSeconds),
  }));
}

/** A phase's title cut at its first colon or parenthesis ("Set-up", "Scale"). */
const headOf = (name: string) => name.split(/[:(]/)[0]!.trim();

/**
 * `Duration: 742 s (12.4 min)`, then one line per phase by the head of its title, or where several phases share one
 * (the endpoint rows) by the whole title without its last parenthesis ("Endpoint: add invoice (new client)").
 */
export function durationLines(phases: readonly PhaseStart[], endSeconds: number): string[] {
  const total = Math.round(endSeconds);
  const heads = phases.map((p) => headOf(p.name));
  const label = (name: string, i: number) =>
    heads.indexOf(heads[i]!) === heads.lastIndexOf(heads[i]!) ? heads[i]! : name.replace(/ \([^()]*\)$/, '');
  const lines = phaseDurations(phases, endSeconds).map(
    ({ name, seconds }, i) => `  ${String(seconds.toFixed(1)).padStart(7)} s  ${label(name, i)}`,
  );
  return [`Duration: ${total} s (${round1(total / 60)} min)`, ...lines];
}

/** The budgets the results table has a column for, by the start of their name (bench/phases/*, endpoints.ts). */
export const RESULTS_TABLE_COLUMNS = [
  'history overhead over its floor',
  'throughput c=8 history page of 100',
  'throughput c=8 invoice history page of 100',
  'history CPU per byte, big page ÷ quarter page',
] as const;

/** A budget's cell: its figure, and this run's limit in parentheses where the machine factor or floor moved it. */
function cell(budget: BudgetResult | undefined): string {
  if (!budget) return '–';
  return budget.referenceLimit === undefined ? `${budget.value}` : `${budget.value} (${budget.limit})`;
}

/** The run's row of the results table: `| Run | Duration | <the four budgets> | Result |`, run number left as `n`. */
export function resultsTableRow(evaluated: readonly BudgetResult[], durationSeconds: number): string {
  const met = evaluated.filter((b) => b.met).length;
  const cells = RESULTS_TABLE_COLUMNS.map((start) => cell(evaluated.find((b) => b.name.startsWith(start))));
  const seconds = Math.round(durationSeconds).toLocaleString('en');
  return `| n | ${seconds} s | ${cells.join(' | ')} | ${met} met, ${evaluated.length - met} missed |`;
}
