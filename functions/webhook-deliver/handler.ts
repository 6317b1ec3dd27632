/**
 * Queue-fed (no HTTP route): the worker of the outbox's webhook kind (shared/store/outbox.ts) — one delivery attempt per
 * message, retries scheduled through the queue's visibility timeout. docs/webhooks.md "Delivery architecture".
 */
import { deliverWebhook } from '../../shared/services/deliver-webhook.ts';
import { outboxWorker } from '../../shared/services/outbox.ts';

export const worker = outboxWorker('webhook', deliverWebhook);

export const handler = worker.handler;
