/** Clients in the table: by id, and by email (lower-cased) so an inline client is found again. */
import type { ClientRecord } from '../domain/invoice.ts';
import type { InvoiceRequest } from '../domain/invoice-request.ts';
import { putNew, stillExists } from './actions.ts';
import { itemOf } from './batch.ts';
import { clientEmailItem, clientFromAttributes, clientItem, type Item } from './items.ts';
import { type Key, keys } from './keys.ts';
import type { TransactItem } from './write-executor.ts';

/** The item that names an invoice's client: by `client_id`, else by the inline client's email. */
export function clientLookupKey(companyId: number, input: Pick<InvoiceRequest, 'client_id' | 'client'>): Key {
  return input.client_id !== undefined
    ? keys.client(companyId, input.client_id)
    : keys.clientEmail(companyId, input.client?.email ?? '');
}

export function clientFrom(items: Map<string, Item>, key: Key): ClientRecord | undefined {
  const item = itemOf(items, key);
  return item ? clientFromAttributes(item) : undefined;
}

/** An existing client must still exist when the invoice commits. */
export const clientStillExists = (table: string, lookupKey: Key): TransactItem => stillExists(table, lookupKey);

/** A new client's two items, each on condition it is new (two requests creating the same email: one wins). */
export const newClientActions = (table: string, client: ClientRecord): TransactItem[] => [
  putNew(table, clientItem(client)),
  putNew(table, clientEmailItem(client)),
];
