/**
 * The listing index (`TABLE.listingIndex`, GSI1): what an account lists — its clients, payments, invoices, recurring
 * series, and the jobs and events the CLI shows — newest first, a page at a time. One Query per page; its positions
 * are what cursors carry (shared/http/ gives them their wire form).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { TABLE } from './table.ts';

/** A position in the index: the exclusive start key of a page that continues right after an item. */
export type ListingPosition = Record<string, string>;

/** The position right after `item`. */
export const indexPosition = (item: Record<string, unknown>): ListingPosition => ({
  PK: String(item.PK),
  SK: String(item.SK),
  GSI1PK: String(item.GSI1PK),
  GSI1SK: String(item.GSI1SK),
});

/** True when a position (a cursor's) lies in `partition`: a cursor from another account's list is refused. */
export const isPositionIn = (position: ListingPosition, partition: string): boolean =>
  position[TABLE.listingIndex.partitionKey] === partition;

export interface ListingQuery {
  /** The index partition listed (an entity's `…IndexKeys.partition(companyId)`). */
  partition: string;
  /** Inclusive bounds of the index sort key. */
  range?: { from: string; to: string };
  /** A filter on the stored items (a page may then hold fewer than `limit` and still continue). */
  filter?: { expression: string; values: Record<string, unknown> } | undefined;
  limit: number;
  after?: ListingPosition | undefined;
}

export interface ListingPage {
  items: Item[];
  /** Each item's position, in page order. */
  positions: ListingPosition[];
  /** Where the next page starts; undefined on the last page. */
  next: ListingPosition | undefined;
}

/** One page, newest first. */
export async function listingPage(query: ListingQuery): Promise<ListingPage> {
  const index = TABLE.listingIndex;
  const { range, filter } = query;
  // One extra item tells whether another page exists, so the last page says next_cursor: null.
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: index.name,
      KeyConditionExpression: range ? '#pk = :pk AND #sk BETWEEN :from AND :to' : '#pk = :pk',
      ...(filter ? { FilterExpression: filter.expression } : {}),
      ExpressionAttributeNames: { '#pk': index.partitionKey, ...(range ? { '#sk': index.sortKey } : {}) },
      ExpressionAttributeValues: {
        ':pk': query.partition,
        ...(range ? { ':from': range.from, ':to': range.to } : {}),
        ...filter?.values,
      },
      ScanIndexForward: false,
      Limit: query.limit + 1,
      ...(query.after ? { ExclusiveStartKey: query.after } : {}),
    }),
  );
  const read = result.Items ?? [];
  const items = read.slice(0, query.limit);
  const last = items[items.length - 1];
  // A page cut at the limit goes on after its last item; one the read stopped short (1 MB, or a filter that kept
  // fewer) goes on from where the read stopped.
  const next =
    read.length > query.limit && last ? indexPosition(last) : (result.LastEvaluatedKey as ListingPosition | undefined);
  return { items, positions: items.map(indexPosition), next };
}

/** The `limit` newest items of a partition (the CLI's lists). */
export const latestListed = async (partition: string, limit: number): Promise<Item[]> =>
  (await listingPage({ partition, limit })).items;
