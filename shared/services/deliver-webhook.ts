/**
 * One delivery attempt of one webhook event (docs/webhooks.md): the deliver function of the outbox's webhook kind
 * (store/outbox.ts), which its worker (functions/webhook-deliver/handler.ts) calls once per queue message.
 * Logs carry the event id, type, company, status and attempt only: never the secret or the payload.
 */
import { loadConfig } from '../config.ts';
import { retryDelayMs, WEBHOOK_RETRY_SCHEDULE } from '../domain/retry-schedule.ts';
import { webhookHeaders } from '../domain/webhook-signature.ts';
import { logger } from '../observability.ts';
import { isSuccess, type PostResult, postWebhook } from '../outbound/webhook-post.ts';
import { getEndpoint } from '../store/webhook-endpoints.ts';
import { unsealSecretCached } from '../store/webhook-secrets.ts';
import { getEvent, markSkipped, recordAttempt } from '../store/webhooks.ts';
import type { JobOutcome } from './outbox.ts';

/**
 * Delivered: a 2xx within 10 s. Skipped: an unknown event, no endpoint, an endpoint set after the event, or already
 * delivered or failed.
 */
type DeliveryOutcome = JobOutcome;

const describe = (result: PostResult) => ('status' in result ? { status: result.status } : { error: result.error });

/** What the attempt came to (delivered, retry later, failed for good), recorded on the event; false if raced. */
async function recordOutcome(
  eventId: string,
  attemptsBefore: number,
  result: Awaited<ReturnType<typeof postWebhook>>,
  retryBaseMs: number,
): Promise<{ outcome: DeliveryOutcome; recorded: boolean }> {
  if (isSuccess(result)) {
    const status = (result as { status: number }).status;
    return {
      outcome: { kind: 'delivered' },
      recorded: await recordAttempt(eventId, attemptsBefore, { result: 'delivered', status }),
    };
  }
  const delayMs = retryDelayMs(WEBHOOK_RETRY_SCHEDULE, attemptsBefore + 1, retryBaseMs);
  if (delayMs === undefined) {
    return {
      outcome: { kind: 'failed' },
      recorded: await recordAttempt(eventId, attemptsBefore, { result: 'failed', ...describe(result) }),
    };
  }
  const retry = { result: 'retry' as const, ...describe(result), nextAttemptMs: Date.now() + delayMs };
  return { outcome: { kind: 'retry', delayMs }, recorded: await recordAttempt(eventId, attemptsBefore, retry) };
}

/** One delivery attempt of one event. Records the attempt itself; safe to call twice (at-least-once queue). */
export async function deliverWebhook(eventId: string): Promise<DeliveryOutcome> {
  const config = loadConfig();
  const event = await getEvent(eventId);
  if (!event) return skipped(eventId, 'unknown event');
  const log = { event_id: event.eventId, event_type: event.type, company_id: event.companyId };
  if (event.state !== 'pending') return skipped(eventId, `already ${event.state}`, log);

  const endpoint = await getEndpoint(event.companyId);
  if (!endpoint) {
    await markSkipped(eventId, 'no endpoint');
    return skipped(eventId, 'no endpoint', log);
  }
  if (endpoint.activeSinceMs > event.createdMs) {
    await markSkipped(eventId, 'endpoint set after the event');
    return skipped(eventId, 'endpoint set after the event', log);
  }

  const attempt = event.attempts + 1;
  const secret = await unsealSecretCached(event.companyId, endpoint.sealedSecret);
  const nowMs = Date.now();
  const headers = webhookHeaders(secret, event.eventId, Math.floor(nowMs / 1000), event.body);
  const result = await postWebhook(endpoint.url, headers, event.body, { allowLoopback: config.webhookAllowLoopback });

  const { outcome, recorded } = await recordOutcome(eventId, event.attempts, result, config.webhookRetryBaseMs);
  const entry = { ...log, attempt, ...describe(result), outcome: outcome.kind };
  if (!recorded) {
    // Another copy of this message recorded an attempt meanwhile; that copy owns the schedule.
    logger.warn('webhook attempt raced another', entry);
    return { kind: 'skipped', reason: 'another attempt was recorded concurrently' };
  }
  if (outcome.kind === 'delivered') logger.info('webhook delivered', entry);
  else logger.warn('webhook attempt failed', entry);
  return outcome;
}

function skipped(
  eventId: string,
  reason: string,
  log: Record<string, unknown> = { event_id: eventId },
): DeliveryOutcome {
  logger.info('webhook skipped', { ...log, reason });
  return { kind: 'skipped', reason };
}
