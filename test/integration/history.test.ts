/** docs/api.md "Payment history and pagination": payment history periods, ordering, pagination and cursors. */
import { describe, expect, it, vi } from 'vitest';
import { call, createInvoice, newAccount } from '../support/api.ts';

const DAY = 86_400_000;
/** Calendar date in Africa/Lagos (UTC+1, no DST) `offsetDays` from today. */
function lagosDate(offsetDays = 0) {
  const d = new Date(Date.now() + 3_600_000 + offsetDays * DAY);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate(), weekday: d.getUTCDay() };
}
const pad = (n: number) => String(n).padStart(2, '0');
const monthFirst = (x: { y: number; m: number; d: number }) => `${x.m}/${x.d}/${x.y}`;
const dayFirst = (x: { y: number; m: number; d: number }) => `${pad(x.d)}/${pad(x.m)}/${x.y}`;

const history = (key: string, body: Record<string, unknown>) => call('payment-history', { key, body });

async function invoiceWithPayments(key: string, offsets: number[]) {
  const invoice = await createInvoice(key, {
    items: [{ item: 'Rent', description: 'Monthly', unit_cost: '1000000', quantity: '1' }],
  });
  const payments = [];
  for (const offset of offsets) {
    const result = await call('add-payment', {
      key,
      body: {
        reference_code: invoice.reference_code,
        date: monthFirst(lagosDate(offset)),
        amount: '10',
        channel: 'Cash',
      },
    });
    expect(result.status).toBe(201);
    payments.push(result.body.data);
  }
  return { invoice, payments };
}

describe('periods', () => {
  it('echoes the effective range of each period in zero-padded DD/MM/YYYY', async () => {
    const { key } = await newAccount();
    const today = lagosDate();
    const mondayOffset = -((today.weekday + 6) % 7);
    const expected: Record<string, [ReturnType<typeof lagosDate> | { y: number; m: number; d: number }, typeof today]> =
      {
        today: [today, today],
        week: [lagosDate(mondayOffset), today],
        month: [{ y: today.y, m: today.m, d: 1 }, today],
        '30': [lagosDate(-29), today],
        '90': [lagosDate(-89), today],
        year: [{ y: today.y, m: 1, d: 1 }, today],
      };
    for (const [period, [from, to]] of Object.entries(expected)) {
      const result = await history(key, { period, start: '', end: '' });
      expect(result.status, period).toBe(200);
      expect(result.body.data).toMatchObject({
        period,
        start: dayFirst(from),
        end: dayFirst(to),
        payments: [],
        next_cursor: null,
      });
    }
    const custom = await history(key, { period: 'custom', start: '1/12/2016', end: '31/12/2016' });
    expect(custom.body.data).toMatchObject({ period: 'custom', start: '01/12/2016', end: '31/12/2016' });
  });

  it('filters on transaction_date with inclusive bounds', async () => {
    const { key } = await newAccount();
    const { payments } = await invoiceWithPayments(key, [0, -29, -30, -89, -90, -400]);
    const ids = async (body: Record<string, unknown>) =>
      (await history(key, body)).body.data.payments.map((p: any) => p.id).sort();
    expect(await ids({ period: 'today' })).toEqual([payments[0].id]);
    expect(await ids({ period: '30' })).toEqual([payments[0].id, payments[1].id].sort());
    expect(await ids({ period: '90' })).toEqual(
      [payments[0].id, payments[1].id, payments[2].id, payments[3].id].sort(),
    );
    const exact = lagosDate(-30);
    expect(await ids({ period: 'custom', start: dayFirst(exact), end: dayFirst(exact) })).toEqual([payments[2].id]);
  });

  it('ignores start and end for non-custom periods', async () => {
    const { key } = await newAccount();
    const result = await history(key, { period: 'today', start: 'garbage', end: '99/99/9999' });
    expect(result.status).toBe(200);
    expect(result.body.data.start).toBe(dayFirst(lagosDate()));
  });

  it('rejects bad periods and custom ranges with invalid_period', async () => {
    const { key } = await newAccount();
    for (const body of [
      { period: 'yesterday' },
      { period: 'Today' },
      {},
      { period: 'custom' },
      { period: 'custom', start: '01/01/2025' },
      { period: 'custom', start: '02/01/2025', end: '01/01/2025' },
      { period: 'custom', start: '01/01/2024', end: '01/01/2025' },
      { period: 'custom', start: '31/02/2025', end: '01/03/2025' },
      { period: 'custom', start: '2025-01-01', end: '02/01/2025' },
    ]) {
      const result = await history(key, body);
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.code, JSON.stringify(body)).toBe('invalid_period');
    }
    // 366 days counting both ends is the maximum
    expect((await history(key, { period: 'custom', start: '01/01/2024', end: '31/12/2024' })).status).toBe(200);
    expect((await history(key, { period: 'custom', start: '01/01/2025', end: '01/01/2026' })).status).toBe(200);
    expect((await history(key, { period: 'custom', start: '01/01/2025', end: '02/01/2026' })).status).toBe(400);
  });
});

