/**
 * Update and delete a client (docs/api.md "Clients", `PUT|DELETE /clients/{id}`): one read, a decision, one transaction that
 * conditions on the version read and on the e-mail items it moves or frees.
 */
import { type ClientChanges, decideClientDeletion, decideClientUpdate } from '../domain/client.ts';
import { formatTimestamp } from '../domain/dates.ts';
import { clientDeleted, clientUpdated } from '../representation/views.ts';
import {
  clientDeletionActions,
  clientEmailKey,
  clientFrom,
  clientKey,
  clientUpdateActions,
  storedClientFrom,
} from '../store/clients.ts';
import { tableName } from '../store/dynamodb-client.ts';
import type { Key } from '../store/keys.ts';
import { executeWrite, type WriteResult } from '../store/write-executor.ts';
import { bankingFrom, bankingKeys, withBankingFields } from './client-banking.ts';
import { type RequestContext, refusedWrite } from './context.ts';

export async function updateClient(
  context: RequestContext,
  clientId: number,
  changes: ClientChanges,
): Promise<WriteResult> {
  const { companyId } = context.account;
  const byId = clientKey(companyId, clientId);
  // The new e-mail's owner is read with the client, so that the decision can refuse a taken e-mail
  // (`duplicate_client_email`).
  const extra: Key[] = changes.email === undefined ? [] : [clientEmailKey(companyId, changes.email)];
  return executeWrite(
    {
      keys: () => [byId, ...bankingKeys(companyId, clientId), ...extra],
      decide(items) {
        const stored = storedClientFrom(items, byId);
        const owner = changes.email === undefined ? undefined : clientFrom(items, extra[0]!);
        const now = formatTimestamp(new Date());
        const decision = decideClientUpdate(stored?.client, companyId, changes, owner, now);
        if (!decision.ok) return refusedWrite(decision.refusal, context);
        const after = decision.value;
        // A decision to update means the client was read (stored is defined).
        return {
          actions: clientUpdateActions(tableName(), stored!, after),
          response: withBankingFields(clientUpdated(after), bankingFrom(items, companyId, clientId)),
        };
      },
    },
    undefined,
  );
}

export async function deleteClient(context: RequestContext, clientId: number): Promise<WriteResult> {
  const { companyId } = context.account;
  const byId = clientKey(companyId, clientId);
  return executeWrite(
    {
      keys: () => [byId, ...bankingKeys(companyId, clientId)],
      decide(items) {
        const stored = storedClientFrom(items, byId);
        const decision = decideClientDeletion(stored?.client, companyId, formatTimestamp(new Date()));
        if (!decision.ok) return refusedWrite(decision.refusal, context);
        const { client } = decision.value;
        const response = withBankingFields(clientDeleted(client), bankingFrom(items, companyId, clientId));
        if (decision.value.kind === 'already_deleted' || !stored) return { actions: [], response };
        return { actions: clientDeletionActions(tableName(), stored, client), response };
      },
    },
    undefined,
  );
}
