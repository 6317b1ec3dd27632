/**
 * No 5xx where the outcome is decided (issue 26; docs/guarantees.md "No 500 for a request whose outcome is decided").
 * Every write route of the route table (shared/routes.ts) is raced against itself — N identical requests at once,
 * without and with one Idempotency-Key — and against the routes that race it on the same invoice, payment or client.
 * Any 5xx fails, and so does any error that is not the envelope: a race has a decided outcome for every request
 * (a success, a replay, a business refusal or `409 idempotency_request_in_progress`). A write route added to the
 * table without its three races fails the first test. Each call has 30 s of invocation time, as in contention.test.ts,
 * so that a busy machine does not turn a commit into an unconfirmed one (504).
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, type RouteName } from '../../shared/routes.ts';
import { runOverdueSweep } from '../../shared/services/sweep-overdue.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { listMailJobs } from '../../shared/store/mail-jobs.ts';
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
import { expectErrorEnvelope, scale } from './helpers.ts';

const N = 12;
const BUDGET_MS = 30_000;
/**
 * Rounds of the reversal races: before the snapshot read, about one round in five of twelve reversals of one payment
 * answered a 500 on this machine (issue 26), so twenty rounds fail on that code in all but about one run in fifty.
 */
const REVERSAL_ROUNDS = scale(20, 100);

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
const answer = (r: CallResult) => (r.status < 400 ? String(r.status) : `${r.status} ${r.body?.code}`);

/** Sends every request at once; fails on any 5xx or non-envelope error, naming every answer. */
async function race(requests: Promise<CallResult>[]): Promise<CallResult[]> {
  const results = await Promise.all(requests);
  const answers = results.map(answer).join(', ');
  expect(results.filter((r) => r.status >= 500).map(answer), answers).toEqual([]);
  for (const r of results) if (r.status >= 400) expectErrorEnvelope(r);
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
          runOverdueSweep(new Date()),
          runOverdueSweep(new Date()),
        ]);
        expectOnly(results, ['200', '201', '409 invoice_deleted', '409 invoice_has_payments']);
        const shown = await send('get-invoice', { key, pathParameters: { reference_code: ref } });
        expect(shown.body.data.reminders.length).toBeLessThanOrEqual(1);
      },
    },
  ];
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
