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
import { isRecord } from '../guards.ts';
import { findHookAccount, paystackSecretKey, readPaystackConnection } from '../store/paystack-connections.ts';
import {
  markProviderEvent,
  PROVIDER_EVENT_PREFIX,
  type ProviderEvent,
  type ProviderEventState,
  putProviderEvent,
  readProviderEvent,
} from '../store/provider-events.ts';
import { newUlid } from '../ulid.ts';
import { recordOnlinePayment } from './record-online-payment.ts';
import { processTransferEvent } from './transfer-events.ts';

const badSignature = () =>
  new Refusal('invalid_signature', 'The x-paystack-signature header is missing or does not sign this body.');

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
}

/**
 * Processes one stored event, and records what it came to on it. `failed` (Paystack unreachable, the account
 * disconnected) is for a retry; the others are final — and a retry of any is harmless: a reference records once.
 */
export async function processProviderEvent(eventId: string): Promise<ProcessedEvent> {
  const event = await readProviderEvent(eventId);
  if (!event) return { state: 'ignored', outcome: 'unknown_event' };
  const processed = await processEvent(event);
  await markProviderEvent(eventId, processed.state, processed.outcome, processed.paymentId);
  return processed;
}

async function processEvent(event: ProviderEvent): Promise<ProcessedEvent> {
  if (event.eventType !== 'charge.success') return { state: 'ignored', outcome: `event ${event.eventType}` };
  const { data } = eventSummary(event.body);
  const reference = event.reference;
  // A transfer to a client's virtual account names no checkout of this service (docs/bank-transfers.md "Matching").
  if (isRecord(data) && data.channel === 'dedicated_nuban' && !CHECKOUT_REFERENCE_PATTERN.test(reference ?? ''))
    return processTransferEvent(event.companyId, reference);
  if (!reference || !CHECKOUT_REFERENCE_PATTERN.test(reference))
    return { state: 'ignored', outcome: 'unknown_reference' };
  const secretKey = await paystackSecretKey(await readPaystackConnection(event.companyId));
  if (!secretKey) return { state: 'failed', outcome: 'the account is not connected to Paystack' };
  const { PaystackApi } = await import('../outbound/paystack.ts');
  const verified = await new PaystackApi(secretKey, { baseUrl: loadConfig().paystackBaseUrl }).verify(reference);
  if (!verified.ok) {
    const { failure } = verified;
    if (failure.kind === 'unavailable') return { state: 'failed', outcome: `verify unavailable: ${failure.detail}` };
    return { state: 'ignored', outcome: `verify refused: ${failure.message}` };
  }
  const recorded = await recordOnlinePayment({ companyId: event.companyId, reference, charge: verified.value });
  if (recorded.outcome === 'recorded') return { state: 'recorded', outcome: 'recorded', paymentId: recorded.paymentId };
  if (recorded.outcome === 'already_recorded')
    return { state: 'duplicate', outcome: 'already recorded', paymentId: recorded.paymentId };
  return { state: 'ignored', outcome: recorded.because };
}
