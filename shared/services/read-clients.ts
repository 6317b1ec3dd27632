/** Reads of clients (SPEC §13 `GET /clients/{id}`, `GET /clients`): one item, or one index query. */
import { visibleClient } from '../domain/client.ts';
import type { ClientRecord } from '../domain/invoice.ts';
import { invalidCursor } from '../errors.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import type { Account } from '../store/accounts.ts';
import { batchGet } from '../store/batch.ts';
import { clientFrom, clientKey, isAccountClientPosition, queryClients } from '../store/clients.ts';

/** The client (also a deleted one, with `deleted_at`); 404 when absent or another account's. */
export async function getClient(account: Account, clientId: number): Promise<ClientRecord> {
  const key = clientKey(account.companyId, clientId);
  const client = clientFrom(await batchGet([key]), key);
  const visible = visibleClient(client, account.companyId, { includeDeleted: true });
  if (!visible.ok) throw visible.error;
  return visible.value;
}

export interface ClientListPage {
  clients: ClientRecord[];
  next: Record<string, string> | undefined;
}

/** An account's live clients, newest first; `after` is a cursor's position (400 if it is not this account's list). */
export async function listClients(
  account: Account,
  input: { limit?: number | undefined },
  after: Record<string, string> | undefined,
): Promise<ClientListPage> {
  if (after && !isAccountClientPosition(after, account.companyId)) throw invalidCursor();
  return queryClients(account.companyId, input.limit ?? DEFAULT_HISTORY_LIMIT, after);
}
