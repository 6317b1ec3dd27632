/**
 * The wake index (GSI2, docs/data-design.md "Wake index"): items something may still be due for, by the next date it
 * may be. What an entry wakes is told by its item's own key (`WAKE_KINDS`): an invoice header, open, that may
 * still need `invoice.overdue` or a reminder; an active recurring series, on its next period's issue date
 * (store/recurring.ts); card-collection attempts would be a kind of their own. The wake sweep (services/wake-sweep.ts) reads it shard by shard and hands each kind's hits to that kind's
 * handler, which writes in one transaction what it decided and the next wake date, or takes the item out of the
 * index (an invoice header's: store/invoices.ts `sweepHeaderAction`). Every write is conditional on the state it was
 * decided on (the index key read, the version, the reminders sent), so a sweep that runs twice, concurrently or late
 * changes nothing twice. Waking an item now (a new schedule, a resumed reminder, a reversal that re-opens an invoice)
 * puts it back with a fresh key.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from './accounts.ts';
import { cancellationReasons } from './database-errors.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import { wakeAction } from './invoices.ts';
import {
  type Key,
  keys,
  openInvoiceKeys,
  recurringIdOfKey,
  referenceCodeOf,
  WAKE_INDEX_SHARDS,
  wakeIndexKeys,
} from './keys.ts';
import { TABLE } from './table.ts';
import { commitTransaction, type TransactItem } from './write-executor.ts';

export { WAKE_INDEX_SHARDS };

/**
 * What an entry of the wake index wakes, by its item's key (the index projects the table's keys): an invoice header
 * wakes its invoice. A new kind is its key's shape here and its handler in services/wake-sweep.ts.
 */
export const WAKE_KINDS = {
  invoice: (key: Key) => {
    const header = keys.invoiceHeader(referenceCodeOf(key.PK));
    return header.PK === key.PK && header.SK === key.SK;
  },
  recurring: (key: Key) => {
    const series = keys.recurringSeries(recurringIdOfKey(key.PK));
    return series.PK === key.PK && series.SK === key.SK;
  },
  /** An invoice's automatic collection with a saved card, when an attempt is to come (store/card-collections.ts). */
  cardCollection: (key: Key) => {
    const collection = keys.cardCollection(key.PK.slice(key.PK.indexOf('#') + 1));
    return collection.PK === key.PK && collection.SK === key.SK;
  },
} as const;
export type WakeKind = keyof typeof WAKE_KINDS;

const wakeKindOf = (key: Key): WakeKind | undefined =>
  (Object.keys(WAKE_KINDS) as WakeKind[]).find((kind) => WAKE_KINDS[kind](key));

/** The id of what an entry wakes: an invoice's reference code for both kinds (both are keyed by it). */
const wakeIdOf = (kind: WakeKind | undefined, key: Key): string => {
  if (kind === 'invoice') return referenceCodeOf(key.PK);
  if (kind === 'cardCollection') return key.PK.slice(key.PK.indexOf('#') + 1);
  if (kind === 'recurring') return recurringIdOfKey(key.PK);
  return key.PK;
};

/** What a kind's handler is given with its hits, besides the hits (services/wake-sweep.ts runs the sweep). */
export interface WakeRun {
  /** The instant whose calendar dates decide (the clock; `CLOCK_OFFSET_MS` moves it locally: shared/clock.ts). */
  now: Date;
  /** The real time of the writes (an event's `created_at`, `overdue_notified_at`, a reminder's `sent_at`). */
  writtenAt: () => Date;
  /** An account, read once per run. */
  account(companyId: number): Promise<Account | undefined>;
}

export interface WakeHit {
  /** What wakes; undefined for an entry of no kind this code knows (left alone). */
  kind: WakeKind | undefined;
  /** Its id: an invoice's reference code (of its header, or of its automatic collection), a series' id. */
  id: string;
  companyId: number;
  /** The entry's sort key as read: the sweep's write is conditional on it. */
  indexKey: string;
}

const isConditionFailure = (error: unknown) =>
  cancellationReasons(error) !== undefined || (error as Error).name === 'ConditionalCheckFailedException';

/** The index entries of one shard whose wake date is `isoDate` (YYYY-MM-DD) or earlier, a page at a time. */
export async function* dueToWake(shard: number, isoDate: string): AsyncGenerator<WakeHit[]> {
  const index = TABLE.wakeIndex;
  let startKey: Record<string, unknown> | undefined;
  do {
    const result = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: index.name,
        KeyConditionExpression: '#pk = :pk AND #sk <= :through',
        ExpressionAttributeNames: { '#pk': index.partitionKey, '#sk': index.sortKey },
        ExpressionAttributeValues: {
          ':pk': wakeIndexKeys.partition(shard),
          ':through': wakeIndexKeys.through(isoDate),
        },
        Limit: 100,
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    const hits = (result.Items ?? []).map((item) => {
      const key = { PK: String(item[TABLE.partitionKey]), SK: String(item[TABLE.sortKey]) };
      const kind = wakeKindOf(key);
      return {
        kind,
        id: wakeIdOf(kind, key),
        companyId: Number(item.company_id),
        indexKey: String(item[index.sortKey]),
      };
    });
    if (hits.length > 0) yield hits;
    startKey = result.LastEvaluatedKey;
  } while (startKey);
}

/** Commits the sweep's write on one item (with its events and jobs); false when what it read has changed. */
export async function commitWake(actions: TransactItem[]): Promise<boolean> {
  try {
    await commitTransaction(actions);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * Wakes every open invoice of the account (its `OPENINVOICES#` items: docs/data-design.md "Receivables") at the next
 * sweep: what `account:update --reminders` does, so a schedule set later applies to existing invoices. An invoice
 * settled or voided meanwhile is left alone. Returns how many were woken.
 */
export async function wakeOpenInvoices(companyId: number): Promise<number> {
  let woken = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': openInvoiceKeys.partition(companyId) },
        ProjectionExpression: 'reference_code',
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) if (await wake(String(item.reference_code))) woken++;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return woken;
}

/** False when the invoice is gone, settled or voided (left alone). */
async function wake(referenceCode: string): Promise<boolean> {
  try {
    await documentClient().send(new UpdateCommand(wakeAction(tableName(), referenceCode).Update!));
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException' || cancellationReasons(error)) return false;
    throw error;
  }
}
