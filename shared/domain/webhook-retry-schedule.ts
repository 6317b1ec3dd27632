/**
 * When a failed webhook delivery is tried again (docs/webhooks.md "Delivery"): after about 1 min, 5 min,
 * 30 min, 2 h, 5 h, 10 h and 10 h, then failed (8 attempts, ~28 h).
 */
export const DEFAULT_RETRY_BASE_MS = 60_000;
/** Multiples of the first delay; with the default base these are the minutes of the schedule. */
export const RETRY_FACTORS = [1, 5, 30, 120, 300, 600, 600] as const;
export const MAX_ATTEMPTS = RETRY_FACTORS.length + 1;

/** Delay before the next attempt after `attemptsMade` failed attempts, or undefined when there is none left. */
export function retryDelayMs(attemptsMade: number, baseMs: number = DEFAULT_RETRY_BASE_MS): number | undefined {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError('attemptsMade is a positive integer');
  const factor = RETRY_FACTORS[attemptsMade - 1];
  return factor === undefined ? undefined : factor * baseMs;
}
