/**
 * Scheduled (no HTTP route): the overdue sweep (docs/webhooks.md "The overdue sweep"), run by an EventBridge rule
 * every few minutes (infra/overdue.ts). Idempotent: a run that overlaps, repeats or comes late sends no event twice.
 */
import { clockNow } from '../../shared/clock.ts';
import { logger } from '../../shared/observability.ts';
import { runOverdueSweep, type SweepReport } from '../../shared/services/sweep-overdue.ts';

export const handler = async (): Promise<SweepReport> => {
  const report = await runOverdueSweep(clockNow());
  logger.info('overdue sweep', { ...report });
  return report;
};
