/** docs/api.md "Overdue": `payment_status` is shown as `overdue` wherever an invoice is shown, and invoice history filters on it. */
import { describe, expect, it } from 'vitest';
import { addDays, todayIn, toEpochSeconds } from '../../shared/domain/dates.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

const PAST_DUE = '01/15/2020';
const items = [{ item: 'A', description: 'B', unit_cost: '10.00', quantity: '1' }];
const codesOf = (result: { body: any }) =>
  result.body.data.invoices.map((invoice: { reference_code: string }) => invoice.reference_code).sort();
const monthFirst = (d: { year: number; month: number; day: number }) => `${d.month}/${d.day}/${d.year}`;

async function pay(key: string, referenceCode: string, amount: string) {
  const body = { reference_code: referenceCode, date: todayMonthFirst(), amount, channel: 'Cash' };
  const result = await call('add-payment', { key, body });
  expect(result.status).toBe(201);
  return result.body.data;
}

describe('overdue, as shown', () => {
  it('shows overdue in add invoice, GET, add payment, the latest payment and payment history; paid once settled', async () => {
    // Prepare
    const { key } = await newAccount();
    // Act
    const created = await createInvoice(key, { due_date: PAST_DUE, items });
    const path = { reference_code: created.reference_code };
    const partial = await pay(key, created.reference_code, '4.00');
    const read = await call('get-invoice', { key, pathParameters: path });
    const latest = await call('get-payment', { key, pathParameters: path });
    const history = await call('payment-history', { key, body: { period: 'today' } });
    const settled = await pay(key, created.reference_code, '6.00');
    // Assess
    expect(created.payment_status).toBe('overdue');
    expect(partial.invoice.payment_status).toBe('overdue');
    expect(read.body.data.payment_status).toBe('overdue');
    expect(read.body.data.amount_due).toBe('6.00');
    expect(latest.body.data.invoice.payment_status).toBe('overdue');
    expect(history.body.data.payments[0].invoice.payment_status).toBe('overdue');
    expect(settled.invoice.payment_status).toBe('paid');
    const after = await call('get-invoice', { key, pathParameters: path });
    expect(after.body.data.payment_status).toBe('paid');
  });

  it('is not overdue on the due date, nor when deleted (then void)', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const today = todayIn(account.timeZone);
    // Act
    const dueToday = await createInvoice(key, { due_date: monthFirst(today) });
    const voided = await createInvoice(key, { due_date: PAST_DUE });
    const deleted = await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    // Assess
    expect(dueToday.payment_status).toBe('unpaid');
    expect(dueToday.due_date).toBe(String(toEpochSeconds(today)));
    expect(voided.payment_status).toBe('overdue');
    expect(deleted.body.data.payment_status).toBe('void');
    expect(deleted.body.data.deleted_at).toEqual(expect.any(String));
  });

  it('decides on the account’s own calendar date (Kiritimati UTC+14 vs Pago Pago UTC−11, the same due date)', async () => {
    // Prepare: yesterday in Kiritimati is today or yesterday in Pago Pago (25 hours behind): never after the due date.
    const ahead = await newAccount({ timeZone: 'Pacific/Kiritimati' });
    const behind = await newAccount({ timeZone: 'Pacific/Pago_Pago' });
    const due = monthFirst(addDays(todayIn('Pacific/Kiritimati'), -1));
    // Act
    const inKiritimati = await createInvoice(ahead.key, { due_date: due });
    const inPagoPago = await createInvoice(behind.key, { due_date: due });
    // Assess
    expect(inKiritimati.payment_status).toBe('overdue');
    expect(inPagoPago.payment_status).toBe('unpaid');
  });
});

describe('invoice history filtered on payment_status', () => {
  it('overdue lists open past-due invoices; unpaid and partially_paid no longer match those shown as overdue or void', async () => {
    // Prepare
    const { key } = await newAccount();
    const overdue = await createInvoice(key, { due_date: PAST_DUE, items });
    const notYetDue = await createInvoice(key, { items });
    const paidLate = await createInvoice(key, { due_date: PAST_DUE, items });
    const partlyLate = await createInvoice(key, { due_date: PAST_DUE, items });
    const partlyOnTime = await createInvoice(key, { items });
    const voided = await createInvoice(key, { due_date: PAST_DUE, items });
    await pay(key, paidLate.reference_code, '10.00');
    await pay(key, partlyLate.reference_code, '1.00');
    await pay(key, partlyOnTime.reference_code, '1.00');
    await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    const list = (payment_status: string, limit?: number) =>
      call('invoice-history', { key, body: { period: 'today', payment_status, ...(limit ? { limit } : {}) } });
    // Act
    const [overdueOnes, unpaidOnes, partlyOnes, paidOnes, voidOnes] = await Promise.all(
      ['overdue', 'unpaid', 'partially_paid', 'paid', 'void'].map((status) => list(status)),
    );
    // Assess
    expect(codesOf(overdueOnes)).toEqual([overdue.reference_code, partlyLate.reference_code].sort());
    for (const invoice of overdueOnes.body.data.invoices) expect(invoice.payment_status).toBe('overdue');
    expect(codesOf(unpaidOnes)).toEqual([notYetDue.reference_code]);
    expect(codesOf(partlyOnes)).toEqual([partlyOnTime.reference_code]);
    expect(codesOf(paidOnes)).toEqual([paidLate.reference_code]);
    expect(codesOf(voidOnes)).toEqual([voided.reference_code]);
  });

  it('keeps the overdue filter across pages without skips or repeats', async () => {
    // Prepare
    const { key } = await newAccount();
    const expected: string[] = [];
    for (let i = 0; i < 3; i++) {
      expected.push((await createInvoice(key, { due_date: PAST_DUE })).reference_code);
      await createInvoice(key);
    }
    // Act
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const body = { period: 'today', payment_status: 'overdue', limit: 2, ...(cursor ? { cursor } : {}) };
      const page = await call('invoice-history', { key, body });
      expect(page.status).toBe(200);
      seen.push(...codesOf(page));
      cursor = page.body.data.next_cursor ?? undefined;
    } while (cursor);
    // Assess
    expect(seen.sort()).toEqual(expected.sort());
  });
});
