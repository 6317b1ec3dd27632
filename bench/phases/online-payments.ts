/**
 * Getting paid online (docs/getting-paid-online.md): the pay button's redirect, Paystack's webhook until the payment
 * shows, the return from the checkout, and forgetting a saved card — against the local Paystack-compatible server
 * (bench/paystack-bench.ts), started once in this process, with one account connected to it.
 *
 * Each route is compared with its floor (its captured DynamoDB calls replayed by the floor process) at c=1, in blocks
 * within which the two sides take turns. Paystack's part of a request (initialize for the pay button, verify for the return) is timed at the
 * local server and taken out: "ours" is the request's time minus Paystack's answer. The webhook's event is then
 * processed here, by the Paystack-events worker's own deliver function (as its queue hands it an event id, like the
 * recurring phase's sweep), and the payment read back through `GET /payments/{reference_code}`: the time until it
 * shows is the route's answer, the processing and that read. The stream and queue between the route and the worker
 * (DynamoDB Streams and SQS deployed; `npm start`'s poller) are not ours and not in it.
 */
import { randomBytes } from 'node:crypto';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { resetConfig } from '../../shared/config.ts';
import { deliverProviderEvent } from '../../shared/services/provider-events.ts';
import { createAccount } from '../../shared/store/accounts.ts';
import { connectPaystack, readPaystackConnection } from '../../shared/store/paystack-connections.ts';
import { listProviderEvents } from '../../shared/store/provider-events.ts';
import { type Budget, machineTime } from '../budgets.ts';
import { type CaptureFigures, capture } from '../capture.ts';
import { QUICK, runTag, SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { checkFloor, floorTemplate, prepareFloor, runFloorReplays } from '../floor.ts';
import { ask } from '../ipc.ts';
import { measured } from '../load.ts';
import {
  type BenchPaystack,
  chargeSuccessBodies,
  payAtCheckout,
  paystackSignature,
  startBenchPaystack,
} from '../paystack-bench.ts';
import { log } from '../progress.ts';
import { call, deletion, publicPage, type RequestSpec, read } from '../requests.ts';
import * as stats from '../stats.ts';

/** Requests per block at c=1: webhooks (each a checkout paid, then processed and read back) and returns. */
const WEBHOOKS_PER_BLOCK = QUICK ? 10 : 50;
const RETURNS_PER_BLOCK = QUICK ? 5 : 25;
/** Presses of the pay button before its blocks (the runtime's JIT for the route; the warm-up phase has no row of it). */
const PRESS_WARMUP = QUICK ? 10 : 40;

/** One invoice to be paid online: its page's token and, once pressed and paid, its checkout. */
interface Payable {
  referenceCode: string;
  token: string;
  clientId: number;
  location?: string;
  reference?: string;
  cardToken?: string;
}

interface Connected {
  companyId: number;
  key: string;
  secretKey: string;
  hookId: string;
}

/** A route against its floor: our times and the floor's (ms, pooled), the per-block p50 ratio, the capture. */
interface AgainstFloor {
  ours: number[];
  floor: number[];
  p50Ratio: stats.Spread;
  capture: CaptureFigures;
  floorSame: boolean;
}

export async function run(ctx: BenchContext): Promise<void> {
  const blocks = SIZES.blocks;
  ctx.phase(
    `Online payments: pay redirect, webhook → payment shown, return, forget card (local Paystack, c=1, ${blocks} blocks against the floor)`,
  );
  const bench = await startBenchPaystack();
  const restore = await pointAt(ctx, bench);
  try {
    const account = await connectedAccount();
    const webhookPool = await invoices(ctx, account.key, blocks * WEBHOOKS_PER_BLOCK + SIZES.captures, false);
    const returnPool = await invoices(ctx, account.key, blocks * RETURNS_PER_BLOCK + SIZES.captures, true);
    const [pressOnly] = await invoices(ctx, account.key, 1, false);
    const pay = await measurePresses(ctx, bench, pressOnly!, [...webhookPool, ...returnPool]);
    await inTurns([...webhookPool, ...returnPool], 4, async (p) => {
      p.reference = new URL(await payAtCheckout(p.location!)).searchParams.get('reference')!;
    });
    const webhook = await measureWebhooks(ctx, bench, account, webhookPool);
    const paid = await measureReturns(ctx, bench, returnPool);
    const forget = await measureForgets(ctx, account.key, returnPool);
    report(ctx, { pay, webhook, paid, forget });
  } finally {
    await restore();
    await bench.stop();
  }
}

/** The runtime and this process pointed at the local server and the phase's DATA_DIR; returns the way back. */
async function pointAt(ctx: BenchContext, bench: BenchPaystack): Promise<() => Promise<void>> {
  const saved = { PAYSTACK_BASE_URL: process.env.PAYSTACK_BASE_URL, DATA_DIR: process.env.DATA_DIR };
  const apply = async (values: Record<'PAYSTACK_BASE_URL' | 'DATA_DIR', string | undefined>) => {
    for (const [name, value] of Object.entries(values))
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    resetConfig();
    await ask(ctx.small.child, { type: 'usePaystack', ...values });
  };
  await apply({ PAYSTACK_BASE_URL: bench.paystack.url, DATA_DIR: bench.dataDir });
  return () => apply(saved);
}

/** An account with tokenization, connected with a test key of its own (an integration of its own on the server). */
async function connectedAccount(): Promise<Connected> {
  const created = await createAccount({ name: 'Bench online payments', tokenizationEnabled: true });
  const secretKey = `sk_test_${runTag}${randomBytes(16).toString('hex')}`;
  await connectPaystack(created.account.companyId, secretKey);
  const { hookId } = await readPaystackConnection(created.account.companyId);
  if (!hookId) throw new Error('the bench account has no Paystack hook id');
  return { companyId: created.account.companyId, key: created.secretKey, secretKey, hookId };
}

/** Runs `work` on every item, `concurrency` at a time (set-up, never timed). */
async function inTurns<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** `count` invoices of ₦1,000, each to a client of its own; `tokenize` saves the card that pays it. */
async function invoices(ctx: BenchContext, key: string, count: number, tokenize: boolean): Promise<Payable[]> {
  const made: Payable[] = [];
  const numbers = Array.from({ length: count }, (_, n) => n);
  await inTurns(numbers, 4, async (n) => {
    const email = `payer.${runTag}.${tokenize ? 't' : 'w'}${n}@example.com`;
    const body = {
      client: { first_name: 'Bench', last_name: `Payer ${n}`, email, phone: '+2348031234567' },
      due_date: '12/31/2030',
      fee_bearer: 'account',
      ...(tokenize ? { tokenize: 'true' } : {}),
      items: [{ item: 'Consulting', description: 'One hour', unit_cost: '1,000.00', quantity: '1' }],
    };
    const headers = { authorization: `Bearer ${key}`, 'idempotency-key': `bench-online-${runTag}-${email}` };
    const { data } = (await call(ctx.small.port, { path: '/invoices', headers, body }, 201)).json;
    const token = new URL(data.hosted_url).pathname.split('/')[2]!;
    made.push({ referenceCode: data.reference_code, token, clientId: Number(data.client_id) });
  });
  return made;
}

/** The pay button's form post: an empty form-encoded body, no key. */
const press = (token: string): RequestSpec => ({
  method: 'POST',
  path: `/i/${token}/pay`,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: '',
});

/** Requests of a side per turn: within a block the route and its floor take turns, as the endpoint rows' at c=1. */
const TURN = 10;

/**
 * A route's blocks against its floor's: within each block the two sides take turns of `TURN` requests (which goes
 * first alternates), so both meet the same moments of DynamoDB Local. `ours` sends the route's requests for some of
 * a block's items and gives their times (Paystack's taken out); the floor replays the captured calls as often, with
 * `floorRequest`'s body and headers.
 */
async function againstFloor<T>(
  name: string,
  captured: CaptureFigures,
  floorRequest: RequestSpec,
  blocks: readonly T[][],
  ours: (items: T[]) => Promise<number[]>,
): Promise<AgainstFloor> {
  const template = floorTemplate(captured.template);
  const check = await checkFloor(template, captured.template, `op-${name}`);
  log(`  ${name}: floor check: ${check.line}`);
  const oursByBlock: number[][] = [];
  const floorByBlock: number[][] = [];
  for (const [b, items] of blocks.entries()) {
    const key = `op-${name}-${b}`;
    await prepareFloor(key, template, items.length, captured.responseBytes);
    const oursOf: number[] = [];
    const floorOf: number[] = [];
    for (let first = 0; first < items.length; first += TURN) {
      const turn = items.slice(first, first + TURN);
      const runOurs = async () => void oursOf.push(...(await ours(turn)));
      const runFloor = async () =>
        void floorOf.push(...(await runFloorReplays(key, first, turn.length, 1, () => floorRequest)).samples);
      for (const side of (b + first / TURN) % 2 === 0 ? [runOurs, runFloor] : [runFloor, runOurs]) await side();
    }
    await ask(measured.floor!.child, { type: 'forget', key });
    oursByBlock.push(oursOf);
    floorByBlock.push(floorOf);
  }
  const ratios = oursByBlock.map((block, b) => stats.ratio(stats.median(block), stats.median(floorByBlock[b]!)));
  return {
    ours: oursByBlock.flat(),
    floor: floorByBlock.flat(),
    p50Ratio: stats.spreadOf(ratios, 3),
    capture: captured,
    floorSame: check.same,
  };
}

/** Splits `items` into `blocks` consecutive blocks (the last takes what is left). */
function blocksOf<T>(items: readonly T[], blocks: number): T[][] {
  const size = Math.floor(items.length / blocks);
  return Array.from({ length: blocks }, (_, b) => items.slice(b * size, b === blocks - 1 ? undefined : (b + 1) * size));
}

/** Paystack's time of each call just made to `prefix`: exactly `count` of them, in order. */
function paystackTimes(bench: BenchPaystack, prefix: string, count: number): number[] {
  const times = bench.take(prefix);
  if (times.length !== count)
    throw new Error(`expected ${count} calls to ${prefix}, the local Paystack saw ${times.length}`);
  return times;
}

/** The pay button on every invoice to be paid (each press's checkout kept), in blocks against the floor. */
async function measurePresses(ctx: BenchContext, bench: BenchPaystack, pressOnly: Payable, payables: Payable[]) {
  for (let i = 0; i < PRESS_WARMUP; i++) await call(ctx.small.port, press(pressOnly.token), 303);
  const captured = await capture(ctx.small, () => press(pressOnly.token), 303, SIZES.captures);
  bench.take('');
  const blocks = blocksOf(payables, SIZES.blocks);
  const whole: number[] = [];
  const initialize: number[] = [];
  const compared = await againstFloor('pay', captured, press(pressOnly.token), blocks, async (turn) => {
    const times: number[] = [];
    for (const payable of turn) {
      const answer = await call(ctx.small.port, press(payable.token), 303);
      payable.location = answer.location;
      times.push(answer.ms);
    }
    const paystack = paystackTimes(bench, '/transaction/initialize', times.length);
    whole.push(...times);
    initialize.push(...paystack);
    return times.map((ms, i) => ms - paystack[i]!);
  });
  return { ...compared, whole, paystack: initialize };
}

const webhookRequest = (hookId: string, body: string, secretKey: string): RequestSpec => ({
  method: 'POST',
  path: `/paystack/events/${hookId}`,
  headers: { 'content-type': 'application/json', 'x-paystack-signature': paystackSignature(body, secretKey) },
  body,
});

/**
 * Paystack's `charge.success` for each paid checkout: the route's answer (against its floor), then the worker's
 * processing of the stored event in this process (verify, then the recording), then the payment read back.
 */
async function measureWebhooks(ctx: BenchContext, bench: BenchPaystack, account: Connected, pool: Payable[]) {
  const bodies = await chargeSuccessBodies(bench.paystack, account.secretKey);
  const requestOf = (p: Payable) => webhookRequest(account.hookId, bodies.get(p.reference!)!, account.secretKey);
  const forCapture = pool.slice(0, SIZES.captures);
  const captured = await capture(ctx.small, () => requestOf(forCapture.shift()!), 200, SIZES.captures);
  // The captured events processed before the blocks: this process's JIT for the worker's path.
  for (const event of await listProviderEvents(account.companyId)) await deliverProviderEvent(event.eventId);
  bench.take('');
  const blocks = blocksOf(pool.slice(SIZES.captures), SIZES.blocks);
  const shown = { processing: [] as number[], verify: [] as number[], visible: [] as number[], roundTrips: [0] };
  const compared = await againstFloor('webhook', captured, requestOf(pool[0]!), blocks, async (turn) => {
    const routeMs: number[] = [];
    for (const payable of turn)
      routeMs.push(await webhookUntilShown(ctx, bench, account.key, payable, requestOf(payable), shown));
    return routeMs;
  });
  return { ...compared, ...shown, roundTrips: Math.max(...shown.roundTrips) };
}

/** One webhook until its payment shows; returns the route's time and adds to `shown` what came after it. */
async function webhookUntilShown(
  ctx: BenchContext,
  bench: BenchPaystack,
  key: string,
  payable: Payable,
  request: RequestSpec,
  shown: { processing: number[]; verify: number[]; visible: number[]; roundTrips: number[] },
): Promise<number> {
  const started = performance.now();
  const answer = await call(ctx.small.port, request, 200);
  let roundTrips = 0;
  const remove = dynamoHooks.add({ before: () => void roundTrips++ });
  const processingStarted = performance.now();
  const outcome = await deliverProviderEvent(answer.json.data.event_id).finally(remove);
  shown.processing.push(performance.now() - processingStarted);
  if (outcome.kind !== 'delivered') throw new Error(`the event of ${payable.reference} was not recorded`);
  const payment = (await call(ctx.small.port, read(key, `/payments/${payable.referenceCode}`), 200)).json;
  if (payment.data.referrer !== payable.reference) throw new Error(`no payment of ${payable.reference} shown`);
  shown.visible.push(performance.now() - started);
  shown.verify.push(...paystackTimes(bench, '/transaction/verify/', 1));
  shown.roundTrips.push(roundTrips);
  return answer.ms;
}

/** The return from the checkout, as Paystack's redirect names the reference. */
const returnRequest = (p: Payable): RequestSpec =>
  publicPage(`/i/${p.token}/paid?trxref=${p.reference}&reference=${p.reference}`);

/**
 * The return of each paid checkout whose card is saved (Paystack's verify, then the recording). No floor: the route
 * reads the page again after its own transaction, so a replay would start from the items that transaction wrote.
 */
async function measureReturns(ctx: BenchContext, bench: BenchPaystack, pool: Payable[]) {
  const forCapture = pool.slice(0, SIZES.captures);
  const captured = await capture(ctx.small, () => returnRequest(forCapture.shift()!), 200, SIZES.captures);
  bench.take('');
  const whole: number[] = [];
  for (const payable of pool.slice(SIZES.captures)) {
    const answer = await call(ctx.small.port, returnRequest(payable), 200);
    if (!answer.body.includes('Payment received'))
      throw new Error(`the return of ${payable.reference} recorded nothing`);
    whole.push(answer.ms);
  }
  const verify = paystackTimes(bench, '/transaction/verify/', whole.length);
  return { whole, paystack: verify, ours: whole.map((ms, i) => ms - verify[i]!), capture: captured };
}

/**
 * Forgets the card each return saved (`DELETE /clients/{id}/cards/{card_token}`), against the floor. Its floor check
 * reads DIFFERENT by one write unit: the card's signature item is deleted by a key the card names, never read, so the
 * replay's renamed delete finds nothing to remove; the floor does a little less, and the ratio errs against us.
 */
async function measureForgets(ctx: BenchContext, key: string, pool: Payable[]) {
  for (const payable of pool) {
    const payment = (await call(ctx.small.port, read(key, `/payments/${payable.referenceCode}`), 200)).json;
    payable.cardToken = payment.data.card_token;
  }
  const forget = (p: Payable) => deletion(key, `/clients/${p.clientId}/cards/${p.cardToken}`);
  const forCapture = pool.slice(0, SIZES.captures);
  const captured = await capture(ctx.small, () => forget(forCapture.shift()!), 200, SIZES.captures);
  const blocks = blocksOf(pool.slice(SIZES.captures), SIZES.blocks);
  return againstFloor('forget', captured, forget(pool[0]!), blocks, async (turn) => {
    const times: number[] = [];
    for (const payable of turn) times.push((await call(ctx.small.port, forget(payable), 200)).ms);
    return times;
  });
}

type Measured = {
  pay: Awaited<ReturnType<typeof measurePresses>>;
  webhook: Awaited<ReturnType<typeof measureWebhooks>>;
  paid: Awaited<ReturnType<typeof measureReturns>>;
  forget: AgainstFloor;
};

const ms = (samples: readonly number[], p: number) => stats.round(stats.percentile(samples, p), 1);

/** A route's figures against its floor: ours and the floor's p50 and p99, the ratio, the round trips and units. */
const routeFigures = (r: AgainstFloor) => ({
  n: r.ours.length,
  oursP50Ms: ms(r.ours, 50),
  oursP99Ms: ms(r.ours, 99),
  floorP50Ms: ms(r.floor, 50),
  floorP99Ms: ms(r.floor, 99),
  p50OverFloor: r.p50Ratio,
  roundTrips: r.capture.roundTrips.max,
  commands: r.capture.roundTrips.commands,
  rcu: r.capture.rcu,
  wcu: r.capture.wcu,
  floorSame: r.floorSame,
});

function figuresOf(m: Measured) {
  return {
    pay: { ...routeFigures(m.pay), p50Ms: ms(m.pay.whole, 50), initializeP50Ms: ms(m.pay.paystack, 50) },
    webhook: {
      ...routeFigures(m.webhook),
      processingP50Ms: ms(m.webhook.processing, 50),
      processingP99Ms: ms(m.webhook.processing, 99),
      verifyP50Ms: ms(m.webhook.verify, 50),
      processingRoundTrips: m.webhook.roundTrips,
      shownP50Ms: ms(m.webhook.visible, 50),
      shownP99Ms: ms(m.webhook.visible, 99),
    },
    paid: {
      n: m.paid.ours.length,
      oursP50Ms: ms(m.paid.ours, 50),
      oursP99Ms: ms(m.paid.ours, 99),
      p50Ms: ms(m.paid.whole, 50),
      verifyP50Ms: ms(m.paid.paystack, 50),
      roundTrips: m.paid.capture.roundTrips.max,
      commands: m.paid.capture.roundTrips.commands,
      rcu: m.paid.capture.rcu,
      wcu: m.paid.capture.wcu,
    },
    forget: routeFigures(m.forget),
  };
}

function report(ctx: BenchContext, m: Measured) {
  const figures = figuresOf(m);
  ctx.results.onlinePayments = figures;
  for (const [route, f] of Object.entries(figures)) {
    const { commands, ...rest } = f;
    const overFloor = 'p50OverFloor' in rest ? `; p50 ÷ floor ${stats.formatSpread(rest.p50OverFloor)}` : '';
    log(`  ${route}: ${JSON.stringify({ ...rest, p50OverFloor: undefined })}${overFloor}; ${commands.join(', ')}`);
  }
  ctx.budgets.push(...onlinePaymentBudgets(figures));
}

/**
 * Ours ÷ floor at c=1, as an endpoint row's p50 (bench/budgets.ts `cpuBoundLimits`): at most `stated`, or the floor
 * plus `cpuMs` of our CPU (× the machine factor) where that is more.
 */
function overFloor(name: string, r: { p50OverFloor: stats.Spread; floorP50Ms: number }, stated: number, cpuMs: number) {
  const limit = (k: number) => Math.max(stated, 1 + (cpuMs * k) / r.floorP50Ms);
  return {
    name: `${name}: ours p50 ÷ floor p50 c=1`,
    value: r.p50OverFloor.median,
    spread: r.p50OverFloor,
    comparator: '<=',
    limit: stats.round(limit(1), 3),
    scale: limit,
    basis: `${stated}, or 1 + ${cpuMs} ms × factor ÷ floor p50 ${r.floorP50Ms} ms`,
  } satisfies Budget;
}

const roundTrips = (name: string, value: number, limit: number): Budget => ({
  name: `${name}: round trips`,
  value,
  comparator: '<=',
  limit,
});

const guard = (name: string, value: number, limit: number): Budget => ({
  name,
  value,
  comparator: '<=',
  limit,
  unit: 'ms',
  scale: machineTime(limit),
});

/** The phase's budgets and why each holds (docs/performance.md "Budgets"). */
function onlinePaymentBudgets(f: ReturnType<typeof figuresOf>): Budget[] {
  return [
    // The hosted page's reads (the link's Query; invoice, account and connection in one BatchGetItem; the client's
    // virtual account), then the checkout attempt's PutItem; Paystack's initialize is not DynamoDB.
    roundTrips('pay redirect', f.pay.roundTrips, 4),
    // A write's 3 ms, and 1.5 ms for the call to Paystack on our side (the request, its JSON answer read).
    overFloor('pay redirect (Paystack initialize taken out)', f.pay, 1.15, 4.5),
    // The hook's account, its connection (the sealed key, opened once per warm function), the event's PutItem.
    roundTrips('Paystack webhook route', f.webhook.roundTrips, 3),
    // An HMAC-SHA512 of a few KB is microseconds: a write's 3 ms.
    overFloor('Paystack webhook route', f.webhook, 1.15, 3),
    // The event, the connection, the recording's read and one transaction, the event marked.
    roundTrips('Paystack event processing', f.webhook.processingRoundTrips, 5),
    // The route's 3, the processing's 5 and the payment's read: 9 round trips, one a transaction of ~10 items (~15 ms
    // on DynamoDB Local), 3 HTTP hops and our CPU: about 40 ms; twice that, as the other phases' guards.
    guard('webhook → payment shown p50 c=1', f.webhook.shownP50Ms, 80),
    // The p99 of 200 is their second slowest: a DynamoDB Local or GC pause fits, a retry's back-off or a poll does not.
    guard('webhook → payment shown p99 c=1', f.webhook.shownP99Ms, 200),
    // The page's 3 reads before and after the recording, the attempt, the recording's 2 reads and transaction, the
    // payment shown.
    roundTrips('return from the checkout', f.paid.roundTrips, 11),
    // No floor (a replay cannot meet the recording's conditions): 10 reads (~2 ms), a transaction (~15 ms), the page
    // and the verify call on our side: about 40 ms; twice that.
    guard('return from the checkout (Paystack verify taken out) p50 c=1', f.paid.oursP50Ms, 80),
    // The client and the card in one BatchGetItem, the client's other cards (for the answer), one transaction.
    roundTrips('forget client card', f.forget.roundTrips, 3),
    overFloor('forget client card', f.forget, 1.15, 3),
  ];
}
