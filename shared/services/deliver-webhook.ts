/**
 * TEMPORARY stand-in for i12a (drop at merge): `deliverWebhook` with the contract's signature and
 * outcomes, without i12a's URL policy, sealing, response caps or deliveries log.
 */
import { standinEndpoint, standinEvent, standinRecordAttempt, standinSign } from '../store/webhook-standin';

export type DeliveryOutcome =
  | { kind: 'delivered' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'failed' }
  | { kind: 'skipped'; reason: string };

const DELAY_FACTORS = [1, 5, 30, 120, 300, 600, 600];

export async function deliverWebhook(eventId: string): Promise<DeliveryOutcome> {
  const event = await standinEvent(eventId);
  if (!event) return { kind: 'skipped', reason: 'unknown event' };
  if (event.state === 'delivered' || event.state === 'failed') return { kind: 'skipped', reason: `already ${event.state}` };
  const endpoint = await standinEndpoint(event.company_id);
  if (!endpoint) return { kind: 'skipped', reason: 'no endpoint' };
  const timestamp = Math.floor(Date.now() / 1000);
  let ok = false;
  try {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
      headers: {
        'content-type': 'application/json',
        'webhook-id': eventId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': standinSign(endpoint.secret, eventId, timestamp, event.body),
      },
      body: event.body,
    });
    await response.body?.cancel();
    ok = response.status >= 200 && response.status < 300;
  } catch {
    ok = false;
  }
  const attempts = event.attempts + 1;
  if (ok) {
    await standinRecordAttempt(eventId, attempts, 'delivered');
    return { kind: 'delivered' };
  }
  if (attempts > DELAY_FACTORS.length) {
    await standinRecordAttempt(eventId, attempts, 'failed');
    return { kind: 'failed' };
  }
  await standinRecordAttempt(eventId, attempts, 'pending');
  const base = Number(process.env.WEBHOOK_RETRY_BASE_MS ?? 60_000);
  return { kind: 'retry', delayMs: base * DELAY_FACTORS[attempts - 1]! };
}
