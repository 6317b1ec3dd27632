/**
 * docs/api.md "Payment history and pagination": payment history's `data.summary` covers the whole effective range, is the same on every page,
 * equals the listed non-reversed payments, and stays exact under concurrent payments and reversals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, type CalendarDate, todayIn } from '../../shared/domain/dates.ts';
import { call, createInvoice, newAccount } from '../support/api.ts';

const CHANNELS = ['Cash', 'BankTransfer', 'POS', 'Cheque'] as const;
/** The channels only online payments have (docs/getting-paid-online.md "The payment"): none here. */
const ONLINE_NONE = { Card: '0.00', USSD: '0.00', Other: '0.00' };
const TOTALS_CHANNELS = [...CHANNELS, 'Card', 'USSD', 'Other'] as const;
const pad = (n: number) => String(n).padStart(2, '0');
const monthFirst = (d: CalendarDate) => `${pad(d.month)}/${pad(d.day)}/${d.year}`;
const dayFirst = (d: CalendarDate) => `${pad(d.day)}/${pad(d.month)}/${d.year}`;
const kobo = (amount: string) => Math.round(Number(amount) * 100);
const money = (k: number) => (k / 100).toFixed(2);

interface Listed {
  id: number;
  amount: string;
  wht_amount: string;
  channel: (typeof CHANNELS)[number];
  status: string;
}

/** Every page of a listing: the payments in order and each page's summary. */
async function listAll(key: string, body: Record<string, unknown>, limit: number) {
  const payments: Listed[] = [];
  const summaries: unknown[] = [];
  let cursor: string | undefined;
  do {
    const page = await call('payment-history', { key, body: { ...body, limit, ...(cursor ? { cursor } : {}) } });
    expect(page.status, page.rawBody).toBe(200);
    payments.push(...page.body.data.payments);
    summaries.push(page.body.data.summary);
    cursor = page.body.data.next_cursor ?? undefined;
  } while (cursor);
  return { payments, summaries };
}

/** The summary docs/api.md defines, computed from listed payments. */
function expectedSummary(payments: Listed[]) {
  const standing = payments.filter((p) => p.status === 'success');
  const byChannel = (channel: string) =>
    standing.filter((p) => p.channel === channel).reduce((s, p) => s + kobo(p.amount), 0);
  return {
    count: standing.length,
    total: money(standing.reduce((s, p) => s + kobo(p.amount), 0)),
    by_channel: Object.fromEntries(TOTALS_CHANNELS.map((channel) => [channel, money(byChannel(channel))])),
    reversed_total: money(payments.filter((p) => p.status === 'reversed').reduce((s, p) => s + kobo(p.amount), 0)),
    wht_total: money(standing.reduce((s, p) => s + kobo(p.wht_amount), 0)),
    currency: 'NGN',
  };
}

const bigInvoice = (key: string) =>
  createInvoice(key, { items: [{ item: 'Stock', description: 'Lot', unit_cost: '1000000.00', quantity: 1 }] });

