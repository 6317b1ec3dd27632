/**
 * The overdue index (GSI2, docs/data-design.md "Overdue"): open invoice headers not yet notified, by due date. The
 * sweep (services/sweep-overdue.ts) reads it shard by shard, and for each invoice either notifies it — one
 * transaction that stamps `overdue_notified_at`, leaves the index and puts the `invoice.overdue` outbox item — or,
 * when it is no longer open, only takes it out of the index. Every write is conditional on the state it was decided
 * on, so a sweep that runs twice, concurrently or late changes nothing twice.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookEvent } from '../domain/webhook-events.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import { OVERDUE_INDEX_ATTRIBUTES } from './invoices.ts';
import { keys, OVERDUE_INDEX_SHARDS, overdueIndexKeys, referenceCodeOf } from './keys.ts';
import { TABLE } from './table.ts';
import { commitTransaction } from './transaction.ts';
import { eventPuts } from './webhooks.ts';

export { OVERDUE_INDEX_SHARDS };

export interface OpenInvoiceHit {
  referenceCode: string;
  companyId: number;
}

const isConditionFailure = (error: unknown) =>
  ['TransactionCanceledException', 'ConditionalCheckFailedException'].includes((error as Error).name);

/** The index entries of one shard whose due date is before `isoDate` (YYYY-MM-DD), a page at a time. */
export async function* openInvoicesDueBefore(shard: number, isoDate: string): AsyncGenerator<OpenInvoiceHit[]> {
  const index = TABLE.overdueIndex;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk AND #sk < :before',
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
        ExpressionAttributeValues: {
          ':pk': overdueIndexKeys.partition(shard),
          ':before': overdueIndexKeys.before(isoDate),
        },
        Limit: 100,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    const hits = (result.Items ?? []).map((item) => ({
      referenceCode: referenceCodeOf(String(item.PK)),
      companyId: Number(item.company_id),
    }));
    if (hits.length > 0) yield hits;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}

/**
 * Notifies an overdue invoice: stamps `overdue_notified_at`, takes it out of the index and puts its event, on
 * condition that it is still in the index, open, never notified and in the state the event describes (`version`,
 * which this write leaves alone so that a concurrent payment is not refused). False when the condition failed:
 * another sweep did it, or the invoice changed meanwhile (then it is still in the index for the next run).
 */
export async function notifyOverdue(
  referenceCode: string,
  version: number,
  events: WebhookEvent[],
  nowMs: number,
): Promise<boolean> {
  const table = tableName();
  const index = TABLE.overdueIndex;
  try {
    await commitTransaction([
      {
        Update: {
          TableName: table,
          Key: keys.invoiceHeader(referenceCode),
          ConditionExpression:
            'attribute_exists(#pk) AND amount_due > :zero AND attribute_not_exists(deleted_at) AND ' +
            'attribute_not_exists(overdue_notified_at) AND version = :version',
          UpdateExpression: `SET overdue_notified_at = :at REMOVE ${OVERDUE_INDEX_ATTRIBUTES}`,
          ExpressionAttributeNames: { '#pk': index.partitionKey },
          ExpressionAttributeValues: { ':zero': 0, ':version': version, ':at': events[0]?.created_at ?? '' },
        },
      },
      ...eventPuts(events, nowMs, table),
    ]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Takes an invoice out of the index when it has no business there: no longer open (settled or deleted), or already
 * notified (a write that re-opened it put its keys back without knowing). Nothing if it is open and not notified.
 * True when it removed the keys.
 */
export async function leaveOverdueIndex(referenceCode: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceHeader(referenceCode),
        ConditionExpression:
          'attribute_exists(#pk) AND (amount_due <= :zero OR attribute_exists(deleted_at) OR ' +
          'attribute_exists(overdue_notified_at))',
        UpdateExpression: `REMOVE ${OVERDUE_INDEX_ATTRIBUTES}`,
        ExpressionAttributeNames: { '#pk': TABLE.overdueIndex.partitionKey },
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}
