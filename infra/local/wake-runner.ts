/**
 * The wake sweep inside `npm start` (docs/api.md "Overdue", docs/receivables.md "Reminders"), with the code the
 * deployed scheduled function runs (shared/services/wake-sweep.ts): once at start, then every OVERDUE_SWEEP_MS
 * (default 60000). "Now" is `clockNow()`: CLOCK_OFFSET_MS moves it forward locally (docs/running-locally.md). Runs
 * never overlap; a failed run is logged and the next one tries again.
 */
import { clockNow } from '../../shared/clock.ts';
import { loadConfig } from '../../shared/config.ts';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { wakeableSleep } from './wakeable-sleep.ts';

export interface WakeRunner {
  stop(): Promise<void>;
}

export function startWakeRunner(options: { log: (message: string, error?: unknown) => void }): WakeRunner {
  const intervalMs = loadConfig().overdueSweepMs;
  const pause = wakeableSleep();
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      try {
        await runWakeSweep(clockNow());
      } catch (error) {
        if (!stopping) options.log('The wake sweep failed; it runs again at the next interval.', error);
      }
      if (!stopping) await pause.sleep(intervalMs);
    }
  })();
  return {
    async stop() {
      stopping = true;
      pause.wake();
      await loop;
    },
  };
}
