/**
 * The one way a data migration reads the whole table: a strongly consistent Scan, page by page. Each request reads at
 * most SCAN_PAGE_ITEMS items, so that it stays well within the client's per-request timeout (1.5 s,
 * shared/store/dynamodb-client.ts) on a large table and a busy DynamoDB Local — a page's 1 MB default did not.
 */
import { ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../../shared/store/dynamodb-client.ts';
import type { Item } from '../../../shared/store/items.ts';

export const SCAN_PAGE_ITEMS = 500;

/** Every item the filter keeps, in table order. */
export async function* scanTable(
  filter: Pick<
    ScanCommandInput,
    'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues' | 'ProjectionExpression'
  >,
): AsyncGenerator<Item> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        ...filter,
        ConsistentRead: true,
        Limit: SCAN_PAGE_ITEMS,
        ExclusiveStartKey: start,
      }),
    );
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start);
}
