/**
 * Webhooks out, as Paystack sends them (docs/paystack-local.md "Webhooks"): a POST of `{"event":…,"data":…}` to the
 * integration's webhook URL, `x-paystack-signature` the hex HMAC-SHA512 of the exact body keyed with the secret key,
 * retried on anything but a 2xx with growing pauses for 72 hours. Deliveries are kept in the state file, so those
 * still pending are sent after a restart. The integration's knobs duplicate, delay, hold and reorder, or drop events.
 * Each integration's deliveries go out one at a time, earliest due first.
 */
import { createHmac } from 'node:crypto';
import type { Delivery, Integration, Json, StateFile } from './state.ts';

export interface OutboxOptions {
  /** The pause after a first failed attempt; it doubles after each (up to an hour). */
  retryBaseMs: number;
  /** How long after the event attempts go on (Paystack: 72 hours). */
  retryWindowMs: number;
  /** How long one attempt may take. */
  timeoutMs: number;
  log: (message: string, error?: unknown) => void;
}

const MAX_PAUSE_MS = 60 * 60 * 1000;
/** Finished deliveries kept per integration for the listings; older ones are forgotten. */
const KEPT_FINISHED = 500;

export function paystackSignature(body: string, secretKey: string): string {
  return createHmac('sha512', secretKey).update(body).digest('hex');
}

export class WebhookOutbox {
  private timer: NodeJS.Timeout | undefined;
  private readonly sending = new Set<string>();
  private readonly inFlight = new Set<AbortController>();
  private stopped = false;

  constructor(
    private readonly store: StateFile,
    private readonly options: OutboxOptions,
  ) {}

  /** Queues one event for the integration, as its knobs say; saved before this returns. */
  emit(integration: Integration, event: string, data: Json, reference: string | null): void {
    const body = JSON.stringify({ event, data });
    const { knobs } = integration;
    const dropped = this.dropNext(integration);
    const held = !dropped && knobs.reorder !== null;
    const now = Date.now();
    for (let copy = 0; copy <= knobs.duplicate; copy++) {
      integration.deliveries.push({
        id: this.store.next('delivery'),
        event,
        reference,
        body,
        status: dropped ? 'dropped' : held ? 'held' : 'pending',
        attempts: 0,
        due_at: dropped || held ? null : now + knobs.delay_ms,
        created_at: new Date(now).toISOString(),
        last_attempt_at: null,
        last_status: null,
        last_error: null,
        delivered_at: null,
      });
    }
    if (held && this.held(integration).length >= knobs.reorder!.count) this.releaseHeld(integration);
    forgetOldFinished(integration);
    this.store.save();
    this.wake();
  }

  /** Releases the integration's held events now, in the reorder knob's order (reverse when none is set). */
  release(integration: Integration): number {
    const count = this.releaseHeld(integration);
    this.store.save();
    this.wake();
    return count;
  }

  start(): void {
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const controller of this.inFlight) controller.abort();
  }

  private held(integration: Integration): Delivery[] {
    return integration.deliveries.filter((d) => d.status === 'held');
  }

  private releaseHeld(integration: Integration): number {
    const held = this.held(integration);
    const ordered = integration.knobs.reorder?.order === 'shuffle' ? shuffled(held) : [...held].reverse();
    const now = Date.now() + integration.knobs.delay_ms;
    ordered.forEach((delivery, i) => {
      delivery.status = 'pending';
      delivery.due_at = now + i;
    });
    return held.length;
  }

  private dropNext(integration: Integration): boolean {
    const { drop } = integration.knobs;
    if (drop === null) return false;
    if ('probability' in drop) return Math.random() < drop.probability;
    if (drop.count <= 0) return false;
    drop.count -= 1;
    if (drop.count === 0) integration.knobs.drop = null;
    return true;
  }

  /** Sends what is due (one delivery per integration at a time) and sets the timer for the next. */
  private wake(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const now = Date.now();
    let earliest = Number.POSITIVE_INFINITY;
    for (const integration of this.store.integrations()) {
      if (this.sending.has(integration.secret_key)) continue;
      const next = nextDue(integration);
      if (!next) continue;
      if (next.due_at! <= now) void this.send(integration, next);
      else earliest = Math.min(earliest, next.due_at!);
    }
    if (earliest !== Number.POSITIVE_INFINITY) this.timer = setTimeout(() => this.wake(), earliest - now);
  }

  private async send(integration: Integration, delivery: Delivery): Promise<void> {
    this.sending.add(integration.secret_key);
    try {
      await this.attempt(integration, delivery);
      this.store.save();
    } catch (error) {
      this.options.log('Local Paystack: a webhook delivery could not be recorded.', error);
    } finally {
      this.sending.delete(integration.secret_key);
      this.wake();
    }
  }

  private async attempt(integration: Integration, delivery: Delivery): Promise<void> {
    if (!integration.webhook_url) {
      Object.assign(delivery, { status: 'skipped', due_at: null, last_error: 'The integration has no webhook URL.' });
      return;
    }
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(new Error('timed out')), this.options.timeoutMs);
    this.inFlight.add(controller);
    try {
      const response = await fetch(integration.webhook_url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-paystack-signature': paystackSignature(delivery.body, integration.secret_key),
        },
        body: delivery.body,
        redirect: 'manual',
        signal: controller.signal,
      });
      await response.arrayBuffer().catch(() => undefined);
      this.record(delivery, response.status, response.ok ? null : `HTTP ${response.status}`);
    } catch (error) {
      if (!this.stopped) this.record(delivery, null, error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timeout);
      this.inFlight.delete(controller);
    }
  }

  private record(delivery: Delivery, status: number | null, error: string | null): void {
    const now = Date.now();
    delivery.attempts += 1;
    delivery.last_attempt_at = new Date(now).toISOString();
    delivery.last_status = status;
    delivery.last_error = error;
    if (error === null) {
      Object.assign(delivery, { status: 'delivered', due_at: null, delivered_at: delivery.last_attempt_at });
      return;
    }
    const pause = Math.min(this.options.retryBaseMs * 2 ** (delivery.attempts - 1), MAX_PAUSE_MS);
    const giveUp = now + pause - Date.parse(delivery.created_at) > this.options.retryWindowMs;
    Object.assign(delivery, giveUp ? { status: 'failed', due_at: null } : { due_at: now + pause });
  }
}

function nextDue(integration: Integration): Delivery | undefined {
  let next: Delivery | undefined;
  for (const delivery of integration.deliveries) {
    if (delivery.status !== 'pending') continue;
    if (!next || delivery.due_at! < next.due_at! || (delivery.due_at === next.due_at && delivery.id < next.id))
      next = delivery;
  }
  return next;
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

function forgetOldFinished(integration: Integration): void {
  const finished = integration.deliveries.filter((d) => d.status !== 'pending' && d.status !== 'held');
  if (finished.length <= KEPT_FINISHED) return;
  const forgotten = new Set(finished.slice(0, finished.length - KEPT_FINISHED));
  integration.deliveries = integration.deliveries.filter((d) => !forgotten.has(d));
}
