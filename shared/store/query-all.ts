/**
 * Every item of one consistent Query, page after page: what the reads that need a whole partition's range take (the
 * day-row reports, the aging rows, an invoice's credit notes, a client's ledger lines, an account's keys). A Query
 * of an index cannot be consistent, and a listing reads one page at a time: those page by hand.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';

export async function queryAll(
  query: Omit<QueryCommandInput, 'TableName' | 'ConsistentRead' | 'IndexName' | 'ExclusiveStartKey'>,
): Promise<Item[]> {
  const items: Item[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        ...query,
        TableName: tableName(),
        ConsistentRead: true,
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    items.push(...(result.Items ?? []));
    after = result.LastEvaluatedKey;
  } while (after);
  return items;
}
