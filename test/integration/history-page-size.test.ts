/**
 * A history page's body stays under 5,000,000 bytes (AWS Lambda cannot return more than 6 MB): with real
 * oversized data — 50 payments on an invoice with 60 long items (~106 KB per payment view, 5.3 MB in all) —
 * the first page ends early with a cursor, and the pages together hold every payment exactly once.
 * A page that ends at the cap reads only the invoices it can return (plus one), planned from the size each
 * payment had when it was recorded; payments without that size, or with a wrong one, give the same pages.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

describe('history pages end before 5,000,000 bytes', () => {
  it('50 payments of ~106 KB each: two pages, each under the cap, no payment skipped or repeated', async () => {
    const { key } = await newAccount();
    const items = Array.from({ length: 60 }, (_, i) => ({
      item: `${i}`.padEnd(500, 'i'),
      description: `${i}`.padEnd(500, 'd'),
      unit_cost: '100.00',
      quantity: '1',
    }));
    const invoice = await createInvoice(key, { items });
    const ids: number[] = [];
    for (let i = 0; i < 50; i++) {
      const result = await call('add-payment', {
        key,
        body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '1.00', channel: 'Cash' },
      });
      expect(result.status, result.rawBody).toBe(201);
      ids.push(result.body.data.id);
    }

    const seen: number[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('payment-history', {
        key,
        body: { period: 'today', limit: 500, ...(cursor ? { cursor } : {}) },
      });
      expect(page.status).toBe(200);
      sizes.push(Buffer.byteLength(page.rawBody));
      expect(page.body.data.payments.length).toBeGreaterThanOrEqual(1);
      seen.push(...page.body.data.payments.map((p: { id: number }) => p.id));
      cursor = page.body.data.next_cursor ?? undefined;
    } while (cursor);

    expect(sizes.length).toBeGreaterThanOrEqual(2);
    for (const size of sizes) expect(size).toBeLessThan(5_000_000);
    expect(sizes[0]).toBeGreaterThan(4_500_000); // the first page is filled, not cut arbitrarily
    expect(seen).toHaveLength(50);
    expect(new Set(seen)).toEqual(new Set(ids));
  }, 120_000);

  describe('invoice reads follow the recorded sizes', () => {
    afterEach(() => dynamoHooks.clear());

    const longItems = Array.from({ length: 60 }, (_, i) => ({
      item: `${i}`.padEnd(500, 'i'),
      description: `${i}`.padEnd(500, 'd'),
      unit_cost: '100.00',
      quantity: '1',
    }));

    /** The first page at `limit` 100 and the invoice keys its reads asked for. */
    async function firstPage(key: string) {
      let invoiceKeysRead = 0;
      const remove = dynamoHooks.add({
        before(c) {
          if (c.command !== 'BatchGetItemCommand') return;
          for (const request of Object.values(c.input.RequestItems as Record<string, { Keys: unknown[] }>))
            invoiceKeysRead += request.Keys.length;
        },
      });
      const page = await call('payment-history', { key, body: { period: 'today', limit: 100 } });
      remove();
      expect(page.status).toBe(200);
      return {
        ids: page.body.data.payments.map((p: { id: number }) => p.id) as number[],
        bytes: Buffer.byteLength(page.rawBody),
        nextCursor: page.body.data.next_cursor as string | null,
        invoiceKeysRead,
      };
    }

    async function setViewBytes(companyId: number, paymentIds: number[], value: (n: number) => number | undefined) {
      for (const [n, id] of paymentIds.entries()) {
        const size = value(n);
        await documentClient().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.payment(companyId, id),
            ...(size === undefined
              ? { UpdateExpression: 'REMOVE view_bytes' }
              : { UpdateExpression: 'SET view_bytes = :size', ExpressionAttributeValues: { ':size': size } }),
          }),
        );
      }
    }

    it('60 payments on 60 invoices of ~106 KB: the capped page reads its own invoices and one more, and the same page comes back without sizes or with wrong ones', async () => {
      // Prepare: each payment on its own large invoice.
      const { account, key } = await newAccount();
      const paymentIds: number[] = [];
      for (let i = 0; i < 60; i++) {
        const invoice = await createInvoice(key, { items: longItems });
        const paid = await call('add-payment', {
          key,
          body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '1.00', channel: 'Cash' },
        });
        expect(paid.status, paid.rawBody).toBe(201);
        paymentIds.push(paid.body.data.id);
      }

      // Act: as recorded.
      const planned = await firstPage(key);
      // Assess: the page ends at the cap and reads header and body of the invoices it returns, and of the next one.
      expect(planned.bytes).toBeLessThan(5_000_000);
      expect(planned.bytes).toBeGreaterThan(4_500_000);
      expect(planned.nextCursor).not.toBeNull();
      expect(planned.ids.length).toBeLessThan(60);
      expect(planned.invoiceKeysRead).toBe(2 * (planned.ids.length + 1));

      // Act: payments recorded before sizes were stored (none has one).
      await setViewBytes(account.companyId, paymentIds, () => undefined);
      const unknown = await firstPage(key);
      // Assess: every invoice of the query page is read, and the page is the same.
      expect(unknown.invoiceKeysRead).toBe(2 * 60);
      expect(unknown.ids).toEqual(planned.ids);

      // Act: recorded sizes twice the real ones (the plan reads too few), then a tenth of them (too many).
      await setViewBytes(account.companyId, paymentIds, () => 2 * 106_000);
      const overestimated = await firstPage(key);
      await setViewBytes(account.companyId, paymentIds, () => 10_600);
      const underestimated = await firstPage(key);
      // Assess: the same page either way; too-large sizes cost a second round of reads, never a shorter page.
      expect(overestimated.ids).toEqual(planned.ids);
      expect(overestimated.invoiceKeysRead).toBe(2 * 60);
      expect(underestimated.ids).toEqual(planned.ids);
      expect(underestimated.invoiceKeysRead).toBe(2 * 60);
    }, 180_000);
  });
});
