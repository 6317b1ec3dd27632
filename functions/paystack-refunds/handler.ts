/**
 * Queue-fed (no HTTP route): the worker of the outbox's refund kind (shared/store/outbox.ts) — one attempt of one refund
 * job per message: Paystack's `POST /refund`, then the payment's refund and `payment.refund_issued`; retries scheduled
 * through the queue's visibility timeout. docs/getting-paid-online.md "Refunds".
 */
import { outboxWorker } from '../../shared/services/outbox.ts';
import { deliverRefundJob } from '../../shared/services/refund-jobs.ts';

export const worker = outboxWorker('refund', deliverRefundJob);

export const handler = worker.handler;
