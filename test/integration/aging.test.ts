/** docs/api.md "Aging": POST /reports/aging through API Gateway-shaped events on DynamoDB Local. */
import { describe, expect, it } from 'vitest';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { dayOf } from '../support/days.ts';

const dueIn = (days: number) => dayOf(days).monthFirst;

const aging = (key: string, body: Record<string, unknown> = {}) => call('aging-report', { key, body });

const pay = (key: string, reference_code: string, amount: string) =>
  call('add-payment', { key, body: { reference_code, date: todayMonthFirst(), amount, channel: 'Cash' } });

/** An invoice of `amount` for the client `client_id`. */
const invoiceOf = (key: string, amount: string, dueDate: string, client: { client_id: number }) =>
  createInvoice(key, {
    client: undefined,
    ...client,
    due_date: dueDate,
    items: [{ item: 'Goods', description: 'A line', unit_cost: amount, quantity: 1 }],
  });

const kobo = (money: string) => Math.round(Number(money) * 100);

/** Every open invoice of the listing, page after page (limit 2: several pages). */
async function listAll(key: string, body: Record<string, unknown> = {}) {
  const invoices: Record<string, any>[] = [];
  let cursor: string | undefined;
  do {
    const page = await aging(key, { ...body, invoices: true, limit: 2, ...(cursor ? { cursor } : {}) });
    expect(page.status, page.rawBody).toBe(200);
    invoices.push(...page.body.data.invoices);
    cursor = page.body.data.next_cursor ?? undefined;
  } while (cursor);
  return invoices;
}

/** The totals recomputed from listed invoices: Σ amount_due per bucket of days_overdue. */
function recompute(invoices: Record<string, any>[]) {
  const buckets: Record<string, number> = { current: 0, '1_30': 0, '31_60': 0, '61_90': 0, over_90: 0 };
  for (const invoice of invoices) {
    const days = invoice.days_overdue as number;
    const bucket =
      days === 0 ? 'current' : days <= 30 ? '1_30' : days <= 60 ? '31_60' : days <= 90 ? '61_90' : 'over_90';
    buckets[bucket]! += kobo(invoice.amount_due);
  }
  return buckets;
}

const bucketsInKobo = (buckets: Record<string, string>) =>
  Object.fromEntries(Object.entries(buckets).map(([name, money]) => [name, kobo(money)]));

