/**
 * docs/tax.md "Credit notes": POST /invoices/{reference_code}/credit-notes through API Gateway-shaped events on
 * DynamoDB Local — by amount and by items with the invoice's VAT split, what is due and what goes to the client's
 * credit, the cap, a voided invoice, another account's invoice, bad input, Idempotency-Key, numbers, the event and the
 * statement line.
 */
import { describe, expect, it } from 'vitest';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { vatAccount } from '../support/accounts.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

const credit = (key: string, reference_code: string, body: Record<string, unknown>, idempotencyKey?: string) =>
  call('create-credit-note', {
    key,
    pathParameters: { reference_code },
    body,
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
  });

const invoiceOf = async (key: string, reference_code: string) =>
  (await call('get-invoice', { key, pathParameters: { reference_code } })).body.data;

const pay = (key: string, reference_code: string, amount: string) =>
  call('add-payment', { key, body: { reference_code, date: todayMonthFirst(), amount, channel: 'Cash' } });

const goods = (unit_cost: string, quantity = 1, extra: Record<string, unknown> = {}) => ({
  items: [{ item: 'Goods', description: 'A line', unit_cost, quantity, ...extra }],
});

describe('POST /invoices/{reference_code}/credit-notes', () => {
  it('by amount on an unpaid invoice: 201 CN-000001, the amount due reduced, nothing to the client', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, goods('10000'));
    const answer = await credit(key, invoice.reference_code, { reason: 'Two items damaged', amount: '2,500.00' });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Credit note created successfully.');
    expect(answer.body.data).toMatchObject({
      number: 'CN-000001',
      reference_code: invoice.reference_code,
      invoice_number: invoice.number,
      reason: 'Two items damaged',
      vat_mode: 'off',
      items: [],
      subtotal: '2500.00',
      tax_total: '0.00',
      total: '2500.00',
      taxes: [],
      applied_to_invoice: '2500.00',
      credited_to_client: '0.00',
    });
    expect(answer.body.data.id).toMatch(/^cn_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(answer.body.data.invoice).toMatchObject({ amount_due: '7500.00', amount_paid: '0.00' });
    expect(await invoiceOf(key, invoice.reference_code)).toMatchObject({
      total: '10000.00',
      amount_due: '7500.00',
      payment_status: 'unpaid',
    });
    const token = new URL(invoice.hosted_url).pathname.split('/')[2]!;
    const page = await call('hosted-invoice-page', { pathParameters: { token } });
    expect(page.rawBody).toContain('<h2>Credit notes</h2>');
    expect(page.rawBody).toMatch(
      /CN-000001 · <time[^>]*>[^<]+<\/time><\/span><span class="num">[^<]*2,500\.00<\/span>/,
    );
    expect(page.rawBody).toContain('Two items damaged');
    const rest = await pay(key, invoice.reference_code, '7,500.00');
    expect(rest.body.data.invoice).toMatchObject({ amount_due: '0.00', payment_status: 'paid' });
  });

  it('by items on an exclusive-VAT invoice: taxed as the invoice is; by amount: split over its categories', async () => {
    const { key } = await vatAccount('exclusive');
    const invoice = await createInvoice(key, {
      items: [
        { item: 'Laptop', description: 'Standard', unit_cost: '1000', quantity: 2 },
        { item: 'Bread', description: 'Zero-rated', unit_cost: '500', quantity: 1, tax: 'zero' },
      ],
    });
    expect(invoice.total).toBe('2650.00'); // 2,000 + 7.5 % + 500
    const byItems = await credit(key, invoice.reference_code, {
      reason: 'One laptop returned',
      items: [{ item: 'Laptop', description: 'Standard', unit_cost: '1000', quantity: 1 }],
    });
    expect(byItems.status).toBe(201);
    expect(byItems.body.data).toMatchObject({
      vat_mode: 'exclusive',
      subtotal: '1000.00',
      tax_total: '75.00',
      total: '1075.00',
      items: [{ name: 'Laptop', quantity: '1', unit_cost: '1000.00', tax: 'standard', net: '1000.00' }],
      taxes: [{ name: 'VAT', category: 'standard', rate: '7.5', taxable: '1000.00', amount: '75.00' }],
    });
    const byAmount = await credit(key, invoice.reference_code, { reason: 'Goodwill', amount: '1575.00' });
    expect(byAmount.status).toBe(201);
    // What is left to credit (2,650.00 − 1,075.00), split as the invoice's total is (2,150.00 : 500.00): 1,277.83
    // standard, VAT taken out once (1,277.83 × 7.5 / 107.5 = 89.15), and 297.17 zero-rated.
    expect(byAmount.body.data).toMatchObject({ number: 'CN-000002', total: '1575.00', tax_total: '89.15' });
    expect(byAmount.body.data.taxes).toEqual([
      { name: 'VAT', category: 'standard', rate: '7.5', taxable: '1188.68', amount: '89.15' },
      { name: 'VAT', category: 'zero', rate: '0', taxable: '297.17', amount: '0.00' },
    ]);
    expect(await invoiceOf(key, invoice.reference_code)).toMatchObject({ amount_due: '0.00', payment_status: 'paid' });
  });

  it('on a paid invoice: the whole credit goes to the client, shown on its statement and taken by its next invoice', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, goods('10000'));
    await pay(key, invoice.reference_code, '6,000.00');
    const answer = await credit(key, invoice.reference_code, { reason: 'Price corrected', amount: '5,000.00' });
    expect(answer.body.data).toMatchObject({ applied_to_invoice: '4000.00', credited_to_client: '1000.00' });
    expect(answer.body.data.invoice).toMatchObject({ amount_due: '0.00', payment_status: 'paid' });
    const clientId = Number(invoice.client_id);
    const client = await call('get-client', { key, pathParameters: { id: String(clientId) } });
    expect(client.body.data.credit_balance).toBe('1000.00');
    const statement = await call('client-statement', {
      key,
      pathParameters: { id: String(clientId) },
      body: { period: 'today' },
    });
    const lines = statement.body.data.lines.filter((line: { type: string }) => line.type === 'credit_note');
    expect(lines.map((line: { debit: string; credit: string }) => [line.debit, line.credit])).toEqual([
      ['0.00', '5000.00'],
      ['1000.00', '0.00'],
    ]);
    expect(statement.body.data.closing_balance).toBe('0.00');
    const next = await createInvoice(key, { client: undefined, client_id: clientId, ...goods('3000') });
    expect((await invoiceOf(key, next.reference_code)).amount_due).toBe('2000.00');
  });

  it('409 credit_exceeds_invoice beyond the total less earlier credit notes, with what is creditable; nothing written', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, goods('1000'));
    await credit(key, invoice.reference_code, { reason: 'First', amount: '600' });
    const refused = await credit(key, invoice.reference_code, { reason: 'Too much', amount: '400.01' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      status: 'error',
      code: 'credit_exceeds_invoice',
      errors: [{ field: 'amount', code: 'credit_exceeds_invoice', creditable: '400.00' }],
    });
    expect((await invoiceOf(key, invoice.reference_code)).amount_due).toBe('400.00');
    const next = await credit(key, invoice.reference_code, { reason: 'The rest', amount: '400' });
    expect(next.body.data.number).toBe('CN-000002');
  });

  it('409 invoice_deleted on a voided invoice; 404 for another account’s invoice; nothing written', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const voided = await createInvoice(key, goods('1000'));
    await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    const onVoided = await credit(key, voided.reference_code, { reason: 'x', amount: '10' });
    expect(onVoided.status).toBe(409);
    expect(onVoided.body.code).toBe('invoice_deleted');
    const foreign = await createInvoice(other.key, goods('1000'));
    const notMine = await credit(key, foreign.reference_code, { reason: 'x', amount: '10' });
    expect(notMine.status).toBe(404);
    expect(notMine.body.code).toBe('invoice_not_found');
    expect((await invoiceOf(other.key, foreign.reference_code)).amount_due).toBe('1000.00');
    const first = await credit(other.key, foreign.reference_code, { reason: 'Own', amount: '10' });
    expect(first.body.data.number).toBe('CN-000001');
  });

  it.each([
    [{ amount: '10' }, 'reason'],
    [{ reason: 'Neither' }, 'items'],
    [{ reason: 'Both', amount: '10', items: goods('10').items }, 'amount'],
    [{ reason: 'Zero', amount: '0' }, 'amount'],
    [{ reason: 'Bad', amount: '1.234' }, 'amount'],
    [{ reason: 'Discount', items: goods('10', 1, { discount: '11' }).items }, 'items.0.discount'],
  ])('400 validation_failed for %j (on %s), nothing written', async (body, field) => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, goods('1000'));
    const refused = await credit(key, invoice.reference_code, body);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_failed');
    expect(refused.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    expect((await invoiceOf(key, invoice.reference_code)).amount_due).toBe('1000.00');
    const next = await credit(key, invoice.reference_code, { reason: 'Fine', amount: '1' });
    expect(next.body.data.number).toBe('CN-000001');
  });

  it('Idempotency-Key: a retry answers the same credit note; no second number, no second reduction', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, goods('1000'));
    const body = { reason: 'Retried', amount: '100' };
    const first = await credit(key, invoice.reference_code, body, 'cn-key-1');
    const replay = await credit(key, invoice.reference_code, body, 'cn-key-1');
    expect(replay.status).toBe(201);
    expect(replay.rawBody).toBe(first.rawBody);
    expect((await invoiceOf(key, invoice.reference_code)).amount_due).toBe('900.00');
    const reused = await credit(key, invoice.reference_code, { reason: 'Other', amount: '5' }, 'cn-key-1');
    expect(reused.status).toBe(422);
    const next = await credit(key, invoice.reference_code, { reason: 'Next', amount: '1' });
    expect(next.body.data.number).toBe('CN-000002');
  });

  it('writes one credit_note.created event whose data is the response data', async () => {
    const { key, account } = await newAccount();
    const invoice = await createInvoice(key, goods('1000'));
    const answer = await credit(key, invoice.reference_code, { reason: 'Event', amount: '10' });
    const events = (await listDeliveries(account.companyId)).filter((line) => line.type === 'credit_note.created');
    expect(events).toHaveLength(1);
    const stored = await getEvent(events[0]!.event_id);
    expect(JSON.parse(stored!.body).data).toEqual(answer.body.data);
  });

  it('race: concurrent credit notes on one invoice never pass its total; their numbers are distinct and gapless', {
    timeout: 120_000,
  }, async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, goods('100', 5)); // 500.00: room for five of 100.00
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('create-credit-note', {
          key,
          pathParameters: { reference_code: invoice.reference_code },
          body: { reason: `Race ${i}`, amount: '100' },
          budgetMs: 30_000,
        }),
      ),
    );
    const statuses = results.map((result) => result.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    const numbers = results.filter((result) => result.status === 201).map((result) => result.body.data.number);
    expect(numbers.sort()).toEqual(['CN-000001', 'CN-000002', 'CN-000003', 'CN-000004', 'CN-000005']);
    expect(await invoiceOf(key, invoice.reference_code)).toMatchObject({ amount_due: '0.00', payment_status: 'paid' });
  });
});
