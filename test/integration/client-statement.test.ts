/** docs/api.md "Client statement": POST /clients/{id}/statement through API Gateway-shaped events on DynamoDB Local. */
import { describe, expect, it } from 'vitest';
import { call, createInvoice, newAccount } from '../support/api.ts';
import { dayOf } from '../support/days.ts';
import { seedLedgerLines } from '../support/ledger-seed.ts';

const statement = (key: string, id: number | string, body: Record<string, unknown> = { period: 'today' }) =>
  call('client-statement', { key, pathParameters: { id: String(id) }, body });

const pay = (key: string, reference_code: string, amount: string, daysAgo = 0, channel = 'Cash') =>
  call('add-payment', { key, body: { reference_code, date: dayOf(-daysAgo).monthFirst, amount, channel } });

const invoiceFor = (key: string, clientId: number, amount: string, item = 'Goods') =>
  createInvoice(key, {
    client: undefined,
    client_id: clientId,
    items: [{ item, description: 'A line', unit_cost: amount, quantity: 1 }],
  });

describe('POST /clients/{id}/statement', () => {
  it('lists invoices, payments, reversals and voids with a running balance that ends at invoices − payments', async () => {
    // Prepare: a client with two invoices, two payments (one reversed), a voided third invoice
    const { key } = await newAccount();
    const first = await createInvoice(key, {
      items: [{ item: 'Bags', description: 'Jute', unit_cost: '1000', quantity: 2 }],
    });
    const clientId = first.client.id;
    const second = await invoiceFor(key, clientId, '500', 'Shoes');
    const voided = await invoiceFor(key, clientId, '300', 'Hats');
    await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    await pay(key, first.reference_code, '700', 0, 'BankTransfer');
    const mistaken = (await pay(key, second.reference_code, '500')).body.data;
    await call('reverse-payment', { key, pathParameters: { id: String(mistaken.id) }, body: { reason: 'Bounced' } });

    // Act
    const result = await statement(key, clientId);

    // Assess
    expect(result.status).toBe(200);
    const data = result.body.data;
    expect(data).toMatchObject({
      client: { id: clientId },
      period: 'today',
      start: dayOf(0).dayFirst,
      end: dayOf(0).dayFirst,
      currency: 'NGN',
      opening_balance: '0.00',
    });
    const rows = data.lines.map((l: Record<string, string>) => [
      l.type,
      l.reference_code,
      l.debit,
      l.credit,
      l.balance,
    ]);
    expect(rows).toEqual([
      ['invoice', first.reference_code, '2000.00', '0.00', '2000.00'],
      ['invoice', second.reference_code, '500.00', '0.00', '2500.00'],
      ['invoice', voided.reference_code, '300.00', '0.00', '2800.00'],
      ['void', voided.reference_code, '0.00', '300.00', '2500.00'],
      ['payment', first.reference_code, '0.00', '700.00', '1800.00'],
      ['payment', second.reference_code, '0.00', '500.00', '1300.00'],
      ['reversal', second.reference_code, '500.00', '0.00', '1800.00'],
    ]);
    expect(data.lines.map((l: { date: string }) => l.date)).toEqual(Array(7).fill(dayOf(0).dayFirst));
    expect(data.lines[0].description).toBe('Bags');
    expect(data.lines[4].description).toBe('Payment (BankTransfer)');
    expect(data.lines[6].description).toBe(`Reversal of payment ${mistaken.id}: Bounced`);
    expect(data.closing_balance).toBe('1800.00');
    // invoices (not voided) − payments (not reversed), as the rest of the API shows them
    const aging = (await call('aging-report', { key, body: { client_id: clientId } })).body.data;
    expect(aging.total_outstanding).toBe('1800.00');
  });

  it('dates a payment on its transaction date: an earlier period opens with it, a later one without the lines after', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: 'Rent', description: 'May', unit_cost: '900', quantity: 1 }],
    });
    const clientId = invoice.client.id;
    await pay(key, invoice.reference_code, '200', 10); // recorded today, dated 10 days ago
    await pay(key, invoice.reference_code, '100', 3);

    const lastWeek = await statement(key, clientId, {
      period: 'custom',
      start: dayOf(-7).dayFirst,
      end: dayOf(-1).dayFirst,
    });
    expect(lastWeek.body.data).toMatchObject({ opening_balance: '-200.00', closing_balance: '-300.00' });
    expect(lastWeek.body.data.lines).toEqual([
      expect.objectContaining({ date: dayOf(-3).dayFirst, type: 'payment', credit: '100.00', balance: '-300.00' }),
    ]);
    const month = await statement(key, clientId, {
      period: 'custom',
      start: dayOf(-20).dayFirst,
      end: dayOf(0).dayFirst,
    });
    expect(month.body.data.opening_balance).toBe('0.00');
    expect(month.body.data.lines.map((l: { type: string }) => l.type)).toEqual(['payment', 'payment', 'invoice']);
    expect(month.body.data.closing_balance).toBe('600.00');
  });

  it('404 for another account’s or an unknown client, 400 for a bad period', async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    await createInvoice(theirs.key);
    const second = (await createInvoice(theirs.key)).client;
    await createInvoice(mine.key);
    const foreign = await statement(mine.key, second.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('client_not_found');
    expect((await statement(mine.key, 'abc')).body.code).toBe('client_not_found');
    const bad = await statement(mine.key, 1, { period: 'custom', start: '01/01/2026' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_period');
    expect((await statement(mine.key, 1, { period: 'decade' })).body.code).toBe('invalid_period');
  });

  it('refuses a period with more than 5,000 lines: 400 statement_too_large', { timeout: 120_000 }, async () => {
    // Prepare: 5,001 ledger lines of today (and the invoice's), written directly (5,001 payments through the API would take minutes)
    const { key, account } = await newAccount();
    const clientId = (await createInvoice(key)).client.id;
    await seedLedgerLines(account.companyId, clientId, dayOf(0).iso, 5001);

    const result = await statement(key, clientId);
    expect(result.status, result.rawBody).toBe(400);
    expect(result.body.code).toBe('statement_too_large');
    expect(result.body.message).toMatch(/shorter period/);
    const yesterday = dayOf(-1).dayFirst;
    expect((await statement(key, clientId, { period: 'custom', start: yesterday, end: yesterday })).status).toBe(200);
  });
});
