/**
 * Issue 17 §1b: contention on one invoice is absorbed, not answered 503. Forty-eight payments sent at once
 * on one invoice: with room for all of them every one is 201; with room for ten, ten are 201 and the others get a
 * business 409 (amount_exceeds_balance or invoice_already_paid); amount_paid is the sum of the 201s. Retries are bounded by the
 * invocation's time, not by a count (shared/store/write-executor.ts).
 */
import { describe, expect, it } from 'vitest';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { fullHistory, kobo, scale } from './helpers.ts';

/** 16 in-process writers never exhausted the old 8 fixed attempts; 48 did (about 1 in 4 answered 503). */
const WRITERS = 48;
/**
 * Each invocation's time (the functions' timeout is 10 s). Generous, so that a busy test machine does not decide
 * the outcome: a fixed attempt count gives up however much time is left, a time bound does not. Measured here, a
 * round of 48 took 8–12 s on an idle machine and up to 29 s beside the rest of `npm test` on two cores.
 */
const BUDGET_MS = 60_000;
const ROUNDS = Array.from({ length: scale(2, 10) }, (_, round) => round);

async function payAtOnce(invoiceTotal: string) {
  const { key } = await newAccount();
  const invoice = await createInvoice(key, {
    items: [{ item: 'Goods', description: 'x', unit_cost: invoiceTotal, quantity: '1' }],
  });
  const payment = {
    reference_code: invoice.reference_code,
    date: todayMonthFirst(),
    amount: '100.00',
    channel: 'Cash',
  };
  const results = await Promise.all(
    Array.from({ length: WRITERS }, () => call('add-payment', { key, body: payment, budgetMs: BUDGET_MS })),
  );
  const answers = results.map((r) => (r.status === 201 ? '201' : `${r.status} ${r.body?.code}`));
  const { payments } = await fullHistory(key, { period: 'today' });
  return { answers, payments };
}

describe(`${WRITERS} concurrent payments of 100.00 on one invoice`, { timeout: 120_000 }, () => {
  it.each(ROUNDS)('round %i, invoice of 10,000.00: every one 201, never 503', async () => {
    const { answers, payments } = await payAtOnce('10000.00');
    expect(answers, answers.join(', ')).toEqual(Array(WRITERS).fill('201'));
    expect(payments).toHaveLength(WRITERS);
    expect(kobo(payments[0]!.invoice.amount_paid)).toBe(WRITERS * kobo('100.00'));
  });

  it.each(ROUNDS)('round %i, invoice of 1,000.00: ten 201, the rest a business 409, never 503', async () => {
    const { answers, payments } = await payAtOnce('1000.00');
    const business = new Set(['409 amount_exceeds_balance', '409 invoice_already_paid']);
    expect(
      answers.filter((a) => a !== '201' && !business.has(a)),
      answers.join(', '),
    ).toEqual([]);
    expect(answers.filter((a) => a === '201')).toHaveLength(10);
    expect(payments).toHaveLength(10);
    expect(kobo(payments[0]!.invoice.amount_paid)).toBe(kobo('1000.00'));
  });
});
