/** Transaction actions shared by the entity modules. */

import type { Item } from './items.ts';
import type { Key } from './keys.ts';
import type { TransactItem } from './write-executor.ts';

/** Put `item` on condition that no item has its key yet. */
export const putNew = (table: string, item: Item): TransactItem => ({
  Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' },
});

/** Commit only if the item at `key` (read by the decision) still exists. */
export const stillExists = (table: string, key: Key): TransactItem => ({
  ConditionCheck: { TableName: table, Key: key, ConditionExpression: 'attribute_exists(PK)' },
});
