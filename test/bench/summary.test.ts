/** The run's closing lines: phase durations and the results table's row (pure helpers of bench/summary.ts). */
import { describe, expect, it } from 'vitest';
import type { BudgetResult } from '../../bench/budgets.ts';
import { durationLines, phaseDurations, resultsTableRow } from '../../bench/summary.ts';

const phases = [
  { name: 'Set-up: DynamoDB Local (in memory)', startedAtSeconds: 0.2 },
  { name: 'Warm-up (JIT of Node and of DynamoDB Local)', startedAtSeconds: 70.4 },
  { name: 'Scale: history page with 1000 vs 50000 payments', startedAtSeconds: 86.9 },
];

const budget = (name: string, value: number, met: boolean, limits?: { limit: number; referenceLimit: number }) =>
  ({
    name,
    value,
    comparator: '<=',
    limit: limits?.limit ?? 1,
    met,
    ...(limits ? { referenceLimit: limits.referenceLimit } : {}),
  }) as BudgetResult;

describe('the run summary', () => {
  it("gives each phase the time to the next phase's start, the last one the time to the end", () => {
    expect(phaseDurations(phases, 150)).toEqual([
      { name: phases[0]!.name, seconds: 70.2 },
      { name: phases[1]!.name, seconds: 16.5 },
      { name: phases[2]!.name, seconds: 63.1 },
    ]);
  });

  it('prints the total in seconds and minutes, then each phase by the start of its title', () => {
    const lines = durationLines(phases, 742.4);
    expect(lines[0]).toBe('Duration: 742 s (12.4 min)');
    expect(lines[1]).toMatch(/^ +70\.2 s {2}Set-up$/);
    expect(lines[2]).toMatch(/Warm-up$/);
    expect(lines[3]).toMatch(/655\.5 s {2}Scale$/);
  });

  it('names the endpoint rows, which share the head of their titles, by their row', () => {
    const rows = [
      { name: 'Endpoint: add invoice (new client) (4 interleaved blocks per concurrency)', startedAtSeconds: 10 },
      { name: 'Endpoint: add payment (4 interleaved blocks per concurrency)', startedAtSeconds: 40 },
    ];
    expect(durationLines(rows, 60).slice(1)).toEqual([
      '     30.0 s  Endpoint: add invoice (new client)',
      '     20.0 s  Endpoint: add payment',
    ]);
  });

  it("fills the results table's columns from the budgets, with this run's limit where it moved", () => {
    const evaluated = [
      budget('history overhead over its floor, 50000 ÷ 1000 payments', 0.994, true),
      budget('throughput c=8 history page of 100', 0.85, true, { limit: 0.78, referenceLimit: 0.85 }),
      budget('throughput c=8 invoice history page of 100', 0.76, false, { limit: 0.79, referenceLimit: 0.85 }),
      budget('history CPU per byte, big page ÷ quarter page', 1.009, true),
      budget('our CPU per request add payment', 1.6, true),
    ];
    expect(resultsTableRow(evaluated, 1250.6)).toBe(
      '| n | 1,251 s | 0.994 | 0.85 (0.78) | 0.76 (0.79) | 1.009 | 4 met, 1 missed |',
    );
  });

  it('leaves a column empty when its phase did not run', () => {
    expect(resultsTableRow([budget('our CPU per request add payment', 1.6, true)], 60)).toBe(
      '| n | 60 s | – | – | – | – | 1 met, 0 missed |',
    );
  });
});
