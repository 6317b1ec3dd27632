/**
 * A client's virtual account and credit on every client answer (docs/bank-transfers.md "Client credit"): the answer's
 * client (or each listed client) gains `virtual_account` and `credit_balance`, as read in one BatchGet after the
 * client was written or listed.
 */
import { isRecord } from '../guards.ts';
import { isFailure } from '../outcome.ts';
import { bankingFields, type ClientBanking } from '../representation/bank-transfer-answers.ts';
import { batchGet } from '../store/batch.ts';
import { clientCreditKey, creditFrom } from '../store/client-credit.ts';
import { virtualAccountFrom, virtualAccountKey } from '../store/virtual-accounts.ts';
import type { WriteResult } from '../store/write-executor.ts';

/** Each client's account and credit, by client id (one BatchGet of two items per client). */
export async function bankingOfClients(companyId: number, clientIds: readonly number[]) {
  const items = await batchGet(
    clientIds.flatMap((id) => [virtualAccountKey(companyId, id), clientCreditKey(companyId, id)]),
  );
  return new Map<number, ClientBanking>(
    clientIds.map((id) => [
      id,
      { virtualAccount: virtualAccountFrom(items, companyId, id), credit: creditFrom(items, companyId, id) },
    ]),
  );
}

/** A write's answer about one client, with that client's banking fields (refusals pass through). */
export async function withClientBanking(companyId: number, result: WriteResult): Promise<WriteResult> {
  const { response } = result;
  if (isFailure(response) || !isRecord(response.data)) return result;
  const clientId = Number(response.data.id);
  if (!Number.isSafeInteger(clientId)) return result;
  const banking = (await bankingOfClients(companyId, [clientId])).get(clientId)!;
  return { ...result, response: { ...response, data: { ...response.data, ...bankingFields(banking) } } };
}
