/** The bench's output: one line at a time, the phases with the second each started at, and the set-up's steps timed. */
export const log = (line: string) => console.log(line);

export interface Progress {
  /** performance.now() when the run started. */
  runStarted: number;
  phases: { name: string; startedAtSeconds: number }[];
  /** Prints a phase's title with its start (seconds since the run started) and records it. */
  phase: (name: string) => void;
}

/** The steps timed by `timed` (process starts, seeding), for the results file: where a run's set-up time goes. */
export const steps: { name: string; seconds: number }[] = [];

export function startProgress(): Progress {
  const runStarted = performance.now();
  const phases: Progress['phases'] = [];
  const phase = (name: string) => {
    const at = Math.round((performance.now() - runStarted) / 100) / 10;
    phases.push({ name, startedAtSeconds: at });
    log(`\n[${at.toFixed(1)} s] ${name}`);
  };
  return { runStarted, phases, phase };
}

/** Runs `work`, then prints and records how long it took (`  <name>: 12.3 s`). */
export async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  steps.push({ name, seconds });
  log(`  ${name}: ${seconds.toFixed(1)} s`);
  return result;
}
