/** Reads of clients (docs/api.md "Clients": `GET /clients/{id}`, `GET /clients`): one item, or one index query. */
import { visibleClient } from '../domain/client.ts';
import type { ClientRecord } from '../domain/invoice.ts';
import { invalidCursor } from '../domain/refusal.ts';
import { bankingFields } from '../representation/bank-transfer-answers.ts';
import { type Answer, clientShown, clientView } from '../representation/views.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import { batchGet } from '../store/batch.ts';
import { clientFrom, clientKey, isAccountClientPosition, queryClients } from '../store/clients.ts';
import { bankingOfClients } from './client-banking.ts';
import type { RequestContext } from './context.ts';

/** The client (also a deleted one, with `deleted_at`); `client_not_found` when absent or another account's. */
export async function getClient(context: RequestContext, clientId: number): Promise<Answer> {
  return clientShown(await clientRecord(context, clientId));
}

/** The client's record, for a service that reports on it (a statement, aging by client); refused like `getClient`. */
export async function clientRecord(context: RequestContext, clientId: number): Promise<ClientRecord> {
  const { companyId } = context.account;
  const key = clientKey(companyId, clientId);
  const visible = visibleClient(clientFrom(await batchGet([key]), key), companyId, { includeDeleted: true });
  if (!visible.ok) throw visible.refusal;
  return visible.value;
}

export interface ClientListPage {
  /** Each with its virtual account and credit (docs/bank-transfers.md). */
  clients: (ReturnType<typeof clientView> & ReturnType<typeof bankingFields>)[];
  /** Where the next page starts (a cursor's position), or undefined on the last page. */
  next: Record<string, string> | undefined;
}

/** An account's live clients, newest first; `after` is a cursor's position (`invalid_cursor` if not this account's). */
export async function listClients(
  context: RequestContext,
  input: { limit?: number | undefined },
  after: Record<string, string> | undefined,
): Promise<ClientListPage> {
  const { companyId } = context.account;
  if (after && !isAccountClientPosition(after, companyId)) throw invalidCursor();
  const page = await queryClients(companyId, input.limit ?? DEFAULT_HISTORY_LIMIT, after);
  const banking = await bankingOfClients(
    companyId,
    page.clients.map((client) => client.id),
  );
  const clients = page.clients.map((client) => ({ ...clientView(client), ...bankingFields(banking.get(client.id)!) }));
  return { clients, next: page.next };
}
