/**
 * No 5xx where the outcome is decided (issue 26; docs/guarantees.md "No 500 for a request whose outcome is decided").
 * Every write route of the route table (shared/routes.ts) is raced against itself — N identical requests at once,
 * without and with one Idempotency-Key — and against the routes that race it on the same invoice, payment or client.
 * Any 5xx fails, and so does any error that is not the envelope (or, on the hosted page's routes, which answer people,
 * an HTML page: checked against the OpenAPI document, as every answer is): a race has a decided outcome for every
 * request (a success, a replay, a business refusal or `409 idempotency_request_in_progress`). A write route added to
 * the table without its three races fails the first test. Each call has 30 s of invocation time, as in
 * contention.test.ts, so that a busy machine does not turn a commit into an unconfirmed one (504). The routes of
 * getting paid online talk to the local Paystack-compatible server (infra/local/paystack/), started for this file.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteName } from '../../shared/routes.ts';
import { ALREADY_PAID_NOTICE, UNAVAILABLE_NOTICE } from '../../shared/services/online-checkout.ts';
import { type ProcessedEvent, processProviderEvent } from '../../shared/services/provider-events.ts';
import { wakeSeries } from '../../shared/services/recurring-sweep.ts';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { getAccount, updateAccount } from '../../shared/store/accounts.ts';
import { listMailJobs } from '../../shared/store/mail.ts';
import { listProviderEvents } from '../../shared/store/provider-events.ts';
import { issuedPeriods } from '../../shared/store/recurring.ts';
import {
  type CallOptions,
  type CallResult,
  call,
  createInvoice,
  invoiceBody,
  newAccount,
  todayMonthFirst,
  uniqueEmail,
} from '../support/api.ts';
import { useEnvironment, WITH_MAIL_SENDER } from '../support/environment.ts';
import {
  chargeSuccessEvent,
  connectedAccount,
  invoiceToPay,
  payInvoice,
  pressPay,
  returnFrom,
  sendWebhook,
  sign,
  transferIntoVirtualAccount,
  usePaystack,
} from '../support/online-payments.ts';
import { expectErrorEnvelope, fullHistory, kobo, scale } from './helpers.ts';

const N = 12;
const BUDGET_MS = 30_000;
/**
 * Rounds of the reversal races: before the snapshot read, about one round in five of twelve reversals of one payment
 * answered a 500 on this machine (issue 26), so twenty rounds fail on that code in all but about one run in fifty.
 */
const REVERSAL_ROUNDS = scale(10, 100);

type Kind = 'identical' | 'keyed' | 'mixed';
interface Race {
  /** The write route the race is about, and the routes racing it (mixed races). */
  route: RouteName;
  kind: Kind;
  races?: RouteName[];
  title: string;
  run(): Promise<void>;
}

const send = (route: RouteName, options: CallOptions) => call(route, { budgetMs: BUDGET_MS, ...options });
const times = (n: number, request: () => Promise<CallResult>) => Array.from({ length: n }, request);
/** An HTML page: what the hosted page's routes answer, errors included (a voided invoice's page is a 410). */
const isPage = (r: CallResult) => r.headers['content-type']?.startsWith('text/html') === true;
const answer = (r: CallResult) => (r.status < 400 || isPage(r) ? String(r.status) : `${r.status} ${r.body?.code}`);

/** Sends every request at once; fails on any 5xx or non-envelope error (pages aside), naming every answer. */
async function race(requests: Promise<CallResult>[]): Promise<CallResult[]> {
  const results = await Promise.all(requests);
  const answers = results.map(answer).join(', ');
  expect(results.filter((r) => r.status >= 500).map(answer), answers).toEqual([]);
  for (const r of results) if (r.status >= 400 && !isPage(r)) expectErrorEnvelope(r);
  return results;
}

/** Every answer is one of `allowed` (status, or "status code"). */
function expectOnly(results: CallResult[], allowed: string[]) {
  const answers = results.map(answer);
  expect(
    answers.filter((a) => !allowed.includes(a) && !allowed.includes(a.split(' ')[0]!)),
    answers.join(', '),
  ).toEqual([]);
}

const IN_FLIGHT = '409 idempotency_request_in_progress';

async function invoiceWithPayment() {
  const { key } = await newAccount();
  const invoice = await createInvoice(key, {
    items: [{ item: 'Audit', description: 'Yearly', unit_cost: '1000.00', quantity: '1' }],
  });
  const payment = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'Cash' };
  return { key, invoice, payment };
}

async function newClient() {
  const { key } = await newAccount();
  const body = { first_name: 'Ada', last_name: 'Obi', email: uniqueEmail(), phone: '+2348012345678' };
  const client = (await call('add-client', { key, body })).body.data;
  return { key, id: String(client.id), body };
}

useEnvironment(WITH_MAIL_SENDER);

