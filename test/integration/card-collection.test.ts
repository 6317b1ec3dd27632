/**
 * Automatic collection (docs/getting-paid-online.md "Automatic collection"): an invoice created with a client's saved
 * card is charged by the wake sweep's attempt and the charge kind's job — on DynamoDB Local with the local Paystack
 * server. A charge recorded once; a decline's `collection` and `invoice.payment_failed`, retried 1, 3 and 7 days after
 * the first attempt, then `failed`; paying by other means stops it; neither a repeated sweep nor a repeated job charges
 * twice; a recurring series with the card has each period's invoice collected the same way. The whole-table sweep
 * runs only at the real time (other files' invoices share the table); later days are swept for this file's
 * collections alone, through the collection kind's handler.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { paystackEvents } from '../../infra/cli/paystack-commands.ts';
import { addDays, todayIn, toEpochSeconds, wallClockInstant } from '../../shared/domain/dates.ts';
import { deliverChargeJob } from '../../shared/services/collection-charges.ts';
import { wakeCollections } from '../../shared/services/collection-sweep.ts';
import { wakeSeries } from '../../shared/services/recurring-sweep.ts';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { getAccount } from '../../shared/store/accounts.ts';
import { claimChargeDelivery, listChargeJobs } from '../../shared/store/card-collections.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { issuedPeriods } from '../../shared/store/recurring.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { call, createInvoice, todayMonthFirst } from '../support/api.ts';
import { connectedAccount, invoiceToPay, payInvoice, returnFrom, usePaystack } from '../support/online-payments.ts';

const fixture = usePaystack();

type Connected = Awaited<ReturnType<typeof connectedAccount>>;

const DAY_MS = 86_400_000;

/** A connected account whose client has a saved card (paid once by card with `tokenize`), and its authorization. */
async function clientWithCard() {
  const connected = await connectedAccount(fixture, { tokenizationEnabled: true });
  const client = {
    first_name: 'Ada',
    last_name: 'Obi',
    email: `ada.${Date.now()}@example.com`,
    phone: '+2348012345678',
  };
  const { invoice, token } = await invoiceToPay(connected.key, { client, tokenize: 'true' });
  const { reference } = await payInvoice(fixture, connected.secretKey, token);
  await returnFrom(token, reference);
  const payment = (
    await call('get-payment', { key: connected.key, pathParameters: { reference_code: invoice.reference_code } })
  ).body.data;
  const paid = (await transactions(connected)).find((tx) => tx.reference === reference);
  return {
    connected,
    clientId: String(invoice.client_id),
    cardToken: String(payment.card_token),
    authorizationCode: String(paid.authorization.authorization_code),
  };
}

type WithCard = Awaited<ReturnType<typeof clientWithCard>>;

const transactions = async (connected: Connected): Promise<any[]> =>
  (await connected.paystack.get('/_local/transactions')).body.data;

/** An invoice of ₦1,000.00 (fee borne by the account) to be collected with the saved card, due today. */
const collectedInvoice = (withCard: WithCard, overrides: Record<string, unknown> = {}) =>
  createInvoice(withCard.connected.key, {
    client_id: withCard.clientId,
    client: undefined,
    card_token: withCard.cardToken,
    fee_bearer: 'account',
    due_date: todayMonthFirst(),
    items: [{ item: 'Retainer', description: 'Monthly', unit_cost: '1000.00', quantity: '1' }],
    ...overrides,
  });

const declineNext = (withCard: WithCard, count: number) =>
  withCard.connected.paystack.post(`/_local/authorizations/${withCard.authorizationCode}/decline`, { count });

/** Sweeps this invoice's collection alone as on `days` days from now (the whole table is swept at the real time). */
async function sweepCollection(referenceCode: string, companyId: number, days: number) {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.cardCollection(referenceCode), ConsistentRead: true }),
  );
  const indexKey = out.Item?.GSI2SK;
  if (typeof indexKey !== 'string') return { charges: 0, closed: 0, inIndex: false };
  const now = new Date(Date.now() + days * DAY_MS);
  const hit = { kind: 'cardCollection' as const, id: referenceCode, companyId, indexKey };
  return {
    ...(await wakeCollections([hit], { now, writtenAt: () => new Date(), account: getAccount })),
    inIndex: true,
  };
}

