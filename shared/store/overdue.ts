/**
 * The wake index (GSI2, docs/data-design.md "Wake index"): open invoice headers that may still need `invoice.overdue`
 * or a reminder, by the next date something may be due. The sweep (services/sweep-overdue.ts) reads it shard by shard
 * and, for each invoice, writes in one transaction what it decided — the overdue stamp and its event, a reminder with
 * its mail job and event — and the next wake date, or takes the invoice out of the index. Every write is conditional
 * on the state it was decided on (the index key read, the version, the reminders sent), so a sweep that runs twice,
 * concurrently or late changes nothing twice.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { cancellationReasons } from './database-errors.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { keys, OVERDUE_INDEX_SHARDS, overdueIndexKeys, referenceCodeOf } from './keys.ts';
import { TABLE } from './table.ts';
import { commitTransaction, type TransactItem } from './transaction.ts';

export { OVERDUE_INDEX_SHARDS };

export interface WakeHit {
  referenceCode: string;
  companyId: number;
  /** The entry's sort key as read: the sweep's write is conditional on it. */
  indexKey: string;
}

const isConditionFailure = (error: unknown) =>
  cancellationReasons(error) !== undefined || (error as Error).name === 'ConditionalCheckFailedException';

/** The index entries of one shard whose wake date is `isoDate` (YYYY-MM-DD) or earlier, a page at a time. */
export async function* invoicesToWake(shard: number, isoDate: string): AsyncGenerator<WakeHit[]> {
  const index = TABLE.overdueIndex;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk AND #sk <= :through',
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
        ExpressionAttributeValues: {
          ':pk': overdueIndexKeys.partition(shard),
          ':through': overdueIndexKeys.through(isoDate),
        },
        Limit: 100,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    const hits = (result.Items ?? []).map((item) => ({
      referenceCode: referenceCodeOf(String(item.PK)),
      companyId: Number(item.company_id),
      indexKey: String(item[index.sortKey]),
    }));
    if (hits.length > 0) yield hits;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}

/** What the sweep writes on one invoice header. */
export interface SweepChange {
  referenceCode: string;
  /** The index sort key read (a wake written since makes the write fail: the next sweep decides again). */
  indexKey: string;
  /** The next wake date (YYYY-MM-DD); undefined takes the invoice out of the index. */
  nextWake: string | undefined;
  /** Set when the write carries events: they describe the header at this version, still open. */
  version?: number;
  /** `YYYY-MM-DD HH:MM:SS`: stamps `overdue_notified_at`, on condition it was never stamped. */
  overdueAt?: string;
  /** Appends a reminder, on condition it is not paused and the reminders sent are still the `sentBefore` read. */
  reminder?: { offset: number; sentAt: string; sentBefore: number };
}

export function sweepHeaderAction(table: string, change: SweepChange): TransactItem {
  const index = TABLE.overdueIndex;
  const conditions = ['attribute_exists(#pk)', '#sk = :read'];
  const values: Item = { ':read': change.indexKey };
  const set: string[] = [];
  if (change.version !== undefined) {
    conditions.push('version = :version', 'amount_due > :zero', 'attribute_not_exists(deleted_at)');
    Object.assign(values, { ':version': change.version, ':zero': 0 });
  }
  if (change.overdueAt !== undefined) {
    conditions.push('attribute_not_exists(overdue_notified_at)');
    set.push('overdue_notified_at = :overdue_at');
    values[':overdue_at'] = change.overdueAt;
  }
  const { reminder } = change;
  if (reminder) {
    conditions.push('(attribute_not_exists(reminders_paused) OR reminders_paused = :false)');
    conditions.push(reminder.sentBefore === 0 ? 'attribute_not_exists(reminders)' : 'size(reminders) = :sent_before');
    set.push('reminders = list_append(if_not_exists(reminders, :none), :reminder)');
    Object.assign(values, {
      ':false': false,
      ':none': [],
      ':reminder': [{ offset: reminder.offset, sent_at: reminder.sentAt }],
    });
    if (reminder.sentBefore > 0) values[':sent_before'] = reminder.sentBefore;
  }
  if (change.nextWake !== undefined) {
    set.push('#sk = :next');
    values[':next'] = overdueIndexKeys.sort(change.nextWake, change.referenceCode);
  }
  const remove = change.nextWake === undefined ? ' REMOVE #pk2, #sk' : '';
  return {
    Update: {
      TableName: table,
      Key: keys.invoiceHeader(change.referenceCode),
      ConditionExpression: conditions.join(' AND '),
      UpdateExpression: `${set.length > 0 ? `SET ${set.join(', ')}` : ''}${remove}`,
      ExpressionAttributeNames: {
        '#pk': TABLE.partitionKey,
        '#sk': index.sortKey,
        ...(remove ? { '#pk2': index.partitionKey } : {}),
      },
      ExpressionAttributeValues: values,
    },
  };
}

/** Commits the sweep's write on one invoice (with its events and mail job); false when what it read has changed. */
export async function commitSweep(actions: TransactItem[]): Promise<boolean> {
  try {
    await commitTransaction(actions);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
