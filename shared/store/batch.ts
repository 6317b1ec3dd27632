/** BatchGetItem with strongly consistent reads, in chunks of 100 keys, retrying unprocessed keys. */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import type { Key } from './keys.ts';

const MAX_KEYS_PER_BATCH = 100;
const MAX_UNPROCESSED_ROUNDS = 8;

/** How an item or key is found in the map `batchGet` returns. */
export const keyId = (key: { PK?: unknown; SK?: unknown }): string => `${String(key.PK)}\u0000${String(key.SK)}`;

/** Returns the found items by `PK\0SK`; a missing key is simply absent from the map. Chunks are read concurrently. */
export async function batchGet(requested: readonly Key[]): Promise<Map<string, Item>> {
  const unique = [...new Map(requested.map((key) => [keyId(key), key])).values()];
  const chunks: Key[][] = [];
  for (let offset = 0; offset < unique.length; offset += MAX_KEYS_PER_BATCH)
    chunks.push(unique.slice(offset, offset + MAX_KEYS_PER_BATCH));
  const found = new Map<string, Item>();
  for (const items of await Promise.all(chunks.map(readChunk))) {
    for (const item of items) found.set(keyId(item), item);
  }
  return found;
}

async function readChunk(keys: Key[]): Promise<Item[]> {
  const table = tableName();
  const items: Item[] = [];
  let pending = keys;
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
    items.push(...(result.Responses?.[table] ?? []));
    pending = (result.UnprocessedKeys?.[table]?.Keys ?? []) as Key[];
  }
  return items;
}

export const itemOf = (items: Map<string, Item>, key: Key): Item | undefined => items.get(keyId(key));
