/**
 * Clients in the table: by id (with a version, and index keys while live), and by e-mail (lower-cased) so an inline
 * client is found again. The e-mail item exists exactly while its client is live: it is the uniqueness rule of
 * docs/api.md "Clients", so every write that moves or frees an e-mail conditions on it (docs/data-design.md "Clients").
 */
import type { ClientRecord } from '../domain/invoice.ts';
import type { InvoiceRequest } from '../domain/invoice-request.ts';
import { itemOf } from './batch.ts';
import { clientEmailItem, clientFromAttributes, clientItem, type Item } from './items.ts';
import { clientIndexKeys, type Key, keys } from './keys.ts';
import { isPositionIn, type ListingPosition, listingPage } from './listing-index.ts';
import { putNew, type TransactItem } from './write-executor.ts';

/** The item that names an invoice's client: by `client_id`, else by the inline client's email. */
export function clientLookupKey(companyId: number, input: Pick<InvoiceRequest, 'client_id' | 'client'>): Key {
  return input.client_id !== undefined
    ? keys.client(companyId, input.client_id)
    : keys.clientEmail(companyId, input.client?.email ?? '');
}

export const clientKey = (companyId: number, clientId: number): Key => keys.client(companyId, clientId);
export const clientEmailKey = (companyId: number, email: string): Key => keys.clientEmail(companyId, email);

export function clientFrom(items: Map<string, Item>, key: Key): ClientRecord | undefined {
  const item = itemOf(items, key);
  return item ? clientFromAttributes(item) : undefined;
}

/** A client as read, with the version its next write conditions on (0 for clients written before versions). */
export interface StoredClient {
  client: ClientRecord;
  version: number;
}

export function storedClientFrom(items: Map<string, Item>, key: Key): StoredClient | undefined {
  const item = itemOf(items, key);
  return item ? { client: clientFromAttributes(item), version: Number(item.version ?? 0) } : undefined;
}

/** An existing client must still exist, and not be deleted, when the invoice commits. */
export const clientStillExists = (table: string, lookupKey: Key): TransactItem => ({
  ConditionCheck: {
    TableName: table,
    Key: lookupKey,
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(deleted_at)',
  },
});

/** A new client's two items, each on condition it is new (two requests creating the same email: one wins). */
export const newClientActions = (table: string, client: ClientRecord): TransactItem[] => [
  putNew(table, { ...clientItem(client), version: 1 }),
  putNew(table, clientEmailItem(client)),
];

/** Rewrites the client by id, on condition that it is still the version that was read. */
function clientPut(table: string, before: StoredClient, after: ClientRecord): TransactItem {
  const pinned =
    before.version === 0
      ? { ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(version)' }
      : { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': before.version } };
  return { Put: { TableName: table, Item: { ...clientItem(after), version: before.version + 1 }, ...pinned } };
}

/*
 * The e-mail item of a live client changes only in a transaction that also rewrites the client on condition of the
 * version read (`clientPut`): a concurrent update or delete changes that version, so the pin on the client item
 * covers its e-mail item too, and rewriting or deleting the e-mail item needs no condition of its own.
 */

/** The e-mail item of `client` goes away (its client's version pin guards it). */
const emailDelete = (table: string, client: ClientRecord): TransactItem => ({
  Delete: { TableName: table, Key: keys.clientEmail(client.companyId, client.email) },
});

/** An update: the client by id, and its e-mail item rewritten in place or moved to a new e-mail that must be free. */
export function clientUpdateActions(table: string, before: StoredClient, after: ClientRecord): TransactItem[] {
  const sameEmail = before.client.email.toLowerCase() === after.email.toLowerCase();
  const emailItem: TransactItem = sameEmail
    ? { Put: { TableName: table, Item: clientEmailItem(after) } }
    : putNew(table, clientEmailItem(after));
  return [clientPut(table, before, after), ...(sameEmail ? [] : [emailDelete(table, before.client)]), emailItem];
}

/** A soft delete: the client keeps its id item (with `deleted_at`, out of the index) and frees its e-mail. */
export const clientDeletionActions = (table: string, before: StoredClient, after: ClientRecord): TransactItem[] => [
  clientPut(table, before, after),
  emailDelete(table, before.client),
];

export interface ClientPage {
  clients: ClientRecord[];
  /** Exclusive start key of the next page; undefined on the last page. */
  next: Record<string, string> | undefined;
}

/** True when a list position (a cursor's) lies in this account's part of the clients index. */
export const isAccountClientPosition = (position: ListingPosition, companyId: number): boolean =>
  isPositionIn(position, clientIndexKeys.partition(companyId));

/** An account's live clients, newest first: one Query on the index. */
export async function queryClients(companyId: number, limit: number, after?: ListingPosition): Promise<ClientPage> {
  const page = await listingPage({ partition: clientIndexKeys.partition(companyId), limit, after });
  return { clients: page.items.map(clientFromAttributes), next: page.next };
}
