/**
 * Queue-fed (no HTTP route): the worker of the outbox's provider-event kind (shared/store/outbox.ts) — one processing of
 * one stored Paystack webhook per message: verify with Paystack and record once per reference, or what a refund event
 * says; retries scheduled through the queue's visibility timeout. docs/getting-paid-online.md "Background processing".
 */
import { outboxWorker } from '../../shared/services/outbox.ts';
import { deliverProviderEvent } from '../../shared/services/provider-events.ts';

export const worker = outboxWorker('providerEvent', deliverProviderEvent);

export const handler = worker.handler;
