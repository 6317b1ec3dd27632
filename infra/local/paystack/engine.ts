/** What every part of the local Paystack server works with: the state, the webhook outbox, the refund clock. */
import type { Integration, Refund, StateFile } from './state.ts';
import type { WebhookOutbox } from './webhooks.ts';

export interface Engine {
  store: StateFile;
  outbox: WebhookOutbox;
  refunds: RefundScheduler;
  /** The checkout page of a transaction (its `authorization_url`), on the server's public base URL. */
  checkoutUrl(accessCode: string): string;
  log: (message: string, error?: unknown) => void;
}

/** What a new refund needs of the refund clock (refunds.ts): when it processes, and arming its timer. */
export interface RefundScheduler {
  readonly processAfterMs: number;
  arm(integration: Integration, refund: Refund): void;
}