/** The two send routes: the SDKs' GET, and the POST with a body (here a note). */
type SendRoute = 'send-invoice' | 'email-invoice';
const sendInvoice = (route: SendRoute, key: string, reference_code: string, idempotencyKey?: string) =>
  send(route, {
    key,
    pathParameters: { reference_code },
    ...(route === 'email-invoice' ? { body: { message: 'Thank you.' } } : {}),
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

/** Every send answered 200 committed exactly one mail job (and a refused one none). */
async function expectOneJobPerSend(companyId: number, results: CallResult[]) {
  const jobs = await listMailJobs(companyId, 100);
  expect(jobs).toHaveLength(results.filter((r) => r.status === 200 && !r.headers['idempotent-replayed']).length);
}

/** The identical, keyed and mixed races of one send route. */
function sendRaces(route: SendRoute, other: SendRoute): Race[] {
  return [
    {
      route,
      kind: 'identical',
      title: `${N} identical sends of one invoice: every one 200, each its own e-mail`,
      async run() {
        const { account, key } = await newAccount();
        const invoice = await createInvoice(key);
        const results = await race(times(N, () => sendInvoice(route, key, invoice.reference_code)));
        expectOnly(results, ['200']);
        await expectOneJobPerSend(account.companyId, results);
      },
    },
    {
      route,
      kind: 'keyed',
      title: `${N} identical sends with one Idempotency-Key: one e-mail, the rest replays or in progress`,
      async run() {
        const { account, key } = await newAccount();
        const invoice = await createInvoice(key);
        const results = await race(times(N, () => sendInvoice(route, key, invoice.reference_code, `send-${route}`)));
        expectOnly(results, ['200', IN_FLIGHT]);
        expect(await listMailJobs(account.companyId, 100)).toHaveLength(1);
      },
    },
    {
      route,
      kind: 'mixed',
      races: [other, 'add-payment', 'delete-invoice'],
      title: 'sends by both routes while the invoice is paid and deleted: no e-mail queued for a refused send',
      async run() {
        const { account, key } = await newAccount();
        const invoice = await createInvoice(key);
        const payment = {
          reference_code: invoice.reference_code,
          date: todayMonthFirst(),
          amount: '1',
          channel: 'Cash',
        };
        const sends = [
          ...times(4, () => sendInvoice(route, key, invoice.reference_code)),
          ...times(4, () => sendInvoice(other, key, invoice.reference_code)),
        ];
        const others = [
          ...times(2, () => pay(key, payment)),
          ...times(2, () => deleteInvoice(key, invoice.reference_code)),
        ];
        const results = await race([...sends, ...others]);
        const sent = results.slice(0, sends.length);
        expectOnly(sent, ['200', '409 invoice_deleted']);
        expectOnly(results.slice(sends.length), ['200', '201', '409 invoice_deleted', '409 invoice_has_payments']);
        await expectOneJobPerSend(account.companyId, sent);
      },
    },
  ];
}

const pay = (key: string, body: object, idempotencyKey?: string) =>
  send('add-payment', { key, body, ...(idempotencyKey ? { idempotencyKey } : {}) });
const reverse = (key: string, id: string, idempotencyKey?: string) =>
  send('reverse-payment', {
    key,
    pathParameters: { id },
    body: { reason: 'Keyed twice' },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
const deleteInvoice = (key: string, reference_code: string) =>
  send('delete-invoice', { key, pathParameters: { reference_code } });

/** Rounds of N reversals of one new payment at once; exactly one reverses it in each round. */
async function reversalRounds(keyed: boolean) {
  const { key, payment } = await invoiceWithPayment();
  for (let round = 0; round < REVERSAL_ROUNDS; round++) {
    const id = String((await pay(key, payment)).body.data.id);
    const results = await race(times(N, () => reverse(key, id, keyed ? `reverse-${id}` : undefined)));
    if (keyed) {
      expectOnly(results, ['200', IN_FLIGHT]);
      expect(results.filter((r) => r.status === 200 && !r.headers['idempotent-replayed'])).toHaveLength(1);
    } else {
      expectOnly(results, ['200', '409 payment_already_reversed']);
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    }
  }
}

/** E-mails the client's statement of today (docs/receivables.md "One client: the statement"). */
const sendStatement = (key: string, id: string, idempotencyKey?: string) =>
  send('send-client-statement', {
    key,
    pathParameters: { id },
    body: { period: 'today' },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

/** The races of the statement's send: each 200 committed one mail job, whatever else changes the client. */
function statementRaces(): Race[] {
  const route = 'send-client-statement';
  return [
    {
      route,
      kind: 'identical',
      title: `${N} identical statement sends: every one 200, each its own e-mail`,
      async run() {
        const { account, key } = await newAccount();
        const id = String((await createInvoice(key)).client.id);
        const results = await race(times(N, () => sendStatement(key, id)));
        expectOnly(results, ['200']);
        await expectOneJobPerSend(account.companyId, results);
      },
    },
    {
      route,
      kind: 'keyed',
      title: `${N} statement sends with one Idempotency-Key: one e-mail, the rest replays or in progress`,
      async run() {
        const { account, key } = await newAccount();
        const id = String((await createInvoice(key)).client.id);
        const results = await race(times(N, () => sendStatement(key, id, 'statement-once')));
        expectOnly(results, ['200', IN_FLIGHT]);
        expect(new Set(results.filter((r) => r.status === 200).map((r) => r.body.data.job_id)).size).toBe(1);
        expect(await listMailJobs(account.companyId, 100)).toHaveLength(1);
      },
    },
    {
      route,
      kind: 'mixed',
      races: ['add-payment', 'update-client', 'delete-invoice'],
      title: 'statement sends while the client is paid, renamed and its invoice voided: one job per 200',
      async run() {
        const { account, key } = await newAccount();
        const invoice = await createInvoice(key);
        const id = String(invoice.client.id);
        const payment = {
          reference_code: invoice.reference_code,
          date: todayMonthFirst(),
          amount: '1',
          channel: 'Cash',
        };
        // Four sends: each reads the client and the period's statement before its write, the heaviest reads of the
        // write routes, and twelve requests at once on one DynamoDB Local of three answered a read past its budget.
        const results = await race([
          ...times(4, () => sendStatement(key, id)),
          ...times(3, () => send('add-payment', { key, body: payment })),
          ...times(2, () => send('update-client', { key, pathParameters: { id }, body: { first_name: 'Renamed' } })),
          deleteInvoice(key, invoice.reference_code),
        ]);
        expectOnly(results, ['200', '201', '409']);
        const sends = results.slice(0, 4);
        expectOnly(sends, ['200']);
        await expectOneJobPerSend(account.companyId, sends);
      },
    },
  ];
}

/** Pauses or resumes the invoice's reminders. */
const setPaused = (key: string, reference_code: string, paused: boolean, idempotencyKey?: string) =>
  send('invoice-reminders', {
    key,
    pathParameters: { reference_code },
    body: { paused },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

/** The races of the reminders route; the mixed one also races two sweeps (docs/receivables.md "Reminders"). */
function reminderRaces(): Race[] {
  return [
    {
      route: 'invoice-reminders',
      kind: 'identical',
      title: `${N} identical pauses of one invoice: every one 200, the invoice paused`,
      async run() {
        const { key } = await newAccount();
        const invoice = await createInvoice(key);
        const results = await race(times(N, () => setPaused(key, invoice.reference_code, true)));
        expectOnly(results, ['200']);
        for (const r of results) expect(r.body.data.reminders_paused).toBe(true);
      },
    },
    {
      route: 'invoice-reminders',
      kind: 'keyed',
      title: `${N} identical pauses with one Idempotency-Key: one answer, the rest replays or in progress`,
      async run() {
        const { key } = await newAccount();
        const invoice = await createInvoice(key);
        const results = await race(times(N, () => setPaused(key, invoice.reference_code, true, 'pause-once')));
        expectOnly(results, ['200', IN_FLIGHT]);
        const bodies = new Set(results.filter((r) => r.status === 200).map((r) => JSON.stringify(r.body)));
        expect(bodies.size).toBe(1);
      },
    },
    {
      route: 'invoice-reminders',
      kind: 'mixed',
      races: ['add-payment', 'delete-invoice', 'email-invoice'],
      title: 'pauses and resumes while the invoice is paid, sent and deleted and two sweeps run: at most one reminder',
      async run() {
        const { account, key } = await newAccount();
        await updateAccount(account.companyId, { reminderOffsets: [0] });
        const invoice = await createInvoice(key, { due_date: todayMonthFirst() });
        const ref = invoice.reference_code;
        const payment = { reference_code: ref, date: todayMonthFirst(), amount: '1', channel: 'Cash' };
        const [results] = await Promise.all([
          race([
            ...times(3, () => setPaused(key, ref, true)),
            ...times(3, () => setPaused(key, ref, false)),
            ...times(2, () => pay(key, payment)),
            ...times(2, () => sendInvoice('email-invoice', key, ref)),
            deleteInvoice(key, ref),
          ]),
          runWakeSweep(new Date()),
          runWakeSweep(new Date()),
        ]);
        expectOnly(results, ['200', '201', '409 invoice_deleted', '409 invoice_has_payments']);
        const shown = await send('get-invoice', { key, pathParameters: { reference_code: ref } });
        expect(shown.body.data.reminders.length).toBeLessThanOrEqual(1);
      },
    },
  ];
}

// Getting paid online (docs/getting-paid-online.md): none of its routes reads an Idempotency-Key, so their keyed races
// send one and show that it changes nothing (no replay: each answer is the route's own).
const localPaystack = usePaystack();
type Connected = Awaited<ReturnType<typeof connectedAccount>>;

/** The options of every call of these races: 30 s of invocation time, and the Idempotency-Key when one is sent. */
const budget = (idempotencyKey?: string): CallOptions => ({
  budgetMs: BUDGET_MS,
  ...(idempotencyKey ? { idempotencyKey } : {}),
});

/** An invoice of ₦1,000.00 (₦1,015.23 at the checkout) of a connected account, paid there but not yet recorded. */
async function paidAtCheckout(connected?: Connected) {
  const account = connected ?? (await connectedAccount(localPaystack));
  const { invoice, token } = await invoiceToPay(account.key);
  const { reference } = await payInvoice(localPaystack, account.secretKey, token);
  const event = await chargeSuccessEvent(account.paystack, reference);
  return { ...account, invoice, token, reference, event };
}
type Checkout = Awaited<ReturnType<typeof paidAtCheckout>>;

const goBack = (checkout: Checkout, idempotencyKey?: string) =>
  returnFrom(checkout.token, checkout.reference, budget(idempotencyKey));
const postEvent = ({ hookId, event, secretKey }: Checkout, idempotencyKey?: string) =>
  sendWebhook(hookId, event, sign(event, secretKey), budget(idempotencyKey));

/** Posts the event and processes what it stored as soon as it is stored, as the background processing will. */
async function postAndProcess(checkout: Checkout, processing: Promise<ProcessedEvent>[]): Promise<CallResult> {
  const result = await postEvent(checkout);
  if (result.status === 200) processing.push(processProviderEvent(result.body.data.event_id));
  return result;
}

/** Every processing recorded the payment or found it recorded (Paystack is up: none failed or was ignored). */
async function expectRecordedOrDuplicate(processing: Promise<ProcessedEvent>[]) {
  const states = (await Promise.all(processing)).map((processed) => processed.state);
  expect(
    states.filter((state) => state !== 'recorded' && state !== 'duplicate'),
    states.join(', '),
  ).toEqual([]);
}

/** The invoice's payments (payment history) and the invoice, whose amount_paid must be their sum. */
async function paymentsAddingUp(key: string, reference_code: string) {
  const payments = (await fullHistory(key)).payments.filter((p) => p.reference_code === reference_code);
  const invoice = (await send('get-invoice', { key, pathParameters: { reference_code } })).body.data;
  expect(kobo(invoice.amount_paid)).toBe(payments.reduce((sum, p) => sum + kobo(p.amount), 0));
  return { payments, invoice };
}

/** Exactly one payment recorded for the checkout's reference, and the invoice's amount_paid the sum of its payments. */
async function expectRecordedOnce(checkout: Checkout) {
  const { payments, invoice } = await paymentsAddingUp(checkout.key, checkout.invoice.reference_code);
  expect(payments.filter((p) => p.referrer === checkout.reference).map((p) => p.id)).toHaveLength(1);
  return { payments, invoice };
}

/** N presses of one invoice's pay button: each its own checkout and reference (or the page again); nothing recorded. */
async function pressRace(idempotencyKey?: string) {
  const { key, paystack } = await connectedAccount(localPaystack);
  const { invoice, token } = await invoiceToPay(key);
  const results = await race(times(N, () => pressPay(token, budget(idempotencyKey))));
  expectOnly(results, ['303', '200']);
  for (const r of results.filter((x) => x.status === 200)) expect(r.rawBody).toContain(UNAVAILABLE_NOTICE);
  for (const r of results) expect(r.headers['idempotent-replayed']).toBeUndefined();
  const checkouts = results.filter((r) => r.status === 303).map((r) => r.headers.location);
  expect(new Set(checkouts).size).toBe(checkouts.length);
  const references: string[] = (await paystack.get('/_local/transactions')).body.data.map(
    (tx: { reference: string }) => tx.reference,
  );
  expect(new Set(references).size).toBe(references.length);
  expect(references.length).toBeGreaterThanOrEqual(checkouts.length);
  for (const reference of references) expect(reference).toMatch(new RegExp(`^${invoice.reference_code}-[0-9A-Z]{26}$`));
  const { payments, invoice: read } = await paymentsAddingUp(key, invoice.reference_code);
  expect([payments.length, read.amount_paid]).toEqual([0, '0.00']);
}

/** The races of the pay button: it keeps a checkout attempt and asks Paystack for a checkout, and records nothing. */
function payButtonRaces(): Race[] {
  return [
    {
      route: 'hosted-invoice-pay',
      kind: 'identical',
      title: `${N} presses of one invoice's pay button: each a 303 to its own checkout, nothing recorded`,
      run: () => pressRace(),
    },
    {
      route: 'hosted-invoice-pay',
      kind: 'keyed',
      title: `${N} presses with one Idempotency-Key (not a keyed route: still each its own checkout, no replay)`,
      run: () => pressRace('press-once'),
    },
    {
      route: 'hosted-invoice-pay',
      kind: 'mixed',
      races: ['add-payment', 'delete-invoice'],
      title: 'presses while the invoice is paid in cash and deleted: nothing recorded by a press, no checkout after',
      async run() {
        const { key } = await connectedAccount(localPaystack);
        const { invoice, token } = await invoiceToPay(key);
        const ref = invoice.reference_code;
        const cash = { reference_code: ref, date: todayMonthFirst(), amount: '1000.00', channel: 'Cash' };
        const presses = times(8, () => pressPay(token, budget()));
        const results = await race([...presses, ...times(3, () => pay(key, cash)), deleteInvoice(key, ref)]);
        expectOnly(results.slice(0, presses.length), ['303', '200', '410']);
        for (const r of results.slice(0, presses.length).filter((x) => x.status === 200))
          expect([ALREADY_PAID_NOTICE, UNAVAILABLE_NOTICE].filter((notice) => r.rawBody.includes(notice))).toHaveLength(
            1,
          );
        const others = results.slice(presses.length);
        expectOnly(others, [
          '200',
          '201',
          '409 invoice_already_paid',
          '409 invoice_deleted',
          '409 invoice_has_payments',
        ]);
        const { payments } = await paymentsAddingUp(key, ref);
        expect(payments.map((p) => p.channel)).toEqual(others.filter((r) => r.status === 201).map(() => 'Cash'));
        // Paid in cash or voided, whichever committed first: the button leads to no checkout any more.
        const after = await pressPay(token, budget());
        expect(after.status).toBe(payments.length > 0 ? 200 : 410);
        if (payments.length > 0) expect(after.rawBody).toContain(ALREADY_PAID_NOTICE);
      },
    },
  ];
}

/** N returns of one checkout at once (with one Idempotency-Key: two checkouts' returns sharing it). */
function returnRaces(): Race[] {
  return [
    {
      route: 'hosted-invoice-paid',
      kind: 'identical',
      title: `${N} returns of one paid checkout: every one "Payment received", one payment for the reference`,
      async run() {
        const checkout = await paidAtCheckout();
        const results = await race(times(N, () => goBack(checkout)));
        expectOnly(results, ['200']);
        for (const r of results) expect(r.rawBody).toContain('Payment received');
        const { invoice } = await expectRecordedOnce(checkout);
        expect([invoice.amount_paid, invoice.payment_status]).toEqual(['1000.00', 'paid']);
      },
    },
    {
      route: 'hosted-invoice-paid',
      kind: 'keyed',
      title: `returns of two invoices' checkouts, ${N / 2} each, all with one Idempotency-Key (ignored): each recorded once`,
      async run() {
        const first = await paidAtCheckout();
        const second = await paidAtCheckout(first);
        const results = await race([
          ...times(N / 2, () => goBack(first, 'back-once')),
          ...times(N / 2, () => goBack(second, 'back-once')),
        ]);
        expectOnly(results, ['200']);
        for (const r of results) expect(r.rawBody).toContain('Payment received');
        for (const checkout of [first, second])
          expect((await expectRecordedOnce(checkout)).invoice.amount_paid).toBe('1000.00');
      },
    },
    {
      route: 'hosted-invoice-paid',
      kind: 'mixed',
      races: ['paystack-event', 'add-payment'],
      title: 'returns, webhook events (each processed once stored) and cash payments at once: one online payment',
      async run() {
        const checkout = await paidAtCheckout();
        const { key, invoice } = checkout;
        const cash = {
          reference_code: invoice.reference_code,
          date: todayMonthFirst(),
          amount: '400.00',
          channel: 'Cash',
        };
        const processing: Promise<ProcessedEvent>[] = [];
        const results = await race([
          ...times(4, () => goBack(checkout)),
          ...times(4, () => postAndProcess(checkout, processing)),
          ...times(2, () => pay(key, cash)),
        ]);
        expectOnly(results, ['200', '201', '409 invoice_already_paid']);
        for (const r of results.slice(0, 4)) expect(r.rawBody).toContain('Payment received');
        await expectRecordedOrDuplicate(processing);
        // The online payment is credited what the invoice can take when it records; the rest is refunded.
        const { invoice: read } = await expectRecordedOnce(checkout);
        expect([read.amount_paid, read.payment_status]).toEqual(['1000.00', 'paid']);
      },
    },
  ];
}

/** N identical signed events: each stored as its own event (a duplicate too); processed at once, one payment. */
async function eventRace(idempotencyKey?: string) {
  const checkout = await paidAtCheckout();
  const results = await race(times(N, () => postEvent(checkout, idempotencyKey)));
  expectOnly(results, ['200']);
  for (const r of results) expect(r.headers['idempotent-replayed']).toBeUndefined();
  const ids: string[] = results.map((r) => r.body.data.event_id);
  expect(new Set(ids).size).toBe(N);
  const stored = await listProviderEvents(checkout.account.companyId);
  expect(stored.map((e) => [e.eventId, e.reference]).sort()).toEqual(ids.map((id) => [id, checkout.reference]).sort());
  const states = (await Promise.all(ids.map((id) => processProviderEvent(id)))).map((p) => p.state);
  expect(states.sort()).toEqual([...Array<string>(N - 1).fill('duplicate'), 'recorded']);
  expect((await expectRecordedOnce(checkout)).invoice.amount_paid).toBe('1000.00');
}

/** The races of Paystack's webhook, which stores each signed event (its processing records, once per reference). */
function providerEventRaces(): Race[] {
  return [
    {
      route: 'paystack-event',
      kind: 'identical',
      title: `${N} identical signed events of one charge: ${N} stored, processed at once into one payment`,
      run: () => eventRace(),
    },
    {
      route: 'paystack-event',
      kind: 'keyed',
      title: `${N} identical events with one Idempotency-Key (not a keyed route: each stored, no replay)`,
      run: () => eventRace('event-once'),
    },
    {
      route: 'paystack-event',
      kind: 'mixed',
      races: ['hosted-invoice-paid', 'delete-invoice'],
      title:
        'events (each processed once stored), returns and deletes of the invoice at once: one payment, paid or refunded',
      async run() {
        const checkout = await paidAtCheckout();
        const { key, invoice } = checkout;
        const processing: Promise<ProcessedEvent>[] = [];
        const results = await race([
          ...times(5, () => postAndProcess(checkout, processing)),
          ...times(4, () => goBack(checkout)),
          ...times(2, () => deleteInvoice(key, invoice.reference_code)),
        ]);
        expectOnly(results.slice(0, 5), ['200']);
        expectOnly(results.slice(5, 9), ['200', '410']);
        for (const r of results.slice(5, 9).filter((x) => x.status === 200))
          expect(r.rawBody).toContain('Payment received');
        const deletes = results.slice(9);
        expectOnly(deletes, ['200', '409 invoice_has_payments']);
        await expectRecordedOrDuplicate(processing);
        const { payments, invoice: read } = await expectRecordedOnce(checkout);
        // Voided first: the invoice takes nothing, the whole charge goes back (docs/getting-paid-online.md "Refunds").
        if (deletes.some((r) => r.status === 200)) {
          expect(payments[0]).toMatchObject({ amount: '0.00', status: 'refunded', refund: { amount: '1015.23' } });
          expect(read.amount_paid).toBe('0.00');
        } else expect([read.amount_paid, read.payment_status]).toEqual(['1000.00', 'paid']);
      },
    },
  ];
}

/** A client's card, saved by paying a `tokenize` invoice with the local checkout's success card. */
async function savedCard() {
  const { key, secretKey } = await connectedAccount(localPaystack, { tokenizationEnabled: true });
  const { invoice, token } = await invoiceToPay(key, { tokenize: 'true' });
  const { reference } = await payInvoice(localPaystack, secretKey, token);
  await returnFrom(token, reference, budget());
  const latest = await send('get-payment', { key, pathParameters: { reference_code: invoice.reference_code } });
  const card_token: string = latest.body.data.card_token;
  expect(card_token).toMatch(/^ctok_/);
  return { key, id: String(invoice.client_id), card_token };
}
type Card = Awaited<ReturnType<typeof savedCard>>;

const forgetCard = ({ key, id, card_token }: Card, idempotencyKey?: string) =>
  send('forget-client-card', {
    key,
    pathParameters: { id, card_token },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

/** The card is forgotten exactly once, listed no more, and refused on a new invoice. */
async function expectForgottenOnce(card: Card, forgets: CallResult[]) {
  expectOnly(forgets, ['200', '404 card_not_found']);
  const removed = forgets.filter((r) => r.status === 200);
  expect(removed.map((r) => [r.body.message, r.body.data.cards])).toEqual([['Card removed.', []]]);
  const shown = await send('get-client', { key: card.key, pathParameters: { id: card.id } });
  expect(shown.body.data.cards).toEqual([]);
  const refused = await send('add-invoice', { key: card.key, body: invoiceByCard(card) });
  expect(answer(refused)).toBe('400 invalid_card_token');
}

const invoiceByCard = ({ id, card_token }: Card) => ({
  ...invoiceBody(),
  client: undefined,
  client_id: id,
  card_token,
});

/** The races of forgetting a saved card. */
function forgetCardRaces(): Race[] {
  return [
    {
      route: 'forget-client-card',
      kind: 'identical',
      title: `${N} forgets of one saved card: one 200, the rest 404 card_not_found`,
      async run() {
        const card = await savedCard();
        await expectForgottenOnce(card, await race(times(N, () => forgetCard(card))));
      },
    },
    {
      route: 'forget-client-card',
      kind: 'keyed',
      title: `${N} forgets with one Idempotency-Key (not a keyed route: one 200, the rest 404, no replay)`,
      async run() {
        const card = await savedCard();
        await expectForgottenOnce(card, await race(times(N, () => forgetCard(card, 'forget-once'))));
      },
    },
    {
      route: 'forget-client-card',
      kind: 'mixed',
      races: ['add-invoice'],
      title: 'forgets of a saved card while invoices are created with its card_token: each created or refused',
      async run() {
        const card = await savedCard();
        const forgets = times(4, () => forgetCard(card));
        const results = await race([
          ...forgets,
          ...times(8, () => send('add-invoice', { key: card.key, body: invoiceByCard(card) })),
        ]);
        const invoices = results.slice(forgets.length);
        expectOnly(invoices, ['201', '400 invalid_card_token']);
        for (const r of invoices.filter((x) => x.status === 201))
          expect(r.body.data.card_token_last4).toBe(card.card_token.slice(-4));
        await expectForgottenOnce(card, results.slice(0, forgets.length));
      },
    },
  ];
}

/** A monthly series from 31 Jan 2031 (send off), and its account. */
async function newSeries(overrides: Record<string, unknown> = {}) {
  const { account, key } = await newAccount();
  const body = recurringBody(overrides);
  const series = (await call('create-recurring-invoice', { key, body })).body.data;
  return { account, key, series };
}

function recurringBody(overrides: Record<string, unknown> = {}) {
  const { due_date: _none, ...invoice } = invoiceBody();
  const schedule = { every: 1, unit: 'month', start: '01/31/2031', due_in_days: 14, end: { after: 6 } };
  return { ...invoice, schedule, ...overrides };
}

type SeriesAction = 'pause' | 'resume' | 'cancel';
const changeSeries = (action: SeriesAction, key: string, id: string, idempotencyKey?: string) =>
  send(`${action}-recurring-invoice`, {
    key,
    pathParameters: { id },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

/** The sweep's handler on one series, late enough for its first three periods (31 Jan, 28 Feb, 31 Mar 2031). */
async function sweepSeries(id: string, companyId: number): Promise<CallResult> {
  const hit = { kind: 'recurring' as const, id, companyId, indexKey: '' };
  await wakeSeries([hit], { now: new Date('2031-04-01T12:00:00Z'), writtenAt: () => new Date(), account: getAccount });
  return { status: 200, body: {}, headers: {} } as CallResult;
}

/** Each period's invoice once: the periods created are distinct and consecutive from 1. */
async function expectEachPeriodOnce(id: string) {
  const periods = (await issuedPeriods(id)).map((p) => p.period);
  expect(periods).toEqual(periods.map((_, i) => i + 1));
  expect(periods.length).toBeLessThanOrEqual(3);
}

/** The races of the series' routes (docs/recurring-invoices.md); the mixed ones also race the sweep. */
function recurringRaces(): Race[] {
  const changeRaces = (action: SeriesAction, others: SeriesAction[]): Race[] => [
    {
      route: `${action}-recurring-invoice`,
      kind: 'identical',
      title: `${N} identical ${action}s of one series: every one 200`,
      async run() {
        const { key, series } = await newSeries();
        if (action === 'resume') await changeSeries('pause', key, series.id);
        const results = await race(times(N, () => changeSeries(action, key, series.id)));
        expectOnly(results, ['200']);
        expect(new Set(results.map((r) => r.body.data.status)).size).toBe(1);
      },
    },
    {
      route: `${action}-recurring-invoice`,
      kind: 'keyed',
      title: `${N} identical ${action}s with one Idempotency-Key: one answer, the rest replays or in progress`,
      async run() {
        const { key, series } = await newSeries();
        if (action === 'resume') await changeSeries('pause', key, series.id);
        const results = await race(times(N, () => changeSeries(action, key, series.id, `${action}-once`)));
        expectOnly(results, ['200', IN_FLIGHT]);
        const bodies = new Set(results.filter((r) => r.status === 200).map((r) => JSON.stringify(r.body)));
        expect(bodies.size).toBe(1);
      },
    },
    {
      route: `${action}-recurring-invoice`,
      kind: 'mixed',
      races: others.map((other) => `${other}-recurring-invoice` as const),
      title: `${action}s racing ${others.join(' and ')} and three sweeps: each period at most once`,
      async run() {
        const { account, key, series } = await newSeries();
        const results = await race([
          ...times(4, () => changeSeries(action, key, series.id)),
          ...others.flatMap((other) => times(3, () => changeSeries(other, key, series.id))),
          ...times(3, () => sweepSeries(series.id, account.companyId)),
        ]);
        expectOnly(results, ['200', '409 recurring_status_conflict']);
        await expectEachPeriodOnce(series.id);
      },
    },
  ];
  return [
    {
      route: 'create-recurring-invoice',
      kind: 'identical',
      title: `${N} identical series for one new client: every one 201, one client`,
      async run() {
        const { key } = await newAccount();
        const body = recurringBody();
        const results = await race(times(N, () => send('create-recurring-invoice', { key, body })));
        expectOnly(results, ['201']);
        expect(new Set(results.map((r) => r.body.data.client_id)).size).toBe(1);
        expect(new Set(results.map((r) => r.body.data.id)).size).toBe(N);
      },
    },
    {
      route: 'create-recurring-invoice',
      kind: 'keyed',
      title: `${N} identical series with one Idempotency-Key: one created, the rest replays or in progress`,
      async run() {
        const { key } = await newAccount();
        const body = recurringBody();
        const options = { key, body, idempotencyKey: 'one-series' };
        const results = await race(times(N, () => send('create-recurring-invoice', options)));
        expectOnly(results, ['201', IN_FLIGHT]);
        expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.data.id)).size).toBe(1);
      },
    },
    {
      route: 'create-recurring-invoice',
      kind: 'mixed',
      races: ['delete-client', 'update-client'],
      title: 'series by client_id while the client is updated and deleted',
      async run() {
        const { key, id } = await newClient();
        const byClient = recurringBody({ client: undefined, client_id: id });
        const results = await race([
          ...times(N, () => send('create-recurring-invoice', { key, body: byClient })),
          ...times(3, () => send('update-client', { key, pathParameters: { id }, body: { first_name: 'Bola' } })),
          send('delete-client', { key, pathParameters: { id } }),
        ]);
        expectOnly(results, ['200', '201', '404 client_not_found']);
      },
    },
    ...changeRaces('pause', ['resume', 'cancel']),
    ...changeRaces('resume', ['pause']),
    ...changeRaces('cancel', ['pause', 'resume']),
  ];
}

/** Issues a credit note of `amount` on the invoice (docs/tax.md "Credit notes"). */
const creditNote = (key: string, reference_code: string, amount: string, idempotencyKey?: string) =>
  send('create-credit-note', {
    key,
    pathParameters: { reference_code },
    body: { reason: 'Raced', amount },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

/** An invoice of `total` (a money string) on a new account. */
async function invoiceOf(total: string) {
  const { key } = await newAccount();
  const invoice = await createInvoice(key, {
    items: [{ item: 'Audit', description: 'Yearly', unit_cost: total, quantity: 1 }],
  });
  return { key, ref: invoice.reference_code as string };
}

/** The races of credit notes: the cap and the gapless numbers hold, and no answer is a 5xx. */
function creditNoteRaces(): Race[] {
  return [
    {
      route: 'create-credit-note',
      kind: 'identical',
      title: `${N} identical credit notes of 10.00 on an invoice of 50.00: five 201 with CN-000001…5, the rest 409`,
      async run() {
        const { key, ref } = await invoiceOf('50.00');
        const results = await race(times(N, () => creditNote(key, ref, '10.00')));
        expectOnly(results, ['201', '409 credit_exceeds_invoice']);
        const numbers = results.filter((r) => r.status === 201).map((r) => r.body.data.number);
        expect(numbers.sort()).toEqual(['CN-000001', 'CN-000002', 'CN-000003', 'CN-000004', 'CN-000005']);
      },
    },
    {
      route: 'create-credit-note',
      kind: 'keyed',
      title: `${N} identical credit notes with one Idempotency-Key: one credit note, the rest replays or in progress`,
      async run() {
        const { key, ref } = await invoiceOf('50.00');
        const results = await race(times(N, () => creditNote(key, ref, '10.00', 'credit-once')));
        expectOnly(results, ['201', IN_FLIGHT]);
        const bodies = new Set(results.filter((r) => r.status === 201).map((r) => JSON.stringify(r.body)));
        expect(bodies.size).toBe(1);
        const invoice = await send('get-invoice', { key, pathParameters: { reference_code: ref } });
        expect(invoice.body.data.amount_due).toBe('40.00');
      },
    },
    {
      route: 'create-credit-note',
      kind: 'mixed',
      races: ['add-payment', 'delete-invoice'],
      title: 'credit notes while the invoice is paid and voided: never above its total, amount due never negative',
      async run() {
        const { key, ref } = await invoiceOf('100.00');
        const payment = { reference_code: ref, date: todayMonthFirst(), amount: '30.00', channel: 'Cash' };
        const results = await race([
          ...times(4, () => creditNote(key, ref, '30.00')),
          ...times(3, () => pay(key, payment)),
          deleteInvoice(key, ref),
        ]);
        expectOnly(results, ['200', '201', '409']);
        const credited = results.filter((r) => r.status === 201 && r.body.data.number !== undefined);
        expect(credited.length).toBeLessThanOrEqual(3);
        const invoice = (await send('get-invoice', { key, pathParameters: { reference_code: ref } })).body.data;
        const applied = credited.reduce((sum, r) => sum + kobo(r.body.data.applied_to_invoice), 0);
        if (invoice.payment_status !== 'void')
          expect(kobo(invoice.amount_due)).toBe(10_000 - kobo(invoice.amount_paid) - applied);
        expect(kobo(invoice.amount_due)).toBeGreaterThanOrEqual(0);
      },
    },
  ];
}

/** A connected account's client with its virtual account, and ₦1,000.00 of credit from a transfer into it. */
async function clientWithCredit() {
  const connected = await connectedAccount(localPaystack);
  const { key } = connected;
  const body = { first_name: 'Ada', last_name: 'Obi', email: uniqueEmail(), phone: '+2348012345678' };
  const id = String((await send('add-client', { key, body })).body.data.id);
  const opened = await send('create-virtual-account', { key, pathParameters: { id } });
  await transferIntoVirtualAccount(localPaystack, connected, opened.body.data.virtual_account.account_number, 100_000);
  return { key, id };
}

const openAccount = (key: string, id: string, idempotencyKey?: string) =>
  send('create-virtual-account', { key, pathParameters: { id }, ...(idempotencyKey ? { idempotencyKey } : {}) });

const refundCredit = (key: string, id: string, amount: string, idempotencyKey?: string) =>
  send('refund-client-credit', {
    key,
    pathParameters: { id },
    body: { amount },
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });

/** Every open answered the one account the client keeps. */
async function expectOneAccount(key: string, id: string, opens: CallResult[]) {
  const shown = (await send('get-client', { key, pathParameters: { id } })).body.data.virtual_account;
  expect(shown.account_number).toMatch(/^\d{10}$/);
  for (const r of opens.filter((x) => x.status === 200)) expect(r.body.data.virtual_account).toEqual(shown);
}

/** Three refunds of ₦300.00 of ₦1,000.00 succeed, the rest are refused; ₦100.00 is left. */
async function expectThreeRefunds(key: string, id: string, refunds: CallResult[]) {
  expectOnly(refunds, ['200', '409 amount_exceeds_credit']);
  expect(refunds.filter((r) => r.status === 200)).toHaveLength(3);
  expect((await send('get-client', { key, pathParameters: { id } })).body.data.credit_balance).toBe('100.00');
}

/** The races of the bank transfer routes (docs/bank-transfers.md). */
function bankTransferRaces(): Race[] {
  return [
    {
      route: 'create-virtual-account',
      kind: 'identical',
      title: `${N} opens of one client's virtual account: all 200, one account`,
      async run() {
        const { key } = await connectedAccount(localPaystack);
        const { id } = await newClientOf(key);
        const opens = await race(times(N, () => openAccount(key, id)));
        expectOnly(opens, ['200']);
        await expectOneAccount(key, id, opens);
      },
    },
    {
      route: 'create-virtual-account',
      kind: 'keyed',
      title: `${N} opens with one Idempotency-Key (not a keyed route): all 200, one account`,
      async run() {
        const { key } = await connectedAccount(localPaystack);
        const { id } = await newClientOf(key);
        const opens = await race(times(N, () => openAccount(key, id, 'open-once')));
        expectOnly(opens, ['200']);
        await expectOneAccount(key, id, opens);
      },
    },
    {
      route: 'create-virtual-account',
      kind: 'mixed',
      races: ['update-client', 'delete-client'],
      title: 'opens while the client is updated and deleted: each opened or 404, one account',
      async run() {
        const { key } = await connectedAccount(localPaystack);
        const { id } = await newClientOf(key);
        const results = await race([
          ...times(6, () => openAccount(key, id)),
          ...times(4, () => send('update-client', { key, pathParameters: { id }, body: { address: 'Yaba' } })),
          ...times(2, () => send('delete-client', { key, pathParameters: { id } })),
        ]);
        expectOnly(results.slice(0, 10), ['200', '404 client_not_found']);
        expectOnly(results.slice(10), ['200']);
        if (results.slice(0, 6).some((r) => r.status === 200)) await expectOneAccount(key, id, results.slice(0, 6));
      },
    },
    {
      route: 'refund-client-credit',
      kind: 'identical',
      title: `${N} refunds of ₦300.00 of ₦1,000.00 credit: three 200, the rest 409 amount_exceeds_credit`,
      async run() {
        const { key, id } = await clientWithCredit();
        await expectThreeRefunds(key, id, await race(times(N, () => refundCredit(key, id, '300'))));
      },
    },
    {
      route: 'refund-client-credit',
      kind: 'keyed',
      title: `${N} refunds with one Idempotency-Key (not a keyed route): three 200, the rest 409`,
      async run() {
        const { key, id } = await clientWithCredit();
        await expectThreeRefunds(key, id, await race(times(N, () => refundCredit(key, id, '300', 'refund-once'))));
      },
    },
    {
      route: 'refund-client-credit',
      kind: 'mixed',
      races: ['add-invoice', 'delete-client'],
      title: 'refunds while invoices take the credit and the client is deleted: credit + applied + refunded = ₦1,000',
      async run() {
        const { key, id } = await clientWithCredit();
        const invoice = { ...invoiceBody(), client: undefined, client_id: id };
        const results = await race([
          ...times(6, () => refundCredit(key, id, '150')),
          ...times(4, () => send('add-invoice', { key, body: invoice })),
          send('delete-client', { key, pathParameters: { id } }),
        ]);
        expectOnly(results.slice(0, 6), ['200', '409 amount_exceeds_credit']);
        expectOnly(results.slice(6, 10), ['201', '404 client_not_found']);
        const refunded = results.slice(0, 6).filter((r) => r.status === 200).length * 15_000;
        const { payments } = await fullHistory(key, { period: 'today' });
        const applied = payments.filter((p) => p.channel === 'Credit').reduce((sum, p) => sum + kobo(p.amount), 0);
        const left = (await send('get-client', { key, pathParameters: { id } })).body.data.credit_balance;
        expect(kobo(left) + applied + refunded).toBe(100_000);
      },
    },
  ];
}

async function newClientOf(key: string) {
  const body = { first_name: 'Ada', last_name: 'Obi', email: uniqueEmail(), phone: '+2348012345678' };
  return { id: String((await send('add-client', { key, body })).body.data.id) };
}

const RACES: Race[] = [
  {
    route: 'add-invoice',
    kind: 'identical',
    title: `${N} identical invoices for one new client: every one 201, one client`,
    async run() {
      const { key } = await newAccount();
      const body = invoiceBody();
      const results = await race(times(N, () => send('add-invoice', { key, body })));
      expectOnly(results, ['201']);
      expect(new Set(results.map((r) => r.body.data.client.id)).size).toBe(1);
    },
  },
  {
    route: 'add-invoice',
    kind: 'keyed',
    title: `${N} identical invoices with one Idempotency-Key: one created, the rest replays or in progress`,
    async run() {
      const { key } = await newAccount();
      const body = invoiceBody();
      const results = await race(times(N, () => send('add-invoice', { key, body, idempotencyKey: 'one-invoice' })));
      expectOnly(results, ['201', IN_FLIGHT]);
      expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.data.reference_code)).size).toBe(1);
    },
  },
  {
    route: 'add-invoice',
    kind: 'mixed',
    races: ['add-invoice', 'delete-client', 'update-client'],
    title: 'invoices by client_id and with one merchant_ref, while the client is updated and deleted',
    async run() {
      const { key, id } = await newClient();
      const byClient = { ...invoiceBody(), client: undefined, client_id: id, merchant_ref: 'ORDER-1' };
      const results = await race([
        ...times(N, () => send('add-invoice', { key, body: byClient })),
        ...times(3, () => send('update-client', { key, pathParameters: { id }, body: { first_name: 'Bola' } })),
        send('delete-client', { key, pathParameters: { id } }),
      ]);
      expectOnly(results, ['200', '201', '404 client_not_found', '409 duplicate_merchant_ref']);
      expect(results.filter((r) => r.status === 201).length).toBeLessThanOrEqual(1);
    },
  },
  {
    route: 'delete-invoice',
    kind: 'identical',
    title: `${N} deletes of one invoice: every one 200`,
    async run() {
      const { key, invoice } = await invoiceWithPayment();
      expectOnly(await race(times(N, () => deleteInvoice(key, invoice.reference_code))), ['200']);
    },
  },
  {
    route: 'delete-invoice',
    kind: 'keyed',
    title: `${N} deletes of one invoice with one Idempotency-Key (not a keyed route: the header is ignored)`,
    async run() {
      const { key, invoice } = await invoiceWithPayment();
      const pathParameters = { reference_code: invoice.reference_code };
      const results = await race(times(N, () => send('delete-invoice', { key, pathParameters, idempotencyKey: 'd' })));
      expectOnly(results, ['200']);
    },
  },
  {
    route: 'delete-invoice',
    kind: 'mixed',
    races: ['add-payment', 'reverse-payment'],
    title: 'deletes, payments and reversals of one invoice at once',
    async run() {
      const { key, invoice, payment } = await invoiceWithPayment();
      const id = String((await pay(key, payment)).body.data.id);
      const results = await race([
        ...times(4, () => reverse(key, id)),
        ...times(4, () => deleteInvoice(key, invoice.reference_code)),
        ...times(4, () => pay(key, payment)),
      ]);
      expectOnly(results, ['200', '201', '409']);
    },
  },
  {
    route: 'add-client',
    kind: 'identical',
    title: `${N} identical clients: one 201, the rest 200 "already exist"`,
    async run() {
      const { key } = await newAccount();
      const body = { first_name: 'Ada', last_name: 'Obi', email: uniqueEmail(), phone: '+2348012345678' };
      const results = await race(times(N, () => send('add-client', { key, body })));
      expectOnly(results, ['200', '201']);
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    },
  },
  {
    route: 'add-client',
    kind: 'keyed',
    title: `${N} identical clients with one Idempotency-Key`,
    async run() {
      const { key } = await newAccount();
      const body = { first_name: 'Ada', last_name: 'Obi', email: uniqueEmail(), phone: '+2348012345678' };
      const results = await race(times(N, () => send('add-client', { key, body, idempotencyKey: 'one-client' })));
      expectOnly(results, ['200', '201', IN_FLIGHT]);
      expect(new Set(results.filter((r) => r.status < 300).map((r) => r.body.data.id)).size).toBe(1);
    },
  },
  {
    route: 'add-client',
    kind: 'mixed',
    races: ['update-client', 'add-invoice'],
    title: 'one e-mail claimed at once by new clients, an update of another client and new invoices',
    async run() {
      const { key, id } = await newClient();
      const email = uniqueEmail();
      const body = { first_name: 'Ada', last_name: 'Obi', email, phone: '+2348012345678' };
      const results = await race([
        ...times(4, () => send('add-client', { key, body })),
        ...times(4, () => send('update-client', { key, pathParameters: { id }, body: { email } })),
        ...times(4, () => send('add-invoice', { key, body: invoiceBody({ client: body }) })),
      ]);
      expectOnly(results, ['200', '201', '409 duplicate_client_email']);
    },
  },
  {
    route: 'update-client',
    kind: 'identical',
    title: `${N} identical updates of one client: every one 200`,
    async run() {
      const { key, id } = await newClient();
      const body = { company_name: 'Obi Ventures', phone: '+2348099999999' };
      expectOnly(await race(times(N, () => send('update-client', { key, pathParameters: { id }, body }))), ['200']);
    },
  },
  {
    route: 'update-client',
    kind: 'keyed',
    title: `${N} identical updates with one Idempotency-Key (not a keyed route: the header is ignored)`,
    async run() {
      const { key, id } = await newClient();
      const options = { key, pathParameters: { id }, body: { last_name: 'Bello' }, idempotencyKey: 'u' };
      expectOnly(await race(times(N, () => send('update-client', options))), ['200']);
    },
  },
  {
    route: 'update-client',
    kind: 'mixed',
    races: ['delete-client'],
    title: 'updates and deletes of one client at once',
    async run() {
      const { key, id } = await newClient();
      const results = await race([
        ...times(6, () => send('update-client', { key, pathParameters: { id }, body: { first_name: 'Bola' } })),
        ...times(6, () => send('delete-client', { key, pathParameters: { id } })),
      ]);
      expectOnly(results, ['200', '404 client_not_found']);
    },
  },
  {
    route: 'delete-client',
    kind: 'identical',
    title: `${N} deletes of one client: every one 200`,
    async run() {
      const { key, id } = await newClient();
      expectOnly(await race(times(N, () => send('delete-client', { key, pathParameters: { id } }))), ['200']);
    },
  },
  {
    route: 'delete-client',
    kind: 'keyed',
    title: `${N} deletes of one client with one Idempotency-Key (not a keyed route: the header is ignored)`,
    async run() {
      const { key, id } = await newClient();
      const options = { key, pathParameters: { id }, idempotencyKey: 'd' };
      expectOnly(await race(times(N, () => send('delete-client', options))), ['200']);
    },
  },
  {
    route: 'delete-client',
    kind: 'mixed',
    races: ['update-client', 'add-invoice'],
    title: 'deletes of one client while it is updated and invoiced',
    async run() {
      const { key, id } = await newClient();
      const results = await race([
        ...times(4, () => send('delete-client', { key, pathParameters: { id } })),
        ...times(4, () => send('update-client', { key, pathParameters: { id }, body: { last_name: 'Bello' } })),
        ...times(4, () => send('add-invoice', { key, body: { ...invoiceBody(), client: undefined, client_id: id } })),
      ]);
      expectOnly(results, ['200', '201', '404 client_not_found']);
    },
  },
  {
    route: 'add-payment',
    kind: 'identical',
    title: `${N} identical payments on one invoice: every one 201`,
    async run() {
      const { key, payment } = await invoiceWithPayment();
      expectOnly(await race(times(N, () => pay(key, payment))), ['201']);
    },
  },
  {
    route: 'add-payment',
    kind: 'keyed',
    title: `${N} identical payments with one Idempotency-Key: one recorded, the rest replays or in progress`,
    async run() {
      const { key, payment } = await invoiceWithPayment();
      const results = await race(times(N, () => pay(key, payment, 'one-payment')));
      expectOnly(results, ['201', IN_FLIGHT]);
      expect(new Set(results.filter((r) => r.status === 201).map((r) => r.body.data.id)).size).toBe(1);
    },
  },
  {
    route: 'add-payment',
    kind: 'mixed',
    races: ['reverse-payment', 'delete-invoice'],
    title: 'payments that settle the invoice, reversals of its payments and a delete, at once',
    async run() {
      const { key, invoice, payment } = await invoiceWithPayment();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(String((await pay(key, { ...payment, amount: '100.00' })).body.data.id));
      const results = await race([
        ...times(6, () => pay(key, { ...payment, amount: '300.00' })),
        ...ids.flatMap((id) => [reverse(key, id), reverse(key, id, `r-${id}`)]),
        deleteInvoice(key, invoice.reference_code),
      ]);
      expectOnly(results, ['200', '201', '409']);
    },
  },
  {
    route: 'reverse-payment',
    kind: 'identical',
    title: `${REVERSAL_ROUNDS} rounds of ${N} reversals of one payment: one 200 and the rest 409 payment_already_reversed`,
    run: () => reversalRounds(false),
  },
  {
    route: 'reverse-payment',
    kind: 'keyed',
    title: `${REVERSAL_ROUNDS} rounds of ${N} reversals with one Idempotency-Key: one reversal, the rest replays or in progress`,
    run: () => reversalRounds(true),
  },
  {
    route: 'reverse-payment',
    kind: 'mixed',
    races: ['add-payment', 'delete-invoice'],
    title: 'reversals of every payment of an invoice (twice each) while it is paid and deleted',
    async run() {
      const { key, invoice, payment } = await invoiceWithPayment();
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) ids.push(String((await pay(key, payment)).body.data.id));
      const results = await race([
        ...ids.flatMap((id) => [reverse(key, id), reverse(key, id)]),
        ...times(4, () => pay(key, payment)),
        ...times(2, () => deleteInvoice(key, invoice.reference_code)),
      ]);
      expectOnly(results, ['200', '201', '409']);
    },
  },
  ...sendRaces('send-invoice', 'email-invoice'),
  ...sendRaces('email-invoice', 'send-invoice'),
  ...reminderRaces(),
  ...statementRaces(),
  ...payButtonRaces(),
  ...returnRaces(),
  ...providerEventRaces(),
  ...forgetCardRaces(),
  ...recurringRaces(),
  ...creditNoteRaces(),
  ...bankTransferRaces(),
];

const WRITE_ROUTES = ROUTES.filter((route) => route.writes).map((route) => route.name);

describe('races on every write route: never a 5xx', { timeout: 180_000 }, () => {
  it('has an identical, a keyed and a mixed race for every write route of the route table', () => {
    const missing = WRITE_ROUTES.flatMap((route) =>
      (['identical', 'keyed', 'mixed'] as const)
        .filter((kind) => !RACES.some((r) => r.route === route && r.kind === kind))
        .map((kind) => `${route}: no ${kind} race`),
    );
    expect(missing).toEqual([]);
    for (const r of RACES) expect(WRITE_ROUTES, r.title).toContain(r.route);
    for (const r of RACES.filter((x) => x.kind === 'mixed')) expect(r.races?.length, r.title).toBeGreaterThan(0);
  });

  it.each(RACES.map((r) => [`${r.route}, ${r.kind}: ${r.title}`, r] as const))('%s', async (_title, r) => {
    await r.run();
  });
});
