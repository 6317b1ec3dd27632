/**
 * Paystack's webhooks (docs/getting-paid-online.md "Webhooks"). Receiving: the hook id names the account; the body
 * must carry that account's signature (hex HMAC-SHA512 of its exact bytes, keyed with its secret key), else 401 and
 * nothing is read or stored; a signed event is stored whole as one item before it is answered 200. Processing
 * (`processProviderEvent`, run for each stored event by a background job): a `charge.success` for a reference this
 * service issued is verified with Paystack and recorded (./record-online-payment.ts); anything else is kept as
 * ignored. The webhook's own amounts are never trusted: only verify's.
 */
import { loadConfig } from '../config.ts';
import { CHECKOUT_REFERENCE_PATTERN } from '../domain/online-recording.ts';
import { isPaystackSignatureValid } from '../domain/paystack-signature.ts';
import { notFound, Refusal } from '../domain/refusal.ts';
import { PAYSTACK_RETRY_SCHEDULE, retryDelayMs } from '../domain/retry-schedule.ts';
import { isRecord } from '../guards.ts';
import { countPaystackSignatureFailure, logger } from '../observability.ts';
import { findHookAccount, paystackSecretKey, readPaystackConnection } from '../store/paystack-connections.ts';
import {
  FINAL_EVENT_STATES,
  markProviderEvent,
  PROVIDER_EVENT_PREFIX,
  type ProviderEvent,
  type ProviderEventState,
  putProviderEvent,
  readProviderEvent,
} from '../store/provider-events.ts';
import { newUlid } from '../ulid.ts';
import type { JobOutcome } from './outbox.ts';
import { paystackOf } from './paystack-client.ts';
import { recordOnlinePayment } from './record-online-payment.ts';
import { processRefundEvent } from './refund-jobs.ts';
import { processTransferEvent } from './transfer-events.ts';

/** Counted (the stage alarms on it: docs/operations.md "Alarms"): a forged webhook, or a key pasted wrongly. */
function badSignature(): Refusal {
  countPaystackSignatureFailure();
  return new Refusal('invalid_signature', 'The x-paystack-signature header is missing or does not sign this body.');
}

/** Stores a signed event of the hook's account; throws `hook_not_found` (404), then `invalid_signature` (401). */
export async function receiveProviderEvent(
  hookId: string,
  body: Uint8Array,
  signature: string | undefined,
): Promise<{ eventId: string }> {
  // An unknown hook is answered as a malformed one (docs/decisions.md "Path parameters"); the body is read only once
  // its signature is the hook's account's.
  const companyId = await findHookAccount(hookId);
  if (companyId === undefined) throw notFound('hook_not_found');
  if (!signature?.trim()) throw badSignature();
  const secretKey = await paystackSecretKey(await readPaystackConnection(companyId));
  if (!secretKey || !isPaystackSignatureValid(body, signature, secretKey)) throw badSignature();
  const { eventType, reference } = eventSummary(body);
  const eventId = `${PROVIDER_EVENT_PREFIX}${newUlid()}`;
  await putProviderEvent({ eventId, companyId, eventType, reference, body, receivedAt: new Date().toISOString() });
  return { eventId };
}

/** The event's type and `data.reference`, for listing and processing; `unknown` when the body names none. */
function eventSummary(body: Uint8Array): { eventType: string; reference: string | undefined; data: unknown } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const data = isRecord(parsed) ? parsed.data : undefined;
  return {
    eventType: isRecord(parsed) && typeof parsed.event === 'string' ? parsed.event.slice(0, 100) : 'unknown',
    reference: isRecord(data) && typeof data.reference === 'string' ? data.reference.slice(0, 200) : undefined,
    data,
  };
}

export interface ProcessedEvent {
  state: Exclude<ProviderEventState, 'received'>;
  outcome: string;
  paymentId?: number;
  /** While `retrying`: the delay before the next processing. */
  retryInMs?: number;
}

/** What processing found, before the attempts are counted: `transient` is to be tried again later. */
type Found = Omit<ProcessedEvent, 'state' | 'retryInMs'> & {
  state: Exclude<ProcessedEvent['state'], 'retrying'> | 'transient';
};

