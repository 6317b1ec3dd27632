/** Per-account integer ids from blocks of the account's sequence (shared/store/sequences.ts). */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { BLOCK_SIZE, forgetIdBlocks } from '../../shared/store/sequences.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

const pay = (key: string, reference_code: string) =>
  call('add-payment', { key, body: { reference_code, date: todayMonthFirst(), amount: '1', channel: 'Cash' } });

async function sequenceValue(companyId: number, name: 'payment' | 'invoice') {
  const item = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.sequence(companyId, name), ConsistentRead: true }),
  );
  return Number(item.Item?.value ?? 0);
}

describe('id blocks', () => {
  it('keeps every payment at one read plus one transaction, refilling blocks inside the transaction', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: 'Plan', description: 'Yearly', unit_cost: '100000', quantity: '1' }],
    });
    const commands: string[] = [];
    const remove = dynamoHooks.add({ before: (c) => void commands.push(c.command) });
    const ids: number[] = [];
    try {
      for (let i = 0; i < 2 * BLOCK_SIZE + 1; i++) {
        const result = await pay(key, invoice.reference_code);
        expect(result.status).toBe(201);
        ids.push(result.body.data.id);
      }
    } finally {
      remove();
    }
    const requests = 2 * BLOCK_SIZE + 1;
    expect(commands.filter((c) => c.startsWith('BatchGetItem'))).toHaveLength(requests);
    expect(commands.filter((c) => c.startsWith('TransactWriteItems'))).toHaveLength(requests);
    expect(commands).toHaveLength(2 * requests); // nothing else: no separate id reservation
    expect(ids).toEqual(Array.from({ length: requests }, (_, i) => i + 1));
    expect(await sequenceValue(account.companyId, 'payment')).toBe(3 * BLOCK_SIZE);
  });

  it('hands out distinct ids to concurrent writes of one account, still one read and one transaction each', async () => {
    const { key } = await newAccount();
    const invoices = await Promise.all(Array.from({ length: 2 * BLOCK_SIZE }, () => createInvoice(key)));
    expect(new Set(invoices.map((i) => i.id)).size).toBe(invoices.length);
    const commands: string[] = [];
    const remove = dynamoHooks.add({ before: (c) => void commands.push(c.command) });
    const payments: Awaited<ReturnType<typeof pay>>[] = [];
    try {
      // Eight at a time, across block boundaries: requests of one process wait for a refill instead of racing it.
      for (let i = 0; i < invoices.length; i += 8) {
        payments.push(
          ...(await Promise.all(invoices.slice(i, i + 8).map((invoice) => pay(key, invoice.reference_code)))),
        );
      }
    } finally {
      remove();
    }
    expect(payments.map((p) => p.status)).toEqual(Array(invoices.length).fill(201));
    expect(new Set(payments.map((p) => p.body.data.id)).size).toBe(invoices.length);
    expect(commands.filter((c) => c.startsWith('BatchGetItem'))).toHaveLength(invoices.length);
    expect(commands.filter((c) => c.startsWith('TransactWriteItems'))).toHaveLength(invoices.length);
  });

  it('gives a new process (a new Lambda instance) a disjoint block', async () => {
    const { key } = await newAccount();
    const first = await createInvoice(key);
    forgetIdBlocks();
    const second = await createInvoice(key);
    expect(second.id).toBe(first.id + BLOCK_SIZE);
  });

  it('derives line item ids from the invoice id, so they never repeat within an account', async () => {
    const { key } = await newAccount();
    const items = Array.from({ length: 3 }, (_, i) => ({
      item: `I${i}`,
      description: 'd',
      unit_cost: '1',
      quantity: '1',
    }));
    const a = await createInvoice(key, { items });
    const b = await createInvoice(key, { items });
    expect(a.items.map((i: any) => i.id)).toEqual([1, 2, 3].map((n) => String(a.id * 1000 + n)));
    expect(new Set([...a.items, ...b.items].map((i: any) => i.id)).size).toBe(6);
  });
});
