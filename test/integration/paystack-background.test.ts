/**
 * Getting paid online in the background (docs/getting-paid-online.md "Background processing", "Refunds"): the
 * provider-event kind's deliver function (stored webhooks → verify → record, retried while Paystack is down, given up
 * after the schedule) and the refund kind's (Paystack's `POST /refund` for every excess case, the payment's `refund`,
 * `payment.refund_issued`, never a refund asked twice, refusals failed and shown) — against DynamoDB Local and the local
 * Paystack server, whose refunds listing shows what was refunded; and `paystack:events` listing both.
 */
import { describe, expect, it } from 'vitest';
import { paystackEvents } from '../../infra/cli/paystack-commands.ts';
import { deliverProviderEvent, processProviderEvent } from '../../shared/services/provider-events.ts';
import { deliverRefundJob } from '../../shared/services/refund-jobs.ts';
import { listProviderEvents } from '../../shared/store/provider-events.ts';
import { claimRefundAttempt, listRefundJobs, readRefundJob } from '../../shared/store/refund-jobs.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { call, todayMonthFirst } from '../support/api.ts';
import {
  connectedAccount,
  invoiceToPay,
  payAtCheckout,
  payInvoice,
  pressPay,
  referenceOfCheckout,
  returnFrom,
  sendWebhook,
  sign,
  usePaystack,
} from '../support/online-payments.ts';
import { until } from '../support/until.ts';

const fixture = usePaystack();

type Connected = Awaited<ReturnType<typeof connectedAccount>>;

async function chargeSuccess(connected: Connected, reference: string): Promise<string> {
  const transactions = (await connected.paystack.get('/_local/transactions')).body.data;
  const data = transactions.find((tx: { reference: string }) => tx.reference === reference);
  return JSON.stringify({ event: 'charge.success', data });
}

const latestPayment = async (connected: Connected, referenceCode: string) =>
  (await call('get-payment', { key: connected.key, pathParameters: { reference_code: referenceCode } })).body.data;

const localRefunds = async (connected: Connected) => (await connected.paystack.get('/_local/refunds')).body.data;

async function paystackLines(companyId: number) {
  const lines: Record<string, any>[] = [];
  await paystackEvents.run(paystackEvents.input({ 'company-id': String(companyId) }), {
    line: (record) => lines.push(record),
  });
  return lines;
}

async function eventsOfType(companyId: number, type: string) {
  const deliveries = await listDeliveries(companyId, 100);
  const ofType = deliveries.filter((delivery) => delivery.type === type);
  return Promise.all(ofType.map(async (delivery) => JSON.parse((await getEvent(delivery.event_id))!.body)));
}

/** Pays the invoice at the checkout after `meanwhile` ran (a cash payment, a void): the recorded online payment. */
async function paidAfter(
  connected: Connected,
  overrides: Record<string, unknown>,
  meanwhile: (ref: string) => Promise<unknown>,
) {
  const { invoice, token } = await invoiceToPay(connected.key, overrides);
  const pressed = await pressPay(token);
  await meanwhile(invoice.reference_code);
  await payAtCheckout(pressed.headers.location!, 'success_card');
  const reference = await referenceOfCheckout(fixture, connected.secretKey);
  await returnFrom(token, reference);
  const [job] = await listRefundJobs(connected.account.companyId, 10);
  return { invoice, reference, job: job! };
}

