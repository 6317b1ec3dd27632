/** Reads of clients (SPEC §13 `GET /clients/{id}`, `GET /clients`): one item, or one index query. */
import { visibleClient } from '../domain/client.ts';
import type { ClientRecord } from '../domain/invoice.ts';
import { invalidCursor } from '../domain/refusal.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import type { Account } from '../store/accounts.ts';
import { batchGet } from '../store/batch.ts';
import { clientFrom, clientKey, isAccountClientPosition, queryClients } from '../store/clients.ts';

/** The client (also a deleted one, with `deleted_at`); `client_not_found` when absent, another account's or no id. */
export async function getClient(account: Account, clientId: number | undefined): Promise<ClientRecord> {
  const key = clientId === undefined ? undefined : clientKey(account.companyId, clientId);
  const client = key ? clientFrom(await batchGet([key]), key) : undefined;
  const visible = visibleClient(client, account.companyId, { includeDeleted: true });
  if (!visible.ok) throw visible.refusal;
  return visible.value;
}

export interface ClientListPage {
  clients: ClientRecord[];
  next: Record<string, string> | undefined;
}

/** An account's live clients, newest first; `after` is a cursor's position (`invalid_cursor` if not this account's). */
export async function listClients(
  account: Account,
  input: { limit?: number | undefined },
  after: Record<string, string> | undefined,
): Promise<ClientListPage> {
  if (after && !isAccountClientPosition(after, account.companyId)) throw invalidCursor();
  return queryClients(account.companyId, input.limit ?? DEFAULT_HISTORY_LIMIT, after);
}
