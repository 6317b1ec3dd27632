/**
 * Paystack's word (docs/getting-paid-online.md "Webhooks", "Recording", "Refunds"): the webhook route stores signed
 * events byte for byte and refuses forged ones (nothing stored); processing verifies with Paystack and records once per
 * reference — duplicates, races with the return, tampered and excess amounts, voided invoices, unknown references and
 * failed verifies — through the invoice function and the services, against DynamoDB Local and the local Paystack.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYSTACK_FEES } from '../../shared/domain/online-payment.ts';
import { checkoutReference } from '../../shared/domain/online-recording.ts';
import { processProviderEvent } from '../../shared/services/provider-events.ts';
import { recordOnlinePayment } from '../../shared/services/record-online-payment.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { putCheckoutAttempt } from '../../shared/store/online-payments.ts';
import { listProviderEvents } from '../../shared/store/provider-events.ts';
import { newUlid } from '../../shared/ulid.ts';
import { call, todayMonthFirst } from '../support/api.ts';
import { newSecretKey } from '../support/local-paystack.ts';
import {
  chargeSuccessEvent,
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

const fixture = usePaystack();

const invoiceOf = async (key: string, referenceCode: string) =>
  (await call('get-invoice', { key, pathParameters: { reference_code: referenceCode } })).body.data;

async function refundJobs(companyId: number) {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'GSI1',
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': `REFUNDS#${companyId}` },
    }),
  );
  return out.Items ?? [];
}

describe('POST /paystack/events/{hook_id}', () => {
  it('stores a signed event whole and answers 200 with its id; processing records the payment from verify', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(connected.key);
    const { reference } = await payInvoice(fixture, connected.secretKey, token);
    const body = await chargeSuccessEvent(connected.paystack, reference);
    const answer = await sendWebhook(connected.hookId, body, sign(body, connected.secretKey));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'success', message: 'Event received.' });
    const [stored] = await listProviderEvents(connected.account.companyId);
    expect(stored).toMatchObject({ eventId: answer.body.data.event_id, eventType: 'charge.success', reference });
    expect(Buffer.from(stored!.body).toString('utf8')).toBe(body);
    expect(await processProviderEvent(stored!.eventId)).toMatchObject({ state: 'recorded', outcome: 'recorded' });
    expect(await invoiceOf(connected.key, invoice.reference_code)).toMatchObject({
      payment_status: 'paid',
      amount_paid: '1000.00',
    });
  });

  it('verifies the exact bytes, whatever API Gateway did with them: base64, unicode, spacing', async () => {
    const connected = await connectedAccount(fixture);
    const body = `{ "event": "charge.success",\n  "data": { "reference": "x-1", "customer": { "first_name": "Adébáyọ̀ ₦" } } }`;
    for (const base64 of [false, true])
      expect((await sendWebhook(connected.hookId, body, sign(body, connected.secretKey), { base64 })).status).toBe(200);
    const tampered = body.replace('₦', 'N');
    expect((await sendWebhook(connected.hookId, tampered, sign(body, connected.secretKey))).status).toBe(401);
  });

  it('forged, missing or another account’s signature: 401 invalid_signature, nothing stored; unknown hook: 404', async () => {
    const connected = await connectedAccount(fixture);
    const other = await connectedAccount(fixture);
    const body = JSON.stringify({ event: 'charge.success', data: { reference: 'x-1', amount: 100 } });
    const refusals = [
      await sendWebhook(connected.hookId, body, undefined),
      await sendWebhook(connected.hookId, body, ''),
      await sendWebhook(connected.hookId, body, 'f'.repeat(128)),
      await sendWebhook(connected.hookId, body, sign(body, other.secretKey)),
      await sendWebhook(connected.hookId, body, sign(body, newSecretKey())),
    ];
    for (const refused of refusals) expect([refused.status, refused.body.code]).toEqual([401, 'invalid_signature']);
    expect(await listProviderEvents(connected.account.companyId)).toEqual([]);
    const unknown = await sendWebhook('AAAAAAAAAAAAAAAAAAAAAAAA', body, sign(body, connected.secretKey));
    expect([unknown.status, unknown.body.code]).toEqual([404, 'hook_not_found']);
  });

  it('five duplicates of the event and the return, in any order: exactly one payment', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(connected.key);
    const { reference } = await payInvoice(fixture, connected.secretKey, token);
    const body = await chargeSuccessEvent(connected.paystack, reference);
    for (let i = 0; i < 5; i++) await sendWebhook(connected.hookId, body, sign(body, connected.secretKey));
    const events = await listProviderEvents(connected.account.companyId);
    const outcomes = [];
    for (const event of events.reverse()) outcomes.push((await processProviderEvent(event.eventId)).state);
    expect(outcomes).toEqual(['recorded', 'duplicate', 'duplicate', 'duplicate', 'duplicate']);
    expect((await returnFrom(token, reference)).rawBody).toContain('Payment received');
    const read = await invoiceOf(connected.key, invoice.reference_code);
    expect(read.amount_paid).toBe('1000.00');
    const history = await call('payment-history', { key: connected.key, body: { period: 'today' } });
    expect(history.body.data.payments).toHaveLength(1);
    expect(history.body.data.summary).toMatchObject({ count: 1, total: '1000.00', by_channel: { Card: '1000.00' } });
  });

  it('an event for a reference never issued, or a transfer to a dedicated account, is stored and ignored', async () => {
    const connected = await connectedAccount(fixture);
    for (const data of [
      { reference: 'T1234567', channel: 'card' },
      { reference: 'T7654321', channel: 'dedicated_nuban' },
    ]) {
      const body = JSON.stringify({ event: 'charge.success', data });
      const stored = await sendWebhook(connected.hookId, body, sign(body, connected.secretKey));
      expect((await processProviderEvent(stored.body.data.event_id)).state).toBe('ignored');
    }
    const refund = JSON.stringify({ event: 'refund.processed', data: { transaction_reference: 'x' } });
    const stored = await sendWebhook(connected.hookId, refund, sign(refund, connected.secretKey));
    expect(await processProviderEvent(stored.body.data.event_id)).toEqual({
      state: 'ignored',
      outcome: 'a refund event without its transaction reference, id or status',
    });
  });

  it('a verify Paystack does not answer leaves the event retrying: nothing recorded until it answers', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(connected.key);
    const { reference } = await payInvoice(fixture, connected.secretKey, token);
    const body = await chargeSuccessEvent(connected.paystack, reference);
    const stored = await sendWebhook(connected.hookId, body, sign(body, connected.secretKey));
    await connected.paystack.post('/_local/api-mode', { mode: 'unavailable', count: 1 });
    expect((await processProviderEvent(stored.body.data.event_id)).state).toBe('retrying');
    expect((await invoiceOf(connected.key, invoice.reference_code)).amount_paid).toBe('0.00');
    expect((await processProviderEvent(stored.body.data.event_id)).state).toBe('recorded');
  });
});

describe('recordOnlinePayment', () => {
  it('races: returns, webhook processings and direct recordings of one reference, 12 at once → one payment', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(connected.key);
    const { reference } = await payInvoice(fixture, connected.secretKey, token);
    const body = await chargeSuccessEvent(connected.paystack, reference);
    const stored = await Promise.all(
      [1, 2, 3, 4].map(() => sendWebhook(connected.hookId, body, sign(body, connected.secretKey))),
    );
    const verified = JSON.parse(body).data;
    const charge = {
      reference,
      status: 'success',
      amountKobo: verified.amount,
      currency: 'NGN',
      transactionId: String(verified.id),
      channel: 'card',
      gatewayResponse: verified.gateway_response,
      message: '',
      paidAt: verified.paid_at,
      feesKobo: verified.fees,
    };
    const companyId = connected.account.companyId;
    const results = await Promise.all([
      ...stored.map((answer) => processProviderEvent(answer.body.data.event_id)),
      ...[1, 2, 3, 4].map(() => returnFrom(token, reference)),
      ...[1, 2, 3, 4].map(() => recordOnlinePayment({ companyId, reference, charge })),
    ]);
    const outcomes = results.map((r) => (r as { state?: string }).state ?? (r as { outcome?: string }).outcome);
    const services = outcomes.filter((outcome) => outcome !== undefined);
    expect(services.every((o) => ['recorded', 'duplicate', 'already_recorded'].includes(o!))).toBe(true);
    expect(services.filter((o) => o === 'recorded').length).toBeLessThanOrEqual(1);
    for (const page of results.slice(4, 8)) expect((page as { rawBody: string }).rawBody).toContain('Payment received');
    const read = await invoiceOf(connected.key, invoice.reference_code);
    expect([read.amount_paid, read.payment_status]).toEqual(['1000.00', 'paid']);
    const history = await call('payment-history', { key: connected.key, body: { period: 'today' } });
    expect(history.body.data.payments).toHaveLength(1);
    expect(history.body.data.summary.count).toBe(1);
  });

  it('a tampered (short) amount is recorded as the partial payment it is, never as paid', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice } = await invoiceToPay(connected.key);
    const reference = checkoutReference(invoice.reference_code, newUlid());
    await putCheckoutAttempt({
      reference,
      companyId: connected.account.companyId,
      referenceCode: invoice.reference_code,
      invoiceId: invoice.id,
      expectedKobo: 101_523,
      amountDueKobo: 100_000,
      feeBearer: 'client',
      fees: DEFAULT_PAYSTACK_FEES,
      createdAt: '2026-01-01 00:00:00',
    });
    // Someone initialized the same reference for ₦500.00 and paid that.
    const started = await connected.paystack.post('/transaction/initialize', {
      email: 'x@example.com',
      amount: 50_000,
      reference,
    });
    await payAtCheckout(started.body.data.authorization_url, 'success_card');
    const body = await chargeSuccessEvent(connected.paystack, reference);
    const stored = await sendWebhook(connected.hookId, body, sign(body, connected.secretKey));
    expect((await processProviderEvent(stored.body.data.event_id)).state).toBe('recorded');
    // The client bears the fee: ₦500.00 nets ₦492.50 after Paystack's 1.5 %.
    expect(await invoiceOf(connected.key, invoice.reference_code)).toMatchObject({
      amount_paid: '492.50',
      payment_status: 'partially_paid',
    });
    expect(await refundJobs(connected.account.companyId)).toEqual([]);
  });

  it('more than the invoice can take (a cash payment meanwhile): the rest refunded, on the payment and as a job', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(connected.key, { fee_bearer: 'account' });
    const pressed = await pressPay(token);
    await call('add-payment', {
      key: connected.key,
      body: { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '400', channel: 'Cash' },
    });
    await payAtCheckout(pressed.headers.location!, 'success_card');
    const reference = await referenceOfCheckout(fixture, connected.secretKey);
    expect((await returnFrom(token, reference)).rawBody).toContain('₦400.00 of it is being refunded to you.');
    const latest = await call('get-payment', {
      key: connected.key,
      pathParameters: { reference_code: invoice.reference_code },
    });
    expect(latest.body.data).toMatchObject({
      amount: '600.00',
      amount_charged: '1000.00',
      refund: { amount: '400.00', status: 'pending', id: null },
      invoice: { payment_status: 'paid' },
    });
    const [job] = await refundJobs(connected.account.companyId);
    expect(job).toMatchObject({
      entity: 'refund_job',
      payment_id: latest.body.data.id,
      reference,
      amount: 40_000,
      reason: 'excess',
      job_state: 'queued',
    });
  });

  it('a voided invoice takes nothing: a payment of 0 with the whole charge refunded, which cannot be reversed', async () => {
    const connected = await connectedAccount(fixture);
    const { invoice, token } = await invoiceToPay(connected.key);
    const pressed = await pressPay(token);
    await call('delete-invoice', { key: connected.key, pathParameters: { reference_code: invoice.reference_code } });
    await payAtCheckout(pressed.headers.location!, 'success_card');
    const reference = await referenceOfCheckout(fixture, connected.secretKey);
    const body = await chargeSuccessEvent(connected.paystack, reference);
    const stored = await sendWebhook(connected.hookId, body, sign(body, connected.secretKey));
    const processed = await processProviderEvent(stored.body.data.event_id);
    expect(processed.state).toBe('recorded');
    const history = await call('payment-history', { key: connected.key, body: { period: 'today' } });
    const [payment] = history.body.data.payments;
    expect(payment).toMatchObject({
      amount: '0.00',
      status: 'refunded',
      amount_charged: '1015.23',
      refund: { amount: '1015.23', status: 'pending' },
    });
    expect(history.body.data.summary).toMatchObject({ count: 0, total: '0.00' });
    const [job] = await refundJobs(connected.account.companyId);
    expect(job).toMatchObject({ amount: 101_523, reason: 'voided' });
    const reversal = await call('reverse-payment', {
      key: connected.key,
      pathParameters: { id: String(payment.id) },
      body: { reason: 'no' },
    });
    expect([reversal.status, reversal.body.code]).toEqual([409, 'payment_refunded']);
    expect(await invoiceOf(connected.key, invoice.reference_code)).toMatchObject({ amount_paid: '0.00' });
  });
});