describe('the provider-event kind', () => {
  it('processes a stored charge.success once: recorded, then delivered copies find it done', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(connected.key);
    const { reference } = await payInvoice(fixture, connected.secretKey, token);
    const body = await chargeSuccess(connected, reference);
    const stored = await sendWebhook(connected.hookId, body, sign(body, connected.secretKey));
    const eventId = stored.body.data.event_id as string;
    expect(await deliverProviderEvent(eventId)).toEqual({ kind: 'delivered' });
    expect(await deliverProviderEvent(eventId)).toEqual({ kind: 'delivered' });
    const [event] = await listProviderEvents(connected.account.companyId);
    expect(event).toMatchObject({ state: 'recorded', outcome: 'recorded', attempts: 1 });
    expect(await latestPayment(connected, invoice.reference_code)).toMatchObject({
      referrer: reference,
      amount: '1000.00',
    });
  });

  it('while Paystack is down: retrying with a growing delay, then recorded; given up after the schedule', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(connected.key);
    const { reference } = await payInvoice(fixture, connected.secretKey, token);
    const body = await chargeSuccess(connected, reference);
    const eventId = (await sendWebhook(connected.hookId, body, sign(body, connected.secretKey))).body.data.event_id;
    await connected.paystack.post('/_local/api-mode', { mode: 'unavailable', count: 2 });
    const first = await deliverProviderEvent(eventId);
    const second = await deliverProviderEvent(eventId);
    expect([first.kind, second.kind]).toEqual(['retry', 'retry']);
    expect((second as { delayMs: number }).delayMs).toBeGreaterThan((first as { delayMs: number }).delayMs);
    const [line] = await paystackLines(connected.account.companyId);
    expect(line).toMatchObject({ kind: 'event', id: eventId, state: 'retrying', attempts: 2, reference });
    expect(line!.next_attempt_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await latestPayment(connected, invoice.reference_code)).toBeUndefined();
    expect(await deliverProviderEvent(eventId)).toEqual({ kind: 'delivered' });
    expect((await paystackLines(connected.account.companyId))[0]).toMatchObject({
      state: 'recorded',
      attempts: 3,
      next_attempt_at: null,
    });

    const other = await invoiceToPay(connected.key);
    const paid = await payInvoice(fixture, connected.secretKey, other.token);
    const otherBody = await chargeSuccess(connected, paid.reference);
    const lost = (await sendWebhook(connected.hookId, otherBody, sign(otherBody, connected.secretKey))).body.data
      .event_id;
    await connected.paystack.post('/_local/api-mode', { mode: 'unavailable', count: 8 });
    const outcomes = [];
    for (let attempt = 0; attempt < 8; attempt++) outcomes.push((await deliverProviderEvent(lost)).kind);
    expect(outcomes).toEqual([...Array(7).fill('retry'), 'failed']);
    expect(await processProviderEvent(lost)).toMatchObject({ state: 'failed' });
    expect((await listProviderEvents(connected.account.companyId))[0]).toMatchObject({
      state: 'failed',
      attempts: 8,
      outcome: expect.stringMatching(/^gave up after 8 attempts: verify unavailable/),
    });
  });
});

