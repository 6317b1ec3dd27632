/**
 * A snapshot read: TransactGetItems, which DynamoDB serialises with every TransactWriteItems, so the items it
 * returns are as of one instant — never half of another request's transaction. BatchGetItem (batch.ts) is
 * consistent per item only: a transaction that commits while it runs can be seen in one item and not in the next.
 * A snapshot read costs twice the read units of a strongly consistent one (docs/cost.md, docs/decisions.md
 * "Snapshot reads").
 */
import { TransactGetCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, keyId } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import type { Key } from './keys.ts';

/** DynamoDB's limit of items per TransactGetItems. */
export const MAX_SNAPSHOT_KEYS = 100;

/** A transaction was writing one of the items: nothing was read; read again after a pause. */
export class SnapshotConflictError extends Error {
  constructor() {
    super('A snapshot read met a transaction in progress');
    this.name = 'SnapshotConflictError';
  }
}

type Cancellation = { Code?: string }[];

function snapshotConflict(error: unknown): boolean {
  const { name, CancellationReasons } = (error ?? {}) as { name?: string; CancellationReasons?: Cancellation };
  if (name !== 'TransactionCanceledException') return false;
  return (CancellationReasons ?? []).every(
    (r) => r.Code === undefined || ['None', 'TransactionConflict'].includes(r.Code),
  );
}

/**
 * Reads `requested` as of one instant; returns the found items by `PK\0SK` (a missing key is absent), like
 * `batchGet`. Only the first 100 distinct keys can share an instant: any further ones are read after it,
 * consistent per item, so a caller puts there only items that change in one direction and that its commit's
 * conditions cover (a reversal's long chain of reversed payments). Throws `SnapshotConflictError` when a
 * transaction was writing one of the items.
 */
export async function snapshotGet(requested: readonly Key[]): Promise<Map<string, Item>> {
  const unique = [...new Map(requested.map((key) => [keyId(key), key])).values()];
  const inSnapshot = unique.slice(0, MAX_SNAPSHOT_KEYS);
  const table = tableName();
  let responses: { Item?: Record<string, unknown> }[];
  try {
    const result = await documentClient().send(
      new TransactGetCommand({ TransactItems: inSnapshot.map((Key) => ({ Get: { TableName: table, Key } })) }),
    );
    responses = result.Responses ?? [];
  } catch (error) {
    if (snapshotConflict(error)) throw new SnapshotConflictError();
    throw error;
  }
  const found = new Map<string, Item>();
  for (const response of responses) if (response?.Item) found.set(keyId(response.Item), response.Item as Item);
  const after = unique.slice(MAX_SNAPSHOT_KEYS);
  if (after.length > 0) for (const [id, item] of await batchGet(after)) found.set(id, item);
  return found;
}
