/**
 * Clients' saved cards (docs/getting-paid-online.md "Saved cards"; docs/data-design.md "Getting paid online"): one
 * item per card, by the service's own token (`CARD#<co>#<ctok_…>`), in the client's GSI1 partition so a client's
 * cards are one Query; Paystack's authorization code only sealed. A second item per Paystack card signature
 * (`CARDSIG#…`) keeps one saved card per card and client: a card paid with again is the same saved card.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SavedCard } from '../domain/saved-card.ts';
import { itemOf } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { type Key, keys, savedCardIndexKeys } from './keys.ts';
import { TABLE } from './table.ts';
import type { TransactItem } from './write-executor.ts';
import { putNew } from './write-executor.ts';

export const savedCardKey = (companyId: number, cardToken: string): Key => keys.savedCard(companyId, cardToken);
export const cardSignatureKey = (companyId: number, clientId: number, signature: string): Key =>
  keys.cardSignature(companyId, clientId, signature);

function cardFromItem(item: Item): SavedCard {
  return {
    token: String(item.card_token),
    companyId: Number(item.company_id),
    clientId: Number(item.client_id),
    brand: String(item.brand ?? ''),
    last4: String(item.last4 ?? ''),
    expMonth: String(item.exp_month ?? ''),
    expYear: String(item.exp_year ?? ''),
    createdAt: String(item.created_at),
  };
}

export function savedCardFrom(items: Map<string, Item>, key: Key): SavedCard | undefined {
  const item = itemOf(items, key);
  return item?.entity === 'saved_card' ? cardFromItem(item) : undefined;
}

/** The saved card a card signature already names, among a batch read's items. */
export function cardOfSignature(items: Map<string, Item>, key: Key): SavedCard | undefined {
  const item = itemOf(items, key);
  return item ? cardFromItem(item) : undefined;
}

/** A new saved card (and its signature item, when Paystack gave one), each on condition that it is new. */
export function newCardActions(
  table: string,
  card: SavedCard,
  sealedAuthorization: Uint8Array,
  signature: string | null,
): TransactItem[] {
  const attributes = {
    company_id: card.companyId,
    client_id: card.clientId,
    card_token: card.token,
    brand: card.brand,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    created_at: card.createdAt,
  };
  const actions = [
    putNew(table, {
      ...savedCardKey(card.companyId, card.token),
      GSI1PK: savedCardIndexKeys.partition(card.companyId, card.clientId),
      GSI1SK: savedCardIndexKeys.sort(card.createdAt, card.token),
      entity: 'saved_card',
      ...attributes,
      authorization_sealed: sealedAuthorization,
      ...(signature === null ? {} : { signature }),
    }),
  ];
  if (signature !== null)
    actions.push(
      putNew(table, {
        ...cardSignatureKey(card.companyId, card.clientId, signature),
        entity: 'card_signature',
        ...attributes,
      }),
    );
  return actions;
}

/** Forgets a card of the client: its item and its signature item, on condition that it is still that client's. */
export function forgetCardActions(table: string, card: SavedCard, signature: string | undefined): TransactItem[] {
  const actions: TransactItem[] = [
    {
      Delete: {
        TableName: table,
        Key: savedCardKey(card.companyId, card.token),
        ConditionExpression: 'client_id = :client',
        ExpressionAttributeValues: { ':client': card.clientId },
      },
    },
  ];
  if (signature)
    actions.push({ Delete: { TableName: table, Key: cardSignatureKey(card.companyId, card.clientId, signature) } });
  return actions;
}

/** The Paystack card signature a saved card item holds (to forget its signature item with it). */
export const signatureOf = (items: Map<string, Item>, key: Key): string | undefined => {
  const signature = itemOf(items, key)?.signature;
  return typeof signature === 'string' ? signature : undefined;
};

/** A client's saved cards, oldest first: one Query of its GSI1 partition. */
export async function queryClientCards(companyId: number, clientId: number): Promise<SavedCard[]> {
  const cards: SavedCard[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: TABLE.listingIndex.name,
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': savedCardIndexKeys.partition(companyId, clientId) },
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    cards.push(...(out.Items ?? []).map(cardFromItem));
    after = out.LastEvaluatedKey;
  } while (after);
  return cards;
}
