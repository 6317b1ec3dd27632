/**
 * When a failed attempt of a background job is tried again (docs/webhooks.md "Delivery"): a schedule is the delays
 * after each failed attempt, as multiples of a base delay (WEBHOOK_RETRY_BASE_MS, MAIL_RETRY_BASE_MS); after the last
 * delay the job has failed. Each job kind has its own schedule (shared/store/outbox.ts `JOB_KINDS`).
 */
export interface RetrySchedule {
  /** The delay after the n-th failed attempt is `factors[n - 1]` × the base delay. */
  readonly factors: readonly number[];
}

export const DEFAULT_RETRY_BASE_MS = 60_000;

/**
 * Webhook deliveries: after about 1 min, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then failed (8 attempts, ~28 h).
 */
export const WEBHOOK_RETRY_SCHEDULE: RetrySchedule = { factors: [1, 5, 30, 120, 300, 600, 600] };

/**
 * Background calls to Paystack (docs/getting-paid-online.md "Background processing": processing a received event,
 * a refund, a saved card's charge) when Paystack is down or slow: retried like a webhook delivery, with the same steps
 * and base (WEBHOOK_RETRY_BASE_MS).
 */
export const PAYSTACK_RETRY_SCHEDULE: RetrySchedule = WEBHOOK_RETRY_SCHEDULE;

/** Every attempt a job of this schedule gets: the first, and one after each delay. */
export const attemptsOf = (schedule: RetrySchedule): number => schedule.factors.length + 1;

/** Delay before the next attempt after `attemptsMade` failed attempts, or undefined when there is none left. */
export function retryDelayMs(
  schedule: RetrySchedule,
  attemptsMade: number,
  baseMs: number = DEFAULT_RETRY_BASE_MS,
): number | undefined {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError('attemptsMade is a positive integer');
  const factor = schedule.factors[attemptsMade - 1];
  return factor === undefined ? undefined : factor * baseMs;
}
