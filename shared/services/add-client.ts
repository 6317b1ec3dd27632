/**
 * Add a client (docs/api.md "Clients", `POST /clients`): one read (the e-mail's client and an id block), a decision,
 * one transaction. An e-mail a live client already has answers that client unchanged (200); the e-mail item's condition
 * makes two concurrent creations of one e-mail end with one client.
 */
import { decideClientCreation } from '../domain/client.ts';
import { formatTimestamp } from '../domain/dates.ts';
import { newClient } from '../domain/invoice.ts';
import type { NewClientRequest } from '../domain/invoice-request.ts';
import { isFailure } from '../outcome.ts';
import { clientCreated, clientExisting } from '../representation/views.ts';
import { clientEmailKey, clientFrom, newClientActions } from '../store/clients.ts';
import { tableName } from '../store/dynamodb-client.ts';
import type { Item } from '../store/items.ts';
import { claimId, IdAllocator, sequenceActions } from '../store/sequences.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { NO_BANKING, withBankingFields, withClientBanking } from './client-banking.ts';
import { idempotencyOf, type RequestContext } from './context.ts';

export async function addClient(context: RequestContext, input: NewClientRequest): Promise<WriteResult> {
  const { companyId } = context.account;
  const clientIds = new IdAllocator(tableName(), companyId, 'client');
  const emailKey = clientEmailKey(companyId, input.email);
  const idempotency = idempotencyOf(context, 'add-client', input);
  try {
    const written = await executeWrite(
      {
        keys: async () => [emailKey, ...(await clientIds.keysToRead())],
        settle: (committed) => clientIds.settle(committed),
        decide: (items) => planClient(context, input, { clientIds, items, emailKey }),
      },
      idempotency,
    );
    // A client this write created has no banking yet (its answer says so); one found by its e-mail is read after.
    const created = !isFailure(written.response) && written.response.status === 201;
    return created ? written : await withClientBanking(companyId, written);
  } finally {
    clientIds.release();
  }
}

function planClient(
  context: RequestContext,
  input: NewClientRequest,
  read: { clientIds: IdAllocator; items: Map<string, Item>; emailKey: ReturnType<typeof clientEmailKey> },
): WritePlan {
  const creation = decideClientCreation(clientFrom(read.items, read.emailKey));
  if (creation.kind === 'existing') return { actions: [], response: clientExisting(creation.client) };
  const claim = claimId(read.clientIds, read.items);
  const client = newClient(context.account.companyId, claim.id, input, formatTimestamp(new Date()));
  return {
    actions: [...newClientActions(tableName(), client), ...sequenceActions([claim])],
    response: withBankingFields(clientCreated(client), NO_BANKING),
  };
}
