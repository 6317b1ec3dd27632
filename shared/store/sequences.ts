/**
 * Per-account integer ids. Each process reserves a block of ids from the account's sequence item with
 * one atomic `ADD` and hands them out from memory. No write transaction touches a sequence item, so
 * concurrent writes of one account never contend on it; uniqueness holds because blocks are disjoint
 * (and payments and clients are also keyed by id, with `attribute_not_exists`). Ids increase within a
 * process; across processes they interleave, and ids of a block a process never used are skipped.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { keys, type SequenceName } from './keys';

/** Ids per reservation: one extra request every BLOCK_SIZE ids, and at most BLOCK_SIZE − 1 skipped per process. */
export const BLOCK_SIZE = 25;

interface Block {
  next: number;
  last: number;
}

const blocks = new Map<string, Block>();
const refills = new Map<string, Promise<Block>>();

async function reserveBlock(companyId: number, name: SequenceName): Promise<Block> {
  const result = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.sequence(companyId, name),
      UpdateExpression: 'ADD #value :size SET entity = :entity',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':size': BLOCK_SIZE, ':entity': 'sequence' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(result.Attributes?.value);
  return { next: last - BLOCK_SIZE + 1, last };
}

/** The next id of `name` for the account. */
export async function nextId(companyId: number, name: SequenceName): Promise<number> {
  const id = `${companyId}#${name}`;
  for (;;) {
    const block = blocks.get(id);
    if (block && block.next <= block.last) return block.next++;
    // One reservation in flight per sequence; concurrent callers wait for it, then take ids from it.
    let refill = refills.get(id);
    if (!refill) {
      refill = reserveBlock(companyId, name)
        .then((reserved) => {
          blocks.set(id, reserved);
          return reserved;
        })
        .finally(() => refills.delete(id));
      refills.set(id, refill);
    }
    await refill;
  }
}

/** Drops this process's reserved blocks, as a new process (a new Lambda instance) would start. For tests. */
export function forgetIdBlocks(): void {
  blocks.clear();
}
