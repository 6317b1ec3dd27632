/**
 * A history page's body stays under 5,000,000 bytes (AWS Lambda cannot return more than 6 MB): with real
 * oversized data — 50 payments on an invoice with 60 long items (~106 KB per payment view, 5.3 MB in all) —
 * the first page ends early with a cursor, and the pages together hold every payment exactly once.
 */
import { describe, expect, it } from 'vitest';
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
});