describe('payments in history', () => {
  it('carries each payment with its client and the invoice current state with items', async () => {
    const { key } = await newAccount();
    const { invoice } = await invoiceWithPayments(key, [0, 0]);
    const result = await history(key, { period: 'today' });
    const [latest] = result.body.data.payments;
    expect(latest.client).toEqual(invoice.client);
    expect(latest.invoice.items).toEqual(invoice.items);
    expect(latest.invoice).toMatchObject({ reference_code: invoice.reference_code, amount_paid: '20.00' });
    expect(latest).toMatchObject({
      amount: '10.00',
      reference_code: invoice.reference_code,
      expense_id: '',
      type: 'Invoice',
    });
  });

  it('orders newest transaction_date first, then newest recorded first', async () => {
    const { key } = await newAccount();
    const { payments } = await invoiceWithPayments(key, [-5, 0, -5, -1, 0]);
    const listed = (await history(key, { period: '30' })).body.data.payments.map((p: any) => p.id);
    const [a, b, c, d, e] = payments.map((p) => p.id);
    expect(listed).toEqual([e, b, d, c, a]);
  });

  it('never shows another account’s payments', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    await invoiceWithPayments(owner.key, [0]);
    expect((await history(other.key, { period: 'today' })).body.data.payments).toEqual([]);
  });
});

describe('pagination', () => {
  it('pages with limit and an opaque cursor; next_cursor is null on the last page; limit may change', async () => {
    const { key } = await newAccount();
    const { payments } = await invoiceWithPayments(key, [0, 0, 0, 0, 0]);
    const expectedOrder = payments.map((p) => p.id).reverse();
    const first = await history(key, { period: 'today', limit: 2 });
    expect(first.body.data.payments.map((p: any) => p.id)).toEqual(expectedOrder.slice(0, 2));
    expect(typeof first.body.data.next_cursor).toBe('string');
    const second = await history(key, { period: 'today', limit: '2', cursor: first.body.data.next_cursor });
    expect(second.body.data.payments.map((p: any) => p.id)).toEqual(expectedOrder.slice(2, 4));
    const last = await history(key, { period: 'today', limit: 10, cursor: second.body.data.next_cursor });
    expect(last.body.data.payments.map((p: any) => p.id)).toEqual(expectedOrder.slice(4));
    expect(last.body.data.next_cursor).toBeNull();
    const exact = await history(key, { period: 'today', limit: 5 });
    expect(exact.body.data.next_cursor).toBeNull();
  });

  it('defaults to 100 per page and accepts 1 to 500', async () => {
    const { key } = await newAccount();
    for (const limit of [0, 501, -1, 2.5, 'ten', '1e2']) {
      const result = await history(key, { period: 'today', limit });
      expect(result.status, String(limit)).toBe(400);
      expect(result.body.code).toBe('validation_failed');
      expect(result.body.errors[0].field).toBe('limit');
    }
    for (const limit of [1, 500, '250']) expect((await history(key, { period: 'today', limit })).status).toBe(200);
  });

  it('keeps a today cursor on its day after midnight', async () => {
    const { key } = await newAccount();
    await invoiceWithPayments(key, [0, 0, 0]);
    const first = await history(key, { period: 'today', limit: 1 });
    const day = first.body.data.start;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2 * DAY });
    try {
      const fresh = await history(key, { period: 'today', limit: 1 });
      expect(fresh.body.data.start).not.toBe(day); // "today" has moved on…
      expect(fresh.body.data.payments).toEqual([]);
      const next = await history(key, { period: 'today', limit: 1, cursor: first.body.data.next_cursor });
      expect(next.body.data).toMatchObject({ start: day, end: day }); // …but the cursor still means its day
      expect(next.body.data.payments).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps a cursor’s date range, and rejects tampered, foreign and other-period cursors', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    await invoiceWithPayments(key, [0, 0, 0]);
    const first = await history(key, { period: 'week', limit: 1 });
    const cursor: string = first.body.data.next_cursor;
    const next = await history(key, { period: 'week', limit: 1, cursor });
    expect(next.status).toBe(200);
    expect(next.body.data.start).toBe(first.body.data.start);

    const [payload, signature] = cursor.split('.');
    const state = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    state.f = '2000-01-01';
    const tampered = `${Buffer.from(JSON.stringify(state)).toString('base64url')}.${signature}`;
    for (const [owner, body] of [
      [key, { period: 'week', cursor: tampered }],
      [key, { period: 'week', cursor: 'not-a-cursor' }],
      [key, { period: 'month', cursor }],
      [other.key, { period: 'week', cursor }],
    ] as const) {
      const result = await history(owner, body);
      expect(result.status).toBe(400);
      expect(result.body.code).toBe('invalid_cursor');
    }
  });
});
