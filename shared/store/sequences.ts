/**
 * Per-account integer id sequences. An id is taken inside the same transaction that writes the
 * entity: the sequence item is set to its new value on condition that it still holds the value read.
 * No item is written by more than one tenant's requests.
 */
import { keys, type SequenceName } from './keys';
import type { Item } from './items';

export const sequenceValue = (item: Item | undefined): number => (item ? Number(item.value) : 0);

/** A TransactWriteItems action advancing `name` from `current` to `current + count`. */
export function advanceSequence(tableName: string, companyId: number, name: SequenceName, current: number, count: number) {
  return {
    Update: {
      TableName: tableName,
      Key: keys.sequence(companyId, name),
      UpdateExpression: 'SET #value = :next, entity = :entity',
      ConditionExpression: current === 0 ? 'attribute_not_exists(PK)' : '#value = :current',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: {
        ':next': current + count,
        ':entity': 'sequence',
        ...(current === 0 ? {} : { ':current': current }),
      },
    },
  };
}
