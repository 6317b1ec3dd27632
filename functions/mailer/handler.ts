/**
 * Queue-fed (no HTTP route): the worker of the outbox's mail kind (shared/store/outbox.ts) — one attempt of one mail job
 * per message: render the PDF, build the message, send it with SESv2, record the outcome; retries scheduled through
 * the queue's visibility timeout. docs/sending-invoices.md "Delivery".
 */
import { deliverMailJob } from '../../shared/services/mail-delivery.ts';
import { outboxWorker } from '../../shared/services/outbox.ts';

export const worker = outboxWorker('mail', deliverMailJob);

export const handler = worker.handler;
