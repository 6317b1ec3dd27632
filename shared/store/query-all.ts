/**
 * Every item of one consistent Query, page after page: what the day-row reports (period totals, tax days) and an
 * invoice's credit notes read whole.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';

export async function queryAll(
  query: Pick<QueryCommandInput, 'KeyConditionExpression' | 'ExpressionAttributeValues'>,
): Promise<Item[]> {
  const items: Item[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        ...query,
        ConsistentRead: true,
        ...(after ? { ExclusiveStartKey: after } : {}),
      }),
    );
    items.push(...(result.Items ?? []));
    after = result.LastEvaluatedKey;
  } while (after);
  return items;
}