describe('POST /reports/aging', () => {
  it('answers zeroes and no rows for an account with nothing open', async () => {
    const { key } = await newAccount();
    const result = await aging(key);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      currency: 'NGN',
      total_outstanding: '0.00',
      buckets: { current: '0.00', '1_30': '0.00', '31_60': '0.00', '61_90': '0.00', over_90: '0.00' },
      counts: { current: 0, '1_30': 0, '31_60': 0, '61_90': 0, over_90: 0 },
      clients: [],
      next_cursor: null,
    });
    expect(result.body.data.as_of).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  });

  it('takes no body at all as the whole account, as it takes {}', async () => {
    const { key } = await newAccount();
    const result = await call('aging-report', { key });
    expect(result.status, result.rawBody).toBe(200);
    expect(result.body.data.total_outstanding).toBe('0.00');
  });

  it('buckets by days past due (the due date itself is current), and the open invoices recompute to the totals', async () => {
    // Prepare: one invoice at each bucket boundary, one paid in part, one paid in full, one voided
    const { key } = await newAccount();
    const client = (await createInvoice(key, { due_date: dueIn(5) })).client; // 50,000.00, current
    const byId = { client_id: client.id };
    const days = [0, -1, -30, -31, -60, -61, -90, -91, -400];
    const made = [];
    for (const [i, offset] of days.entries()) made.push(await invoiceOf(key, `${(i + 1) * 100}`, dueIn(offset), byId));
    await pay(key, made[1].reference_code, '150.00'); // 200.00 → 50.00 due, 1 day late
    await pay(key, made[2].reference_code, '300.00'); // settled: leaves the report
    const voided = await invoiceOf(key, '999', dueIn(-10), byId);
    expect(
      (await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } })).status,
    ).toBe(200);

    // Act
    const report = (await aging(key)).body.data;
    const listed = await listAll(key);

    // Assess
    expect(bucketsInKobo(report.buckets)).toEqual({
      current: 5_000_000 + 10_000,
      '1_30': 5_000,
      '31_60': 40_000 + 50_000,
      '61_90': 60_000 + 70_000,
      over_90: 80_000 + 90_000,
    });
    expect(report.counts).toEqual({ current: 2, '1_30': 1, '31_60': 2, '61_90': 2, over_90: 2 });
    expect(kobo(report.total_outstanding)).toBe(Object.values(bucketsInKobo(report.buckets)).reduce((a, b) => a + b));
    expect(listed.map((i) => i.days_overdue)).toEqual([400, 91, 90, 61, 60, 31, 1, 0, 0]);
    expect(recompute(listed)).toEqual(bucketsInKobo(report.buckets));
    expect(listed.every((i) => i.client.id === client.id && i.items.length === 1)).toBe(true);
    expect(listed.map((i) => i.reference_code)).not.toContain(voided.reference_code);
  });

  it('lists one bucket when asked, and refuses a bucket without "invoices": true', async () => {
    const { key } = await newAccount();
    const late = await createInvoice(key, { due_date: dueIn(-45) });
    await createInvoice(key, { due_date: dueIn(-5) });
    const listed = await listAll(key, { bucket: '31_60' });
    expect(listed.map((i) => i.reference_code)).toEqual([late.reference_code]);
    expect(listed[0].days_overdue).toBe(45);
    const refused = await aging(key, { bucket: '31_60' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ field: 'bucket' });
    expect((await aging(key, { invoices: true, bucket: 'later' })).body.errors[0]).toMatchObject({
      code: 'invalid_enum',
      field: 'bucket',
    });
  });

  it('rows per client, largest outstanding first, paged; with client_id the totals are that client’s', async () => {
    const { key } = await newAccount();
    const small = (await createInvoice(key, { items: [{ item: 'A', description: 'a', unit_cost: '10', quantity: 1 }] }))
      .client;
    const big = (
      await createInvoice(key, {
        due_date: dueIn(-40),
        items: [{ item: 'B', description: 'b', unit_cost: '500', quantity: 1 }],
        client: {
          first_name: 'Bola',
          last_name: 'Ade',
          email: `big${Date.now()}@example.com`,
          phone: '+2348011111111',
        },
      })
    ).client;
    await invoiceOf(key, '100', dueIn(-2), { client_id: big.id });
    const first = await aging(key, { limit: 1 });
    expect(first.body.data.clients).toEqual([
      {
        client_id: big.id,
        name: 'Bola Ade',
        total_outstanding: '600.00',
        buckets: { current: '0.00', '1_30': '100.00', '31_60': '500.00', '61_90': '0.00', over_90: '0.00' },
        unapplied_credit: '0.00',
      },
    ]);
    const second = await aging(key, { limit: 1, cursor: first.body.data.next_cursor });
    expect(second.body.data.clients.map((c: { client_id: number }) => c.client_id)).toEqual([small.id]);
    expect(second.body.data.next_cursor).toBeNull();
    expect(second.body.data.total_outstanding).toBe('610.00');
    const own = await aging(key, { client_id: String(big.id) });
    expect(own.body.data).toMatchObject({ total_outstanding: '600.00', counts: { '1_30': 1, '31_60': 1 } });
    expect(own.body.data.clients).toHaveLength(1);
    const ownInvoices = await listAll(key, { client_id: small.id });
    expect(ownInvoices.map((i) => i.client.id)).toEqual([small.id]);
  });

  it('a reversal re-opens a settled invoice in the report', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, { due_date: dueIn(-3) });
    const payment = await pay(key, invoice.reference_code, '50000');
    expect((await aging(key)).body.data.total_outstanding).toBe('0.00');
    await call('reverse-payment', { key, pathParameters: { id: String(payment.body.data.id) }, body: { reason: 'x' } });
    const report = (await aging(key)).body.data;
    expect(report).toMatchObject({ total_outstanding: '50000.00', counts: { '1_30': 1 } });
    expect((await listAll(key)).map((i) => i.reference_code)).toEqual([invoice.reference_code]);
  });

  it('never shows another account’s client or rows: 404 for its client, 400 for its cursor', async () => {
    // Prepare: client ids are per account — theirs has clients 1 and 2, mine only 1
    const mine = await newAccount();
    const theirs = await newAccount();
    await createInvoice(theirs.key, { due_date: dueIn(-1) });
    const second = (await createInvoice(theirs.key, { due_date: dueIn(-2) })).client;
    const own = (await createInvoice(mine.key)).client;
    expect(second.id).not.toBe(own.id);

    // Assess
    const refused = await aging(mine.key, { client_id: second.id });
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('client_not_found');
    expect((await aging(mine.key, { client_id: 999999, invoices: true })).body.code).toBe('client_not_found');
    expect((await aging(mine.key, { client_id: 'abc' })).status).toBe(400);
    const mineReport = (await aging(mine.key)).body.data;
    expect(mineReport.clients.map((c: { client_id: number }) => c.client_id)).toEqual([own.id]);
    expect(mineReport.total_outstanding).toBe('50000.00');
    expect((await aging(mine.key, { client_id: own.id })).body.data.counts).toMatchObject({ current: 1, '1_30': 0 });
    const listed = await listAll(mine.key);
    expect(listed.map((i) => i.company_id)).toEqual([String(mine.account.companyId)]);
    const theirCursor = (await aging(theirs.key, { invoices: true, limit: 1 })).body.data.next_cursor;
    expect((await aging(mine.key, { invoices: true, cursor: theirCursor })).body.code).toBe('invalid_cursor');
  });

  it('refuses a cursor of another listing: client rows ↔ invoices, another bucket, a history', async () => {
    const { key } = await newAccount();
    for (let i = 0; i < 3; i++) await createInvoice(key, { due_date: dueIn(-i) });
    const clients = (await aging(key, { limit: 1 })).body.data.next_cursor;
    const invoices = (await aging(key, { invoices: true, limit: 1 })).body.data.next_cursor;
    const history = (await call('invoice-history', { key, body: { period: 'today', limit: 1 } })).body.data.next_cursor;
    expect((await aging(key, { invoices: true, cursor: clients })).body.code).toBe('invalid_cursor');
    expect((await aging(key, { cursor: invoices })).body.code).toBe('invalid_cursor');
    expect((await aging(key, { invoices: true, bucket: 'current', cursor: invoices })).body.code).toBe(
      'invalid_cursor',
    );
    expect((await aging(key, { cursor: history })).body.code).toBe('invalid_cursor');
    expect((await aging(key, { cursor: 'abc.def' })).body.code).toBe('invalid_cursor');
    expect((await call('invoice-history', { key, body: { period: 'today', cursor: invoices } })).body.code).toBe(
      'invalid_cursor',
    );
  });
});
