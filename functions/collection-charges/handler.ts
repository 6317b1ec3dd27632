/**
 * Queue-fed (no HTTP route): the worker of the outbox's charge kind (shared/store/outbox.ts) — one delivery of one
 * charge job of automatic collection per message: Paystack's `charge_authorization` with the attempt's reference,
 * then the payment recorded, or the decline (`collection`, `invoice.payment_failed`); retries scheduled through the
 * queue's visibility timeout. docs/getting-paid-online.md "Automatic collection".
 */
import { deliverChargeJob } from '../../shared/services/collection-charges.ts';
import { outboxWorker } from '../../shared/services/outbox.ts';

export const worker = outboxWorker('charge', deliverChargeJob);

export const handler = worker.handler;
