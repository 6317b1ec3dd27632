/**
 * A transfer into a client's virtual account at the local Paystack server (docs/bank-transfers.md), as the tests and
 * the OpenAPI examples' capture make one: the local server's transfer, its `charge.success` signed with the account's
 * secret key and stored through the webhook route (by the caller's `deliver`: the handler in a test, the local server
 * in the capture), then processed as the background job would, which must record it.
 */
import { createHmac } from 'node:crypto';
import { type ProcessedEvent, processProviderEvent } from '../../shared/services/provider-events.ts';

/** Stores a signed webhook through the route; the route's answer body (`data.event_id`). */
export type WebhookDelivery = (hookId: string, body: string, signature: string) => Promise<{ body: unknown }>;

export interface TransferInto {
  /** The local Paystack server's URL. */
  paystackUrl: string;
  /** The connected account's Paystack secret key, which signs its webhooks. */
  secretKey: string;
  hookId: string;
  accountNumber: string;
  amountKobo: number;
  deliver: WebhookDelivery;
  sender?: { name: string; bank: string; accountNumber: string };
  narration?: string;
}

const DEFAULT_SENDER = { name: 'Chidi Okeke', bank: 'Access Bank', accountNumber: '0123456789' };

export async function transferIntoVirtualAccount(transfer: TransferInto): Promise<ProcessedEvent> {
  const { paystackUrl, secretKey, sender = DEFAULT_SENDER } = transfer;
  const headers = { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' };
  const sent = await fetch(`${paystackUrl}/_local/transfers`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      account_number: transfer.accountNumber,
      amount: transfer.amountKobo,
      sender_name: sender.name,
      sender_bank: sender.bank,
      sender_account_number: sender.accountNumber,
      narration: transfer.narration ?? 'deposit',
    }),
  });
  const { reference } = ((await sent.json()) as { data: { reference: string } }).data;
  const listed = await fetch(`${paystackUrl}/_local/transactions`, { headers });
  const transactions = ((await listed.json()) as { data: { reference: string }[] }).data;
  const body = JSON.stringify({ event: 'charge.success', data: transactions.find((t) => t.reference === reference) });
  const signature = createHmac('sha512', secretKey).update(body).digest('hex');
  const stored = await transfer.deliver(transfer.hookId, body, signature);
  const processed = await processProviderEvent((stored.body as { data: { event_id: string } }).data.event_id);
  if (processed.state !== 'recorded') throw new Error(`The transfer was not recorded: ${JSON.stringify(processed)}`);
  return processed;
}
