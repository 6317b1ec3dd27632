/**
 * docs/bank-transfers.md "Client credit" with reversals and voids, through API Gateway-shaped events on DynamoDB Local:
 * credit is never lost nor created — `credit_balance` = Σ in − Σ applied − Σ refunded — when a payment from credit is
 * reversed, or an invoice whose credit notes went to the client's credit is voided after its payment was reversed.
 */
import { describe, expect, it } from 'vitest';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';

type Row = Record<string, any>;

const goods = (unit_cost: string) => ({ items: [{ item: 'Goods', description: 'A line', unit_cost, quantity: 1 }] });

const pay = async (key: string, reference_code: string, amount: string) => {
  const paid = await call('add-payment', {
    key,
    body: { reference_code, date: todayMonthFirst(), amount, channel: 'Cash' },
  });
  expect(paid.status, paid.rawBody).toBe(201);
  return paid.body.data as Row;
};

const reverse = (key: string, id: string | number, reason: string) =>
  call('reverse-payment', { key, pathParameters: { id: String(id) }, body: { reason } });

const creditNote = (key: string, reference_code: string, amount: string) =>
  call('create-credit-note', { key, pathParameters: { reference_code }, body: { reason: 'discount', amount } });

const creditBalance = async (key: string, clientId: number) =>
  (await call('get-client', { key, pathParameters: { id: String(clientId) } })).body.data.credit_balance;

const unappliedCredit = async (key: string) => {
  const aging = (await call('aging-report', { key, body: {} })).body.data;
  return { total: aging.total_unapplied_credit, rows: aging.clients.map((row: Row) => row.unapplied_credit) };
};

const statementCredit = async (key: string, clientId: number) =>
  (await call('client-statement', { key, pathParameters: { id: String(clientId) }, body: { period: 'today' } })).body
    .data.credit;

const creditChanges = async (companyId: number) => {
  const deliveries = (await listDeliveries(companyId)).filter((d) => d.type === 'client.credit_changed');
  return Promise.all(deliveries.reverse().map(async (d) => JSON.parse((await getEvent(d.event_id))!.body).data));
};

/** A paid invoice of a new client credited 400.00 of its 1,000.00: the client holds 400.00 of credit. */
async function creditedClient() {
  const { key, account } = await newAccount();
  const invoice = await createInvoice(key, goods('1000'));
  const payment = await pay(key, invoice.reference_code, '1000');
  const note = await creditNote(key, invoice.reference_code, '400');
  expect(note.body.data).toMatchObject({ applied_to_invoice: '0.00', credited_to_client: '400.00' });
  const clientId = Number(invoice.client_id);
  expect(await creditBalance(key, clientId)).toBe('400.00');
  return { key, companyId: account.companyId, invoice, payment, clientId };
}

describe('client credit through reversals and voids', () => {
  it('voiding an invoice whose payment was reversed takes back the credit its credit notes gave: none is created', async () => {
    const { key, companyId, invoice, payment, clientId } = await creditedClient();
    const reversed = await reverse(key, payment.id, 'cheque bounced');
    expect(reversed.status, reversed.rawBody).toBe(200);
    // The reversal makes due again what the payment covered; the credit note's credit stays the client's until then.
    expect(reversed.body.data.invoice.amount_due).toBe('1000.00');
    expect(await creditBalance(key, clientId)).toBe('400.00');
    const voided = await call('delete-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(voided.status, voided.rawBody).toBe(200);
    expect(await creditBalance(key, clientId)).toBe('0.00');
    expect(await unappliedCredit(key)).toEqual({ total: '0.00', rows: [] });
    const refund = await call('refund-client-credit', {
      key,
      pathParameters: { id: String(clientId) },
      body: { amount: '400' },
    });
    expect([refund.status, refund.body.code]).toEqual([409, 'amount_exceeds_credit']);
    const statement = await call('client-statement', {
      key,
      pathParameters: { id: String(clientId) },
      body: { period: 'today' },
    });
    expect(statement.body.data.closing_balance).toBe('0.00');
    expect(statement.body.data.credit).toMatchObject({ received: '400.00', applied: '400.00', balance: '0.00' });
    expect((await creditChanges(companyId)).map((data) => [data.change.kind, data.credit_balance])).toEqual([
      ['received', '400.00'],
      ['applied', '0.00'],
    ]);
  });

  it('409 amount_exceeds_credit on voiding when that credit was refunded meanwhile: nothing written', async () => {
    const { key, invoice, payment, clientId } = await creditedClient();
    expect((await reverse(key, payment.id, 'cheque bounced')).status).toBe(200);
    const refund = await call('refund-client-credit', {
      key,
      pathParameters: { id: String(clientId) },
      body: { amount: '400' },
    });
    expect(refund.status, refund.rawBody).toBe(200);
    const voided = await call('delete-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect([voided.status, voided.body.code]).toEqual([409, 'amount_exceeds_credit']);
    const read = await call('get-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(read.body.data).toMatchObject({ amount_due: '1000.00', deleted_at: null });
    expect(await creditBalance(key, clientId)).toBe('0.00');
  });

  it('reversing a payment from credit gives its amount back to the client’s credit', async () => {
    const { key, companyId, clientId } = await creditedClient();
    const next = await createInvoice(key, { client: undefined, client_id: clientId, ...goods('1000') });
    const history = await call('payment-history', { key, body: { period: 'today' } });
    const fromCredit = (history.body.data.payments as Row[]).find((p) => p.channel === 'Credit');
    expect(fromCredit).toMatchObject({ amount: '400.00' });
    expect(await creditBalance(key, clientId)).toBe('0.00');
    const reversed = await reverse(key, fromCredit!.id, 'applied by mistake');
    expect(reversed.status, reversed.rawBody).toBe(200);
    expect(reversed.body.data.invoice).toMatchObject({ reference_code: next.reference_code, amount_due: '1000.00' });
    expect(await creditBalance(key, clientId)).toBe('400.00');
    expect(await unappliedCredit(key)).toEqual({ total: '400.00', rows: ['400.00'] });
    expect(await statementCredit(key, clientId)).toMatchObject({
      received: '400.00',
      applied: '0.00',
      balance: '400.00',
    });
    expect((await creditChanges(companyId)).map((data) => [data.change.kind, data.credit_balance])).toEqual([
      ['received', '400.00'],
      ['applied', '0.00'],
      ['application_reversed', '400.00'],
    ]);
    const refund = await call('refund-client-credit', {
      key,
      pathParameters: { id: String(clientId) },
      body: { amount: '400' },
    });
    expect(refund.status, refund.rawBody).toBe(200);
    expect(await creditBalance(key, clientId)).toBe('0.00');
  });
});
