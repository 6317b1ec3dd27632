/** Add payment and add invoice under concurrency (docs/api.md "Add payment", "Add invoice"): no overpayment, no lost or doubled payment, one client per email. */

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { paymentIndexKeys } from '../../shared/store/keys.ts';
import { call, createInvoice, invoiceBody, newAccount, todayMonthFirst, uniqueEmail } from '../support/api.ts';

const PARALLEL = 24;

describe('concurrent payments on one invoice', () => {
  it('keeps amount_paid = Σ recorded payments ≤ total under any interleaving', async () => {
    const { key, account } = await newAccount();
    // total 100.00; 24 payments of 7.00 cannot all fit: at most 14 (98.00) can be recorded.
    const invoice = await createInvoice(key, {
      items: [{ item: 'Plan', description: 'Annual', unit_cost: '100.00', quantity: '1' }],
    });
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        call('add-payment', {
          key,
          body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '7.00', channel: 'POS' },
          budgetMs: 30_000, // as in test/robustness/contention.test.ts: a busy machine must not decide the race (504)
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    for (const r of results) {
      expect([201, 409, 503], r.rawBody).toContain(r.status);
      if (r.status === 409) expect(r.body.code).toBe('amount_exceeds_balance');
      if (r.status === 503) expect(r.headers['retry-after']).toBeDefined();
    }
    expect(created.length).toBeGreaterThan(0);
    expect(created.length).toBeLessThanOrEqual(14);
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(created.length);

    const stored = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': paymentIndexKeys.partition(account.companyId) },
      }),
    );
    expect(stored.Items).toHaveLength(created.length);
    const history = await call('payment-history', { key, body: { period: 'today', limit: 500 } });
    const listed = history.body.data.payments;
    expect(listed.map((p: any) => p.id).sort()).toEqual(created.map((r) => r.body.data.id).sort());
    const paid = listed.reduce((sum: number, p: any) => sum + Math.round(Number(p.amount) * 100), 0);
    expect(listed[0].invoice.amount_paid).toBe((paid / 100).toFixed(2));
    expect(paid).toBeLessThanOrEqual(10_000);
    expect(listed[0].invoice.amount_due).toBe(((10_000 - paid) / 100).toFixed(2));
  });

  it('records every payment when they all fit (none lost)', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: 'Plan', description: 'Annual', unit_cost: '1000.00', quantity: '1' }],
    });
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call('add-payment', {
          key,
          idempotencyKey: `p-${i}`,
          body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'Cash' },
        }),
      ),
    );
    // A 503 is retryable: retrying with the same key must complete it exactly once.
    for (let i = 0; i < results.length; i++) {
      for (let tries = 0; results[i]!.status === 503 && tries < 5; tries++) {
        results[i] = await call('add-payment', {
          key,
          idempotencyKey: `p-${i}`,
          body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'Cash' },
        });
      }
    }
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const history = await call('payment-history', { key, body: { period: 'today' } });
    expect(history.body.data.payments).toHaveLength(12);
    expect(history.body.data.payments[0].invoice.amount_paid).toBe('120.00');
  });
});

describe('concurrent new-client invoices with one email', () => {
  it('creates exactly one client and every invoice points at it', async () => {
    const { key } = await newAccount();
    const email = uniqueEmail();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call('add-invoice', {
          key,
          body: invoiceBody({
            client: {
              first_name: `Name${i}`,
              last_name: 'X',
              email: i % 2 ? email.toUpperCase() : email,
              phone: '+2348012345678',
            },
          }),
        }),
      ),
    );
    for (const r of results) expect([201, 503], r.rawBody).toContain(r.status);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThan(0);
    expect(new Set(created.map((r) => r.body.data.client_id)).size).toBe(1);
    expect(new Set(created.map((r) => JSON.stringify(r.body.data.client))).size).toBe(1);
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(created.length);
    const next = await createInvoice(key, {
      client: { first_name: 'Late', last_name: 'Comer', email, phone: '+2348012345678' },
    });
    expect(next.client_id).toBe(created[0]!.body.data.client_id);
  });
});
