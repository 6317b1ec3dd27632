/**
 * A client's saved card (docs/getting-paid-online.md "Saved cards"), pure: the service's own token for it, what is
 * shown of it, and which `card_token` values on an invoice name one. Paystack's `authorization_code` is never the
 * token: it stays sealed in the store, and the token is 144 random bits not derived from it.
 */
import { randomBytes } from 'node:crypto';
import { Refusal } from './refusal.ts';

export const CARD_TOKEN_PREFIX = 'ctok_';
export const CARD_TOKEN_PATTERN = /^ctok_[A-Za-z0-9_-]{24}$/;

export const generateCardToken = (): string => `${CARD_TOKEN_PREFIX}${randomBytes(18).toString('base64url')}`;

export interface SavedCard {
  token: string;
  companyId: number;
  clientId: number;
  brand: string;
  last4: string;
  expMonth: string;
  expYear: string;
  /** YYYY-MM-DD HH:MM:SS (UTC). */
  createdAt: string;
}

/**
 * Whether an invoice's `card_token` claims to be one of this service's saved cards (and must then be one of that
 * client's). Any other value is kept as before — stored, shown as its last 4 characters, never used — so that
 * tokens the original SDKs send from other systems are still accepted.
 */
export const namesSavedCard = (cardToken: string): boolean => cardToken.startsWith(CARD_TOKEN_PREFIX);

/**
 * The refusal of an invoice's `card_token` that claims to be a saved card (`ctok_…`) but is not one of its client's —
 * another client's, forgotten or unknown (docs/getting-paid-online.md "Saved cards"); undefined when it is, or when the
 * token is not one of this service's.
 */
export function cardTokenRefusal(
  cardToken: string | undefined,
  card: SavedCard | undefined,
  clientId: number | undefined,
): Refusal | undefined {
  if (cardToken === undefined || !namesSavedCard(cardToken)) return undefined;
  if (card && clientId !== undefined && card.clientId === clientId) return undefined;
  return new Refusal('invalid_card_token', "card_token: must be one of this client's saved cards.", [
    { code: 'invalid_card_token', field: 'card_token', message: "must be one of this client's saved cards" },
  ]);
}
