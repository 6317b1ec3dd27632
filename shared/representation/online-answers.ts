/**
 * What the routes of getting paid online answer in JSON (docs/getting-paid-online.md): Paystack's webhook's receipt,
 * and a client with its saved cards (`GET /clients/{id}`, `DELETE /clients/{id}/cards/{card_token}`).
 */
import type { ClientRecord } from '../domain/invoice.ts';
import type { SavedCard } from '../domain/saved-card.ts';
import { success } from '../outcome.ts';
import { bankingFields, type ClientBanking } from './bank-transfer-answers.ts';
import type { Answer } from './views.ts';
import { clientView } from './views.ts';

export const EVENT_RECEIVED = 'Event received.';
export const CARD_REMOVED = 'Card removed.';

/** A saved card as a client lists it: never Paystack's authorization, never the whole token. */
export const savedCardView = (card: SavedCard) => ({
  card_token_last4: card.token.slice(-4),
  brand: card.brand,
  last4: card.last4,
  exp_month: card.expMonth,
  exp_year: card.expYear,
});

export const clientWithCardsView = (client: ClientRecord, cards: readonly SavedCard[]) => ({
  ...clientView(client),
  cards: cards.map(savedCardView),
});

/** `GET /clients/{id}`: the client with its saved cards, its virtual account and its credit (docs/bank-transfers.md). */
export const clientWithCardsShown = (
  client: ClientRecord,
  cards: readonly SavedCard[],
  banking: ClientBanking,
): Answer => success(200, { ...clientWithCardsView(client, cards), ...bankingFields(banking) });

export const cardForgotten = (client: ClientRecord, cards: readonly SavedCard[]): Answer =>
  success(200, clientWithCardsView(client, cards), CARD_REMOVED);

/** Paystack's webhook, stored: its id (`paystack:events` lists it). */
export const providerEventReceived = (eventId: string): Answer => success(200, { event_id: eventId }, EVENT_RECEIVED);
