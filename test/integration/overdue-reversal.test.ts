/** docs/api.md "Overdue", "Reversing a payment": a reversal that re-opens a settled overdue invoice puts it back in the overdue index; notified once. */
import { describe, expect, it } from 'vitest';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

const items = [{ item: 'A', description: 'B', unit_cost: '10.00', quantity: '1' }];

describe('overdue and reversals', () => {
  it('a reversal re-opening a settled past-due invoice shows it overdue and gets it notified once; reversing again does not notify twice', async () => {
    // Prepare
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key, { due_date: '01/15/2020', items });
    const body = (amount: string) => ({
      reference_code: invoice.reference_code,
      date: todayMonthFirst(),
      amount,
      channel: 'Cash',
    });
    const paid = await call('add-payment', { key, body: body('10.00') });
    expect(paid.body.data.invoice.payment_status).toBe('paid');
    // Act
    const reversed = await call('reverse-payment', {
      key,
      pathParameters: { id: String(paid.body.data.id) },
      body: { reason: 'mistake' },
    });
    await runWakeSweep(new Date());
    const again = await call('add-payment', { key, body: body('10.00') });
    await call('reverse-payment', {
      key,
      pathParameters: { id: String(again.body.data.id) },
      body: { reason: 'again' },
    });
    await runWakeSweep(new Date());
    await runWakeSweep(new Date());
    // Assess
    expect(reversed.status).toBe(200);
    expect(reversed.body.data.invoice.payment_status).toBe('overdue');
    const overdue = (await listDeliveries(account.companyId)).filter((d) => d.type === 'invoice.overdue');
    expect(overdue).toHaveLength(1);
  });
});
