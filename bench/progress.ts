/** The bench's output: one line at a time, and the phases with the second each started at. */
export const log = (line: string) => console.log(line);

export interface Progress {
  /** performance.now() when the run started. */
  runStarted: number;
  phases: { name: string; startedAtSeconds: number }[];
  /** Prints a phase's title with its start (seconds since the run started) and records it. */
  phase: (name: string) => void;
}

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
