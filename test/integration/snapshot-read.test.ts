/**
 * The snapshot read (shared/store/write-executor.ts `snapshotGet`: TransactGetItems) on DynamoDB Local: what it
 * returns, its limit of 100 items, and what a transaction in progress on one of its items makes of it — a conflict
 * the write executor reads again after, never an error answer (docs/decisions.md "Snapshot reads").
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { keyId } from '../../shared/store/batch.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { MAX_SNAPSHOT_KEYS, SnapshotConflictError, snapshotGet } from '../../shared/store/write-executor.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

afterEach(() => dynamoHooks.clear());

const cancelled = (code: string) =>
  Object.assign(new Error('Transaction cancelled'), {
    name: 'TransactionCanceledException',
    CancellationReasons: [{ Code: 'None' }, { Code: code }],
  });

async function putItems(prefix: string, count: number) {
  const items = Array.from({ length: count }, (_, i) => ({ PK: `${prefix}#${i}`, SK: 'TEST', n: i }));
  for (let i = 0; i < items.length; i += 25) {
    const chunk = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: chunk } }));
  }
  return items.map(({ PK, SK }) => ({ PK, SK }));
}

describe('snapshotGet', () => {
  it('returns the found items by key, leaves missing ones out, and reads keys past the 100th after the snapshot', async () => {
    // Prepare
    const prefix = `SNAPSHOT#${Date.now()}`;
    const stored = await putItems(prefix, MAX_SNAPSHOT_KEYS + 30);
    const missing = { PK: `${prefix}#missing`, SK: 'TEST' };
    const commands: string[] = [];
    dynamoHooks.add({ before: (c) => void commands.push(c.command) });
    // Act
    const found = await snapshotGet([missing, ...stored, stored[0]!]);
    // Assess
    expect(found.size).toBe(stored.length);
    expect(found.get(keyId(stored[7]!))).toMatchObject({ n: 7 });
    expect(found.has(keyId(missing))).toBe(false);
    expect(commands).toEqual(['TransactGetItemsCommand', 'BatchGetItemCommand']);
  });

  it('turns a transaction in progress on an item into SnapshotConflictError, and passes other cancellations on', async () => {
    const [key] = await putItems(`SNAPSHOT#${Date.now()}`, 1);
    let code = 'TransactionConflict';
    dynamoHooks.add({
      before: (c) => {
        if (c.command === 'TransactGetItemsCommand') throw cancelled(code);
      },
    });
    await expect(snapshotGet([key!])).rejects.toBeInstanceOf(SnapshotConflictError);
    code = 'ThrottlingError';
    await expect(snapshotGet([key!])).rejects.toMatchObject({ name: 'TransactionCanceledException' });
  });

  it('a reversal whose snapshot met a transaction in progress reads again after a pause and answers its outcome', async () => {
    // Prepare
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const body = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'Cash' };
    const id = String((await call('add-payment', { key, body })).body.data.id);
    let conflicts = 2;
    dynamoHooks.add({
      before: (c) => {
        if (c.command === 'TransactGetItemsCommand' && conflicts-- > 0) throw cancelled('TransactionConflict');
      },
    });
    // Act
    const result = await call('reverse-payment', { key, pathParameters: { id }, body: { reason: 'Keyed twice' } });
    // Assess
    expect(result.status, result.rawBody).toBe(200);
    expect(conflicts).toBe(-1);
  });
});