/** Delivers every queued charge job of the account once. */
async function deliverQueued(companyId: number) {
  const jobs = await listChargeJobs(companyId, 50);
  return Promise.all(jobs.filter((job) => job.state === 'queued').map((job) => deliverChargeJob(job.jobId)));
}

const invoiceOf = async (connected: Connected, referenceCode: string) =>
  (await call('get-invoice', { key: connected.key, pathParameters: { reference_code: referenceCode } })).body.data;

async function failedEvents(companyId: number) {
  const deliveries = (await listDeliveries(companyId, 100)).filter((d) => d.type === 'invoice.payment_failed');
  return Promise.all(deliveries.map(async (d) => JSON.parse((await getEvent(d.event_id))!.body)));
}

const lagosDay = (days: number) => String(toEpochSeconds(addDays(todayIn('Africa/Lagos'), days)));

describe('automatic collection', () => {
  it('charges the saved card once on the due date, however often the sweep and the job run; recorded as online', async () => {
    const withCard = await clientWithCard();
    const { connected } = withCard;
    const companyId = connected.account.companyId;
    const invoice = await collectedInvoice(withCard);
    await Promise.all([runWakeSweep(new Date()), runWakeSweep(new Date()), runWakeSweep(new Date())]);
    await runWakeSweep(new Date());
    const jobs = await listChargeJobs(companyId, 10);
    expect(jobs.map((job) => [job.attempt, job.state, job.amountKobo])).toEqual([[1, 'queued', 100_000]]);
    const [job] = jobs;
    const outcomes = await Promise.all([deliverChargeJob(job!.jobId), deliverChargeJob(job!.jobId)]);
    expect(outcomes.filter((o) => o.kind === 'delivered')).toHaveLength(1);
    expect(await deliverChargeJob(job!.jobId)).toEqual({ kind: 'skipped', reason: 'already charged' });
    const charged = (await transactions(connected)).filter((tx) => tx.reference === job!.reference);
    expect(charged.map((tx) => [tx.status, tx.amount])).toEqual([['success', 100_000]]);
    const payment = (
      await call('get-payment', { key: connected.key, pathParameters: { reference_code: invoice.reference_code } })
    ).body.data;
    expect([payment.channel, payment.referrer, payment.amount, payment.payment_id]).toEqual([
      'Card',
      job!.reference,
      '1000.00',
      String(charged[0].id),
    ]);
    const shown = await invoiceOf(connected, invoice.reference_code);
    expect([shown.payment_status, shown.amount_due, shown.collection]).toEqual(['paid', '0.00', undefined]);
    expect(await sweepCollection(invoice.reference_code, companyId, 1)).toMatchObject({ inIndex: false });
  });

  it('a decline: collection retrying and invoice.payment_failed; retried the next day, then paid', async () => {
    const withCard = await clientWithCard();
    const { connected } = withCard;
    const companyId = connected.account.companyId;
    const invoice = await collectedInvoice(withCard);
    await declineNext(withCard, 1);
    expect(await sweepCollection(invoice.reference_code, companyId, 0)).toMatchObject({ charges: 1 });
    expect(await deliverQueued(companyId)).toEqual([{ kind: 'delivered' }]);
    const declined = await invoiceOf(connected, invoice.reference_code);
    expect(declined.collection).toEqual({
      status: 'retrying',
      attempts: 1,
      last_error: 'Declined',
      next_attempt: lagosDay(1),
    });
    const [event, ...more] = await failedEvents(companyId);
    expect(more).toEqual([]);
    expect(event.data).toMatchObject({ reference_code: invoice.reference_code, collection: declined.collection });
    expect(await sweepCollection(invoice.reference_code, companyId, 0)).toMatchObject({ charges: 0 });
    expect(await sweepCollection(invoice.reference_code, companyId, 1)).toMatchObject({ charges: 1 });
    expect(await deliverQueued(companyId)).toEqual([{ kind: 'delivered' }]);
    const paid = await invoiceOf(connected, invoice.reference_code);
    expect([paid.payment_status, paid.collection.next_attempt]).toEqual(['paid', null]);
    const jobs = await listChargeJobs(companyId, 10);
    expect(jobs.map((job) => [job.attempt, job.state]).sort()).toEqual([
      [1, 'declined'],
      [2, 'charged'],
    ]);
    const lines: Record<string, any>[] = [];
    await paystackEvents.run(paystackEvents.input({ 'company-id': String(companyId) }), {
      line: (record) => lines.push(record),
    });
    const charges = lines.filter((line) => line.kind === 'charge');
    expect(charges.map((line) => [line.type, line.state, line.outcome.split(' ')[0], line.amount])).toEqual([
      ['charge.attempt_2', 'charged', 'payment', '1000.00'],
      ['charge.attempt_1', 'declined', 'Declined', '1000.00'],
    ]);
  });

  it('four declines: retried 1, 3 and 7 days after the first attempt, then failed, out of the index', async () => {
    const withCard = await clientWithCard();
    const { connected } = withCard;
    const companyId = connected.account.companyId;
    const invoice = await collectedInvoice(withCard);
    await declineNext(withCard, 4);
    const seen: unknown[] = [];
    for (const day of [0, 1, 3, 7]) {
      expect(await sweepCollection(invoice.reference_code, companyId, day)).toMatchObject({ charges: 1 });
      expect(await deliverQueued(companyId)).toEqual([{ kind: 'delivered' }]);
      seen.push((await invoiceOf(connected, invoice.reference_code)).collection);
    }
    expect(seen).toEqual([
      { status: 'retrying', attempts: 1, last_error: 'Declined', next_attempt: lagosDay(1) },
      { status: 'retrying', attempts: 2, last_error: 'Declined', next_attempt: lagosDay(3) },
      { status: 'retrying', attempts: 3, last_error: 'Declined', next_attempt: lagosDay(7) },
      { status: 'failed', attempts: 4, last_error: 'Declined', next_attempt: null },
    ]);
    expect(await failedEvents(companyId)).toHaveLength(4);
    expect(await sweepCollection(invoice.reference_code, companyId, 30)).toMatchObject({ inIndex: false });
    const shown = await invoiceOf(connected, invoice.reference_code);
    expect(shown.amount_due).toBe('1000.00');
  });

  it('paid by other means stops it: a queued charge is not made, a retry is not started', async () => {
    const withCard = await clientWithCard();
    const { connected } = withCard;
    const companyId = connected.account.companyId;
    const first = await collectedInvoice(withCard);
    await declineNext(withCard, 1);
    expect(await sweepCollection(first.reference_code, companyId, 0)).toMatchObject({ charges: 1 });
    await deliverQueued(companyId);
    await call('add-payment', {
      key: connected.key,
      body: { reference_code: first.reference_code, date: todayMonthFirst(), amount: '1000', channel: 'Cash' },
    });
    expect(await sweepCollection(first.reference_code, companyId, 1)).toMatchObject({ charges: 0, closed: 1 });
    expect((await invoiceOf(connected, first.reference_code)).collection.next_attempt).toBeNull();
    const second = await collectedInvoice(withCard);
    expect(await sweepCollection(second.reference_code, companyId, 0)).toMatchObject({ charges: 1 });
    await call('delete-invoice', { key: connected.key, pathParameters: { reference_code: second.reference_code } });
    const before = (await transactions(connected)).length;
    expect(await deliverQueued(companyId)).toEqual([{ kind: 'delivered' }]);
    expect((await transactions(connected)).length).toBe(before);
    const stopped = (await listChargeJobs(companyId, 10)).find((job) => job.referenceCode === second.reference_code);
    expect(stopped?.state).toBe('stopped');
  });

  it('a delivery after one that reached Paystack and lost its answer verifies: charged once, recorded once', async () => {
    const withCard = await clientWithCard();
    const { connected } = withCard;
    const companyId = connected.account.companyId;
    const invoice = await collectedInvoice(withCard);
    expect(await sweepCollection(invoice.reference_code, companyId, 0)).toMatchObject({ charges: 1 });
    const [job] = await listChargeJobs(companyId, 10);
    // The crashed delivery: counted, then its charge reached Paystack, and nothing more.
    expect(await claimChargeDelivery(job!, new Date().toISOString())).toBe(true);
    const crashed = await connected.paystack.post('/transaction/charge_authorization', {
      authorization_code: withCard.authorizationCode,
      email: invoice.client.email,
      amount: job!.amountKobo,
      reference: job!.reference,
    });
    expect(crashed.body.data.status).toBe('success');
    // The queue's next receive: the job says a delivery was counted, so Paystack is asked what became of it first.
    expect(await deliverChargeJob(job!.jobId)).toEqual({ kind: 'delivered' });
    expect(await deliverChargeJob(job!.jobId)).toEqual({ kind: 'skipped', reason: 'already charged' });
    expect((await transactions(connected)).filter((tx) => tx.reference === job!.reference)).toHaveLength(1);
    const shown = await invoiceOf(connected, invoice.reference_code);
    expect(shown.payment_status).toBe('paid');
  });
  it("a recurring series with the saved card: the period's invoice is issued with the card and collected once", async () => {
    const withCard = await clientWithCard();
    const { connected } = withCard;
    const companyId = connected.account.companyId;
    const today = todayIn('Africa/Lagos');
    const start = [today.month, today.day, today.year].map((n, i) => String(n).padStart(i === 2 ? 4 : 2, '0'));
    const created = await call('create-recurring-invoice', {
      key: connected.key,
      body: {
        client_id: withCard.clientId,
        card_token: withCard.cardToken,
        fee_bearer: 'account',
        items: [{ item: 'Retainer', description: 'Monthly', unit_cost: '1000.00', quantity: '1' }],
        schedule: { every: 1, unit: 'month', start: start.join('/'), due_in_days: 0, end: { after: 1 } },
        send: false,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const series = created.body.data;
    // The series' sweep at 07:00 Lagos today (issue time is 06:00 account time), twice: one invoice.
    const seven = wallClockInstant(today, 7 * 60, 'Africa/Lagos');
    const hit = { kind: 'recurring' as const, id: series.id, companyId, indexKey: '' };
    const sweeps = [];
    for (let i = 0; i < 2; i++)
      sweeps.push(await wakeSeries([hit], { now: seven, writtenAt: () => new Date(), account: getAccount }));
    expect(sweeps.map((s) => s.issued)).toEqual([1, 0]);
    const [period] = await issuedPeriods(series.id);
    const invoice = await invoiceOf(connected, period!.referenceCode);
    expect([invoice.recurring_id, invoice.period, invoice.card_token_last4]).toEqual([
      series.id,
      1,
      withCard.cardToken.slice(-4),
    ]);
    // Its collection on the due date (today), swept twice and delivered: charged once, paid.
    expect(await sweepCollection(invoice.reference_code, companyId, 0)).toMatchObject({ charges: 1 });
    expect(await sweepCollection(invoice.reference_code, companyId, 0)).toMatchObject({ charges: 0 });
    expect(await deliverQueued(companyId)).toEqual([{ kind: 'delivered' }]);
    const paid = await invoiceOf(connected, invoice.reference_code);
    expect([paid.payment_status, paid.amount_due]).toEqual(['paid', '0.00']);
    const jobs = await listChargeJobs(companyId, 10);
    expect(jobs.map((job) => [job.referenceCode, job.state, job.amountKobo])).toEqual([
      [invoice.reference_code, 'charged', 100_000],
    ]);
  });
});