/**
 * Processes one stored event, and records what it came to on it (docs/getting-paid-online.md "Background
 * processing"). Paystack unreachable (or the account disconnected) is `retrying` on the webhooks' schedule, then
 * `failed`; the other outcomes are final, and an event already in a final state is left as it is — so the job is safe
 * to run twice, and a reference records once whatever runs.
 */
export async function processProviderEvent(eventId: string): Promise<ProcessedEvent> {
  const event = await readProviderEvent(eventId);
  if (!event) return { state: 'ignored', outcome: 'unknown_event' };
  if (FINAL_EVENT_STATES.includes(event.state)) return storedOutcome(event);
  const found = await processEvent(event);
  const processed = afterAttempt(found, event.attempts + 1);
  const nextAttemptAt =
    processed.retryInMs === undefined ? undefined : new Date(Date.now() + processed.retryInMs).toISOString();
  const marked = await markProviderEvent(eventId, { ...processed, nextAttemptAt });
  // Another processing of the same event recorded a final outcome first: that one stands.
  if (!marked) return storedOutcome((await readProviderEvent(eventId)) ?? event);
  return processed;
}

function storedOutcome(event: ProviderEvent): ProcessedEvent {
  const state = event.state === 'received' ? 'retrying' : event.state;
  return {
    state,
    outcome: event.outcome ?? '',
    ...(event.paymentId === undefined ? {} : { paymentId: event.paymentId }),
  };
}

function afterAttempt(found: Found, attempts: number): ProcessedEvent {
  if (found.state !== 'transient') return { ...found, state: found.state };
  const retryInMs = retryDelayMs(PAYSTACK_RETRY_SCHEDULE, attempts, loadConfig().webhookRetryBaseMs);
  if (retryInMs === undefined)
    return { ...found, state: 'failed', outcome: `gave up after ${attempts} attempts: ${found.outcome}` };
  return { ...found, state: 'retrying', retryInMs };
}

/** The provider-event kind's deliver function (store/outbox.ts): one processing of one stored event. */
export async function deliverProviderEvent(eventId: string): Promise<JobOutcome> {
  const processed = await processProviderEvent(eventId);
  if (processed.state === 'retrying') return { kind: 'retry', delayMs: processed.retryInMs ?? 0 };
  if (processed.state === 'failed') {
    logger.warn('Paystack event not processed; gave up', { event_id: eventId, outcome: processed.outcome });
    return { kind: 'failed' };
  }
  return { kind: 'delivered' };
}

async function processEvent(event: ProviderEvent): Promise<Found> {
  if (event.eventType.startsWith('refund.')) return processRefundEvent(event.companyId, eventSummary(event.body).data);
  if (event.eventType !== 'charge.success') return { state: 'ignored', outcome: `event ${event.eventType}` };
  const { data } = eventSummary(event.body);
  const reference = event.reference;
  // A transfer to a client's virtual account names no checkout of this service (docs/bank-transfers.md "Matching").
  if (isRecord(data) && data.channel === 'dedicated_nuban' && !CHECKOUT_REFERENCE_PATTERN.test(reference ?? ''))
    return processTransferEvent(event.companyId, reference);
  if (!reference || !CHECKOUT_REFERENCE_PATTERN.test(reference))
    return { state: 'ignored', outcome: 'unknown_reference' };
  const api = await paystackOf(event.companyId);
  if (!api) return { state: 'transient', outcome: 'the account is not connected to Paystack' };
  const verified = await api.verify(reference);
  if (!verified.ok) {
    const { failure } = verified;
    if (failure.kind === 'unavailable') return { state: 'transient', outcome: `verify unavailable: ${failure.detail}` };
    return { state: 'ignored', outcome: `verify refused: ${failure.message}` };
  }
  const recorded = await recordOnlinePayment({ companyId: event.companyId, reference, charge: verified.value });
  if (recorded.outcome === 'recorded') return { state: 'recorded', outcome: 'recorded', paymentId: recorded.paymentId };
  if (recorded.outcome === 'already_recorded')
    return { state: 'duplicate', outcome: 'already recorded', paymentId: recorded.paymentId };
  return { state: 'ignored', outcome: recorded.because };
}
