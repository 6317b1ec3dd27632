/**
 * `data:migrate`'s fifth step, for client credit recorded before aging showed unapplied credit (docs/receivables.md
 * "Who owes you what: aging"): until it runs, a client whose credit has not changed since has no item in the
 * account's credit listing, so aging leaves its credit out. Each balance above zero without a listing item gets one in
 * a transaction that checks the balance is still at the version read and puts the item on condition it is new: a
 * credit change meanwhile writes the item itself, so running it twice, or while the API serves, never leaves a stale
 * balance. Reads the whole table once (a Scan): an operator command, never part of a request.
 *
 * Removal date: 2026-12-31, once `data:migrate` has printed `"credit_listed":0` on every stage and every DATA_DIR still
 * in use (docs/operations.md "Retiring a migration"). Nothing of the runtime goes with it.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../../../shared/store/api-keys.ts';
import { documentClient, tableName } from '../../../shared/store/dynamodb-client.ts';
import type { Item } from '../../../shared/store/items.ts';
import { keys } from '../../../shared/store/keys.ts';
import { putNew } from '../../../shared/store/write-executor.ts';
import type { DataMigration } from './migration-step.ts';
import { scanTable } from './table-scan.ts';

/** Credit balances above zero, in one Scan of the table. */
async function balancesHeld(): Promise<Item[]> {
  const found: Item[] = [];
  const items = scanTable({
    FilterExpression: 'entity = :credit AND #balance > :zero',
    ExpressionAttributeNames: { '#balance': 'balance', '#version': 'version' },
    ExpressionAttributeValues: { ':credit': 'client_credit', ':zero': 0 },
    ProjectionExpression: 'PK, SK, company_id, client_id, #balance, #version',
  });
  for await (const item of items) found.push(item);
  return found;
}

/** Lists one client's credit; false when it is listed already or its credit changed meanwhile. */
async function listCredit(balance: Item): Promise<boolean> {
  const table = tableName();
  const [companyId, clientId] = [Number(balance.company_id), Number(balance.client_id)];
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: table,
              Key: { PK: balance.PK, SK: balance.SK },
              ConditionExpression: 'version = :version',
              ExpressionAttributeValues: { ':version': balance.version },
            },
          },
          putNew(table, {
            ...keys.creditListing(companyId, clientId),
            entity: 'credit_listing',
            company_id: companyId,
            client_id: clientId,
            balance: Number(balance.balance),
          }),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error, 0) || isConditionFailure(error, 1)) return false;
    throw error;
  }
}

/** Lists every client credit not listed yet; returns how many it listed. Idempotent. */
export async function migrateCreditListing(): Promise<number> {
  let listed = 0;
  for (const balance of await balancesHeld()) if (await listCredit(balance)) listed++;
  return listed;
}

export const creditListingMigration: DataMigration = {
  name: 'credit-listing',
  summary: 'list client credit recorded before aging showed unapplied credit',
  prints: '"credit_listed" (client credit balances added to the account\'s credit listing)',
  run: async () => ({ credit_listed: await migrateCreditListing() }),
};
