/** Per-account integer ids from blocks of the account's sequence (shared/store/sequences.ts). */
import { describe, expect, it } from 'vitest';
import { dynamoHooks } from '../../shared/store/client';
import { BLOCK_SIZE, forgetIdBlocks, nextId } from '../../shared/store/sequences';
import { createInvoice, newAccount } from '../support/api';

describe('id blocks', () => {
  it('hands out distinct increasing ids to concurrent callers with one reservation per block', async () => {
    const { account } = await newAccount();
    let reservations = 0;
    const remove = dynamoHooks.add({ before: (call) => void (call.command === 'UpdateCommand' || call.command === 'UpdateItemCommand' ? reservations++ : 0) });
    try {
      const ids = await Promise.all(Array.from({ length: 3 * BLOCK_SIZE }, () => nextId(account.companyId, 'payment')));
      expect(new Set(ids).size).toBe(ids.length);
      expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 3 * BLOCK_SIZE }, (_, i) => i + 1));
      expect(reservations).toBe(3);
    } finally {
      remove();
    }
  });

  it('gives a new process (a new Lambda instance) a disjoint block', async () => {
    const { account } = await newAccount();
    const first = await nextId(account.companyId, 'invoice');
    forgetIdBlocks();
    const second = await nextId(account.companyId, 'invoice');
    expect(second).toBe(first + BLOCK_SIZE);
  });

  it('derives line item ids from the invoice id, so they never repeat within an account', async () => {
    const { key } = await newAccount();
    const items = Array.from({ length: 3 }, (_, i) => ({ item: `I${i}`, description: 'd', unit_cost: '1', quantity: '1' }));
    const a = await createInvoice(key, { items });
    const b = await createInvoice(key, { items });
    expect(a.items.map((i: any) => i.id)).toEqual([1, 2, 3].map((n) => String(a.id * 1000 + n)));
    const all = [...a.items, ...b.items].map((i: any) => i.id);
    expect(new Set(all).size).toBe(6);
  });
});
