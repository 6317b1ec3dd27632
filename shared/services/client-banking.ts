/**
 * A client's virtual account and credit on every client answer (docs/bank-transfers.md "Client credit"): the answer's
 * client (or each listed client) gains `virtual_account` and `credit_balance` — read with the client by a write that
 * names it (update, delete), known to be none for a client a write creates, else read in one BatchGet after (a
 * listing, a client found by e-mail).
 */

import { NO_CREDIT } from '../domain/client-credit.ts';
import { isRecord } from '../guards.ts';
import { isFailure, type Outcome } from '../outcome.ts';
import { bankingFields, type ClientBanking } from '../representation/bank-transfer-answers.ts';
import { batchGet } from '../store/batch.ts';
import { clientCreditKey, creditFrom } from '../store/client-credit.ts';
import type { Item } from '../store/items.ts';
import type { Key } from '../store/keys.ts';
import { virtualAccountFrom, virtualAccountKey } from '../store/virtual-accounts.ts';
import type { WriteResult } from '../store/write-executor.ts';

/** A client a write creates has neither. */
export const NO_BANKING: ClientBanking = { virtualAccount: undefined, credit: NO_CREDIT };

/** The two items of a client's banking, for a write's batch read. */
export const bankingKeys = (companyId: number, clientId: number): Key[] => [
  virtualAccountKey(companyId, clientId),
  clientCreditKey(companyId, clientId),
];

export const bankingFrom = (items: Map<string, Item>, companyId: number, clientId: number): ClientBanking => ({
  virtualAccount: virtualAccountFrom(items, companyId, clientId),
  credit: creditFrom(items, companyId, clientId),
});

/** An answer about one client with its banking fields (refusals pass through). */
export function withBankingFields(response: Outcome, banking: ClientBanking): Outcome {
  if (isFailure(response) || !isRecord(response.data)) return response;
  return { ...response, data: { ...response.data, ...bankingFields(banking) } };
}

/** Each client's account and credit, by client id (one BatchGet of two items per client). */
export async function bankingOfClients(companyId: number, clientIds: readonly number[]) {
  const items = await batchGet(clientIds.flatMap((id) => bankingKeys(companyId, id)));
  return new Map<number, ClientBanking>(clientIds.map((id) => [id, bankingFrom(items, companyId, id)]));
}

/** A write's answer about a client it did not know before reading, with that client's banking read after. */
export async function withClientBanking(companyId: number, result: WriteResult): Promise<WriteResult> {
  const { response } = result;
  if (isFailure(response) || !isRecord(response.data)) return result;
  const clientId = Number(response.data.id);
  if (!Number.isSafeInteger(clientId)) return result;
  const banking = (await bankingOfClients(companyId, [clientId])).get(clientId)!;
  return { ...result, response: withBankingFields(response, banking) };
}
