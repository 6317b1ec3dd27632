/** docs/api.md "Invoices: read, list, delete" `POST /invoices/history`: invoices by creation date, with the period,
 * cursor and page rules of "Payment history and pagination". */
import { describe, expect, it } from 'vitest';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

const codesOf = (result: { body: any }) =>
  result.body.data.invoices.map((invoice: { reference_code: string }) => invoice.reference_code);

describe('invoice history', () => {
  it('lists today’s invoices newest first with client and items, paginated without skips or repeats', async () => {
    const { key } = await newAccount();
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await createInvoice(key)).reference_code);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('invoice-history', {
        key,
        body: { period: 'today', limit: 2, ...(cursor ? { cursor } : {}) },
      });
      expect(page.status).toBe(200);
      expect(page.body.data).toMatchObject({ period: 'today', start: expect.any(String), end: expect.any(String) });
      for (const invoice of page.body.data.invoices) expect(invoice.client).toEqual(expect.any(Object));
      seen.push(...codesOf(page));
      cursor = page.body.data.next_cursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual([...created].sort());
  });

  it('answers GET with a JSON body like POST (pypayant)', async () => {
    const { key } = await newAccount();
    await createInvoice(key);
    const post = await call('invoice-history', { key, body: { period: 'month' } });
    const get = await call('invoice-history', { key, body: { period: 'month' }, method: 'GET' });
    expect(get.status).toBe(200);
    expect(codesOf(get)).toEqual(codesOf(post));
  });

  it('filters on payment_status, keeps the filter across pages, and lists deleted invoices with deleted_at', async () => {
    const { key } = await newAccount();
    const unpaid = await createInvoice(key);
    const paid = await createInvoice(key, {
      items: [{ item: 'A', description: 'B', unit_cost: '5.00', quantity: '1' }],
    });
    const voided = await createInvoice(key);
    const pay = { reference_code: paid.reference_code, date: todayMonthFirst(), amount: '5.00', channel: 'POS' };
    expect((await call('add-payment', { key, body: pay })).status).toBe(201);
    expect(
      (await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } })).status,
    ).toBe(200);

    const onlyPaid = await call('invoice-history', { key, body: { period: 'today', payment_status: 'paid' } });
    expect(codesOf(onlyPaid)).toEqual([paid.reference_code]);
    const unpaidOnes = await call('invoice-history', {
      key,
      body: { period: 'today', payment_status: 'unpaid', limit: 1 },
    });
    const next = await call('invoice-history', {
      key,
      body: { period: 'today', payment_status: 'unpaid', cursor: unpaidOnes.body.data.next_cursor },
    });
    const pages = [unpaidOnes, next];
    for (let page = next; page.body.data.next_cursor !== null; pages.push(page)) {
      const cursor = page.body.data.next_cursor;
      page = await call('invoice-history', { key, body: { period: 'today', payment_status: 'unpaid', cursor } });
    }
    // A voided invoice is shown as `void`, not `unpaid` (docs/tax.md "Void").
    expect(pages.flatMap(codesOf)).toEqual([unpaid.reference_code]);
    const onlyVoid = await call('invoice-history', { key, body: { period: 'today', payment_status: 'void' } });
    expect(codesOf(onlyVoid)).toEqual([voided.reference_code]);
    const all = await call('invoice-history', { key, body: { period: 'today' } });
    const listedVoid = all.body.data.invoices.find(
      (i: { reference_code: string }) => i.reference_code === voided.reference_code,
    );
    expect(listedVoid.deleted_at).toEqual(expect.any(String));

    const changedFilter = await call('invoice-history', {
      key,
      body: { period: 'today', payment_status: 'paid', cursor: unpaidOnes.body.data.next_cursor },
    });
    expect(changedFilter.status).toBe(400);
    expect(changedFilter.body.code).toBe('invalid_cursor');
    const badStatus = await call('invoice-history', { key, body: { period: 'today', payment_status: 'late' } });
    expect(badStatus.status).toBe(400);
  });

  it('never lists another account’s invoices, refuses its cursors and payment-history cursors (400 invalid_cursor)', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    for (let i = 0; i < 2; i++) await createInvoice(other.key);
    const mine = await call('invoice-history', { key, body: { period: 'today' } });
    expect(mine.body.data.invoices).toEqual([]);
    const theirs = await call('invoice-history', { key: other.key, body: { period: 'today', limit: 1 } });
    const stolen = await call('invoice-history', {
      key,
      body: { period: 'today', cursor: theirs.body.data.next_cursor },
    });
    expect(stolen.body.code).toBe('invalid_cursor');
    const ownCursor = theirs.body.data.next_cursor;
    const crossed = await call('payment-history', { key: other.key, body: { period: 'today', cursor: ownCursor } });
    expect(crossed.body.code).toBe('invalid_cursor');
  });

  it('applies the period rules of payment history (custom range, 400 invalid_period)', async () => {
    const { key } = await newAccount();
    await createInvoice(key);
    const past = await call('invoice-history', {
      key,
      body: { period: 'custom', start: '01/01/2020', end: '31/01/2020' },
    });
    expect(past.status).toBe(200);
    expect(past.body.data).toMatchObject({ start: '01/01/2020', end: '31/01/2020', invoices: [], next_cursor: null });
    const missing = await call('invoice-history', { key, body: { period: 'custom', start: '01/01/2020' } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('invalid_period');
  });
});
