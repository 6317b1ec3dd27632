/** What every part of the local Paystack server works with: the state, the webhook outbox, the refund clock. */
import type { RefundClock } from './refunds.ts';
import type { StateFile } from './state.ts';
import type { WebhookOutbox } from './webhooks.ts';

export interface Engine {
  store: StateFile;
  outbox: WebhookOutbox;
  refunds: RefundClock;
  /** The checkout page of a transaction (its `authorization_url`), on the server's public base URL. */
  checkoutUrl(accessCode: string): string;
  log: (message: string, error?: unknown) => void;
}
