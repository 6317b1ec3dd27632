/** BatchGetItem with strongly consistent reads, in chunks of 100 keys, retrying unprocessed keys. */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import type { Key } from './keys';
import type { Item } from './items';

const MAX_KEYS_PER_BATCH = 100;
const MAX_UNPROCESSED_ROUNDS = 8;

const keyId = (key: { PK: unknown; SK: unknown }): string => `${String(key.PK)}\u0000${String(key.SK)}`;

/** Returns the found items by `PK\0SK`; a missing key is simply absent from the map. */
export async function batchGet(requested: readonly Key[]): Promise<Map<string, Item>> {
  const unique = [...new Map(requested.map((key) => [keyId(key), key])).values()];
  const found = new Map<string, Item>();
  const table = tableName();
  for (let offset = 0; offset < unique.length; offset += MAX_KEYS_PER_BATCH) {
    let pending: Key[] = unique.slice(offset, offset + MAX_KEYS_PER_BATCH);
    for (let round = 0; pending.length > 0; round++) {
      if (round > 0) {
        if (round > MAX_UNPROCESSED_ROUNDS) {
          throw Object.assign(new Error('BatchGetItem left keys unprocessed'), { name: 'ThrottlingException' });
        }
        await new Promise((r) => setTimeout(r, Math.min(20 * 2 ** round, 500) * Math.random()));
      }
      const result = await documentClient().send(
        new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of result.Responses?.[table] ?? []) found.set(keyId(item as Key), item);
      pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Key[];
    }
  }
  return found;
}

export const itemOf = (items: Map<string, Item>, key: Key): Item | undefined => items.get(keyId(key));