describe('the refund kind', () => {
  it('excess (a cash payment meanwhile): refunds the rest through Paystack, on the payment, payment.refund_issued', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, reference, job } = await paidAfter(connected, { fee_bearer: 'account' }, (reference_code) =>
      call('add-payment', {
        key: connected.key,
        body: { reference_code, date: todayMonthFirst(), amount: '400', channel: 'Cash' },
      }),
    );
    expect(job).toMatchObject({ reason: 'excess', amountKobo: 40_000, state: 'queued' });
    expect(await deliverRefundJob(job.jobId)).toEqual({ kind: 'delivered' });
    expect(await deliverRefundJob(job.jobId)).toEqual({ kind: 'skipped', reason: 'already issued' });
    const [refund, ...more] = await localRefunds(connected);
    expect(more).toEqual([]);
    expect(refund).toMatchObject({ amount: 40_000, transaction_reference: reference });
    expect(refund.merchant_note).toContain(job.jobId);
    const payment = await latestPayment(connected, invoice.reference_code);
    expect(payment.refund).toEqual({ amount: '400.00', status: 'pending', id: String(refund.id) });
    const [issued, ...others] = await eventsOfType(connected.account.companyId, 'payment.refund_issued');
    expect(others).toEqual([]);
    expect(issued.data).toMatchObject({
      id: payment.id,
      referrer: reference,
      refund: { amount: '400.00', status: 'pending', id: String(refund.id) },
      invoice: { reference_code: invoice.reference_code, payment_status: 'paid' },
      client: { email: expect.any(String) },
    });
    expect((await paystackLines(connected.account.companyId)).find((line) => line.kind === 'refund')).toMatchObject({
      id: job.jobId,
      type: 'refund.excess',
      state: 'issued',
      amount: '400.00',
      refund_id: String(refund.id),
      attempts: 1,
    });
  });

  it('voided and already paid: the whole charge refunded; Paystack’s refund events move its status on', async () => {
    const connected = await connectedAccount(fixture);
    const voided = await paidAfter(connected, {}, (reference_code) =>
      call('delete-invoice', { key: connected.key, pathParameters: { reference_code } }),
    );
    expect(await deliverRefundJob(voided.job.jobId)).toEqual({ kind: 'delivered' });
    const paidFirst = await paidAfter(connected, {}, (reference_code) =>
      call('add-payment', {
        key: connected.key,
        body: { reference_code, date: todayMonthFirst(), amount: '1000', channel: 'Cash' },
      }),
    );
    expect(paidFirst.job).toMatchObject({ reason: 'already_paid', amountKobo: 101_523 });
    expect(await deliverRefundJob(paidFirst.job.jobId)).toEqual({ kind: 'delivered' });
    const refunds = await localRefunds(connected);
    expect(refunds.map((r: any) => [r.transaction_reference, r.amount, r.refund_type]).sort()).toEqual(
      [
        [voided.reference, 101_523, 'full'],
        [paidFirst.reference, 101_523, 'full'],
      ].sort(),
    );
    // The local server processes refunds after 50 ms and sends refund.pending, .processing, .processed.
    await until('the refunds processed', async () =>
      (await localRefunds(connected)).every((refund: any) => refund.status === 'processed'),
    );
    for (const { reference, job } of [voided, paidFirst]) {
      const processed = (await connected.paystack.get('/_local/transactions')).body.data.find(
        (tx: any) => tx.reference === reference,
      );
      expect(processed.status).toBe('reversed');
      const body = JSON.stringify({
        event: 'refund.processed',
        data: {
          ...refunds.find((r: any) => r.transaction_reference === reference),
          transaction_reference: reference,
          status: 'processed',
          id: String(refunds.find((r: any) => r.transaction_reference === reference).id),
        },
      });
      const eventId = (await sendWebhook(connected.hookId, body, sign(body, connected.secretKey))).body.data.event_id;
      expect(await processProviderEvent(eventId)).toMatchObject({ state: 'refund', paymentId: job.paymentId });
    }
    const history = await call('payment-history', { key: connected.key, body: { period: 'today' } });
    const online = history.body.data.payments.filter((p: any) => p.referrer !== '');
    expect(online.map((p: any) => [p.status, p.refund.status])).toEqual([
      ['refunded', 'processed'],
      ['refunded', 'processed'],
    ]);
  });

  it('never asks twice: a later attempt finds the refund an earlier one made before its answer was lost', async () => {
    const connected = await connectedAccount(fixture);
    const { job } = await paidAfter(connected, {}, (reference_code) =>
      call('delete-invoice', { key: connected.key, pathParameters: { reference_code } }),
    );
    // The first attempt counted itself and reached Paystack; its answer never came back.
    expect(await claimRefundAttempt(job, new Date().toISOString())).toBe(true);
    await connected.paystack.post('/refund', {
      transaction: job.transactionId,
      amount: job.amountKobo,
      merchant_note: `Refund ${job.jobId} (the lost attempt)`,
    });
    expect(await deliverRefundJob(job.jobId)).toEqual({ kind: 'delivered' });
    const refunds = await localRefunds(connected);
    expect(refunds).toHaveLength(1);
    expect(await readRefundJob(job.jobId)).toMatchObject({
      state: 'issued',
      attempts: 2,
      refundId: String(refunds[0].id),
    });
  });

  it('Paystack down: retried, then issued; refused: failed on the job and the payment, shown in paystack:events', async () => {
    const connected = await connectedAccount(fixture);
    const down = await paidAfter(connected, {}, (reference_code) =>
      call('delete-invoice', { key: connected.key, pathParameters: { reference_code } }),
    );
    await connected.paystack.post('/_local/api-mode', { mode: 'unavailable', count: 1 });
    expect((await deliverRefundJob(down.job.jobId)).kind).toBe('retry');
    expect(await readRefundJob(down.job.jobId)).toMatchObject({ state: 'queued', attempts: 1 });
    expect(await deliverRefundJob(down.job.jobId)).toEqual({ kind: 'delivered' });
    expect(await localRefunds(connected)).toHaveLength(1);

    const refused = await paidAfter(connected, {}, (reference_code) =>
      call('delete-invoice', { key: connected.key, pathParameters: { reference_code } }),
    );
    // Refunded whole by hand in the dashboard first: Paystack refuses another.
    await connected.paystack.post('/refund', { transaction: refused.job.transactionId });
    expect(await deliverRefundJob(refused.job.jobId)).toEqual({ kind: 'failed' });
    const history = await call('payment-history', { key: connected.key, body: { period: 'today' } });
    const payment = history.body.data.payments.find((p: any) => p.id === refused.job.paymentId);
    expect(payment.refund).toEqual({ amount: '1015.23', status: 'failed', id: null });
    expect((await paystackLines(connected.account.companyId)).find((l) => l.id === refused.job.jobId)).toMatchObject({
      state: 'failed',
      outcome: expect.stringContaining('Transaction has been fully reversed'),
    });
    expect(await eventsOfType(connected.account.companyId, 'payment.refund_issued')).toHaveLength(1);
  });
});
