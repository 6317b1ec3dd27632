/**
 * Scheduled (no HTTP route): the wake sweep (shared/services/wake-sweep.ts; docs/webhooks.md "The wake sweep"), run
 * by an EventBridge rule every few minutes (infra/wake-sweep.ts). Idempotent: a run that overlaps, repeats or comes
 * late sends no event twice.
 */
import { clockNow } from '../../shared/clock.ts';
import { logger } from '../../shared/observability.ts';
import { runWakeSweep, type SweepReport } from '../../shared/services/wake-sweep.ts';

export const handler = async (): Promise<SweepReport> => {
  const report = await runWakeSweep(clockNow());
  logger.info('wake sweep', { ...report });
  return report;
};