describe('payment history summary', () => {
  it('covers the whole range, not the page, and is the same on every page; reversals move to reversed_total', async () => {
    // Prepare
    const { key } = await newAccount();
    const invoice = await bigInvoice(key);
    const today = todayIn('Africa/Lagos');
    const ids: number[] = [];
    for (const [i, channel] of CHANNELS.entries()) {
      const body = {
        reference_code: invoice.reference_code,
        date: monthFirst(today),
        amount: `${i + 1}00.50`,
        channel,
      };
      ids.push((await call('add-payment', { key, body })).body.data.id);
    }
    const old = {
      reference_code: invoice.reference_code,
      date: monthFirst(addDays(today, -40)),
      amount: '7.00',
      channel: 'Cash',
    };
    expect((await call('add-payment', { key, body: old })).status).toBe(201);
    await call('reverse-payment', { key, pathParameters: { id: String(ids[1]) }, body: { reason: 'mistake' } });

    // Act
    const { payments, summaries } = await listAll(key, { period: '30' }, 2);

    // Assess
    expect(summaries).toHaveLength(2);
    expect(summaries[1]).toEqual(summaries[0]);
    expect(summaries[0]).toEqual({
      count: 3,
      total: '801.50',
      by_channel: { ...ONLINE_NONE, Cash: '100.50', BankTransfer: '0.00', POS: '300.50', Cheque: '400.50' },
      reversed_total: '200.50',
      wht_total: '0.00',
      currency: 'NGN',
    });
    expect(summaries[0]).toEqual(expectedSummary(payments));
  });

  it('is zero for a range without payments', async () => {
    const { key } = await newAccount();
    const page = await call('payment-history', { key, body: { period: 'year' } });
    expect(page.body.data.summary).toEqual({
      count: 0,
      total: '0.00',
      by_channel: { ...ONLINE_NONE, Cash: '0.00', BankTransfer: '0.00', POS: '0.00', Cheque: '0.00' },
      reversed_total: '0.00',
      wht_total: '0.00',
      currency: 'NGN',
    });
  });

  it('counts every acknowledged payment exactly once under 40 concurrent payments and reversals on one account', {
    timeout: 120_000,
  }, async () => {
    // Prepare: 10 payments to reverse, on their own invoices
    const { key } = await newAccount();
    const date = monthFirst(todayIn('Africa/Lagos'));
    const invoices = await Promise.all(Array.from({ length: 40 }, () => bigInvoice(key)));
    const toReverse: number[] = [];
    for (const invoice of invoices.slice(0, 10)) {
      const body = { reference_code: invoice.reference_code, date, amount: '3.00', channel: 'POS' };
      toReverse.push((await call('add-payment', { key, body })).body.data.id);
    }

    // Act
    const results = await Promise.all([
      ...invoices.map((invoice, i) =>
        call('add-payment', {
          key,
          body: { reference_code: invoice.reference_code, date, amount: `${i + 1}.25`, channel: CHANNELS[i % 4] },
          budgetMs: 30_000, // as in test/robustness/contention.test.ts: a busy machine must not decide the race (504)
        }),
      ),
      ...toReverse.map((id) =>
        call('reverse-payment', { key, pathParameters: { id: String(id) }, body: { reason: 'x' }, budgetMs: 30_000 }),
      ),
    ]);

    // Assess: the summary is what was acknowledged, and what history lists
    for (const r of results) expect([200, 201, 503], r.rawBody).toContain(r.status);
    const recorded = results.slice(0, 40).filter((r) => r.status === 201);
    const reversed = results.slice(40).filter((r) => r.status === 200);
    const { payments, summaries } = await listAll(key, { period: 'today' }, 500);
    expect(summaries[0]).toEqual(expectedSummary(payments));
    const summary = summaries[0] as { count: number; total: string; reversed_total: string };
    expect(summary.count).toBe(10 - reversed.length + recorded.length);
    const recordedKobo = recorded.reduce((s, r) => s + kobo(r.body.data.amount), 0);
    expect(summary.total).toBe(money(300 * (10 - reversed.length) + recordedKobo));
    expect(summary.reversed_total).toBe(money(300 * reversed.length));
  });
});

describe('payment history summary, property', () => {
  it('equals the sum of the listed non-reversed payments (their withholding tax too) for random payments, reversals and ranges', {
    timeout: 300_000,
  }, async () => {
    const today = todayIn('Africa/Lagos');
    const payment = fc.record({
      daysAgo: fc.integer({ min: 0, max: 20 }),
      amountKobo: fc.integer({ min: 1, max: 5_000_000 }),
      channel: fc.constantFrom(...CHANNELS),
      reverse: fc.boolean(),
      whtKobo: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500_000 })),
    });
    const range = fc.tuple(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 25 }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(payment, { minLength: 1, maxLength: 8 }),
        range,
        fc.integer({ min: 1, max: 4 }),
        async (made, [a, b], limit) => {
          // Prepare
          const { key } = await newAccount();
          const invoice = await bigInvoice(key);
          for (const p of made) {
            const body = {
              reference_code: invoice.reference_code,
              date: monthFirst(addDays(today, -p.daysAgo)),
              amount: money(p.amountKobo),
              channel: p.channel,
              wht_amount: money(p.whtKobo),
            };
            const recorded = await call('add-payment', { key, body });
            expect(recorded.status, recorded.rawBody).toBe(201);
            if (p.reverse) {
              const id = String(recorded.body.data.id);
              expect(
                (await call('reverse-payment', { key, pathParameters: { id }, body: { reason: 'r' } })).status,
              ).toBe(200);
            }
          }
          const [from, to] = [addDays(today, -Math.max(a, b)), addDays(today, -Math.min(a, b))];

          // Act
          const { payments, summaries } = await listAll(
            key,
            { period: 'custom', start: dayFirst(from), end: dayFirst(to) },
            limit,
          );

          // Assess
          const inRange = made.filter((p) => p.daysAgo >= Math.min(a, b) && p.daysAgo <= Math.max(a, b));
          expect(payments).toHaveLength(inRange.length);
          for (const summary of summaries) expect(summary).toEqual(expectedSummary(payments));
        },
      ),
      { numRuns: 12 },
    );
  });
});
