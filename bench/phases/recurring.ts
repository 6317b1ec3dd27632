/**
 * Recurring invoices (docs/recurring-invoices.md): the series' routes at c=1, and the sweep issuing 500 series'
 * periods. The sweep's handler of series (services/recurring-sweep.ts) runs in this process on the account's own
 * series at an instant after their first period (as `runWakeSweep` hands it a page of hits), so its cost is per series
 * issued; the series stored but not yet due are never read by today's sweep (the index is keyed by their date).
 */

import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { toIsoDate } from '../../shared/domain/dates.ts';
import { wakeSeries } from '../../shared/services/recurring-sweep.ts';
import { latestToday } from '../../shared/services/wake-sweep.ts';
import { createAccount, getAccount } from '../../shared/store/accounts.ts';
import { dueToWake, WAKE_INDEX_SHARDS, type WakeHit } from '../../shared/store/wake-index.ts';
import { figureBudgets } from '../budgets.ts';
import type { BenchContext } from '../context.ts';
import { log } from '../progress.ts';
import { call, type RequestSpec } from '../requests.ts';
import * as stats from '../stats.ts';

/**
 * Series issued by the sweep (five pages of 100: its budgets are per series issued, and 1,000 only made the phase
 * twice as long), and series cancelled before it (stored, never issued).
 */
const ISSUED = 500;
const CANCELLED = 100;
const READS = 100;
/** After 06:00 Lagos on 31 Jan 2031, the series' first issue date. */
const SWEEP_AT = new Date('2031-02-01T12:00:00Z');

const seriesBody = (n: number) => ({
  client: { first_name: 'Bench', last_name: `Tenant ${n}`, email: `tenant${n}@example.com`, phone: '+2348031234567' },
  fee_bearer: 'account',
  items: [{ item: 'Rent', description: 'Monthly', unit_cost: '250,000.00', quantity: '1' }],
  schedule: { every: 1, unit: 'month', start: '01/31/2031', due_in_days: 7, end: { after: 12 } },
  send: false,
});

const auth = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** Latencies (ms) of `count` requests at c=1. */
async function timed(port: number, count: number, make: (i: number) => RequestSpec, expected: number) {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call(port, make(i), expected);
    samples.push(performance.now() - started);
  }
  return samples;
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(
    `Recurring invoices: ${ISSUED + CANCELLED} series created, read and changed at c=1; a sweep issues ${ISSUED}`,
  );
  const { small } = ctx;
  const created = await createAccount({ name: 'Bench recurring' });
  const key = created.secretKey;
  const headers = auth(key);
  const spec = (path: string, method: 'GET' | 'POST' = 'POST', body: unknown = undefined): RequestSpec => ({
    method,
    path,
    headers,
    body,
  });
  const createMs = await timed(
    small.port,
    ISSUED + CANCELLED,
    (n) => spec('/recurring-invoices', 'POST', seriesBody(n)),
    201,
  );
  const ids: string[] = [];
  for await (const id of seriesIds(small.port, key)) ids.push(id);
  const getMs = await timed(small.port, READS, (i) => spec(`/recurring-invoices/${ids[i % ids.length]}`, 'GET'), 200);
  const listMs = await timed(small.port, READS / 4, () => spec('/recurring-invoices?limit=100', 'GET'), 200);
  const change = (i: number) =>
    spec(`/recurring-invoices/${ids[Math.floor(i / 2)]}/${i % 2 === 0 ? 'pause' : 'resume'}`);
  const changeMs = await timed(small.port, READS * 2, change, 200);
  const cancelMs = await timed(
    small.port,
    CANCELLED,
    (i) => spec(`/recurring-invoices/${ids[ISSUED + i]}/cancel`),
    200,
  );
  const notDueRead = await seriesReadBefore(created.account.companyId);
  const sweep = await sweepIssuing(ids.slice(0, ISSUED), created.account.companyId);
  report(ctx, { createMs, getMs, listMs, changeMs, cancelMs, notDueRead, sweep });
}

/** Every series id of the account, from the list route. */
async function* seriesIds(port: number, key: string): AsyncGenerator<string> {
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await call(
      port,
      { method: 'GET', path: `/recurring-invoices?limit=500${query}`, headers: auth(key), body: undefined },
      200,
    );
    for (const series of page.json.data.recurring_invoices) yield String(series.id);
    cursor = page.json.data.next_cursor;
  } while (cursor);
}

/** Index entries of the account's series that a sweep today reads: none (their date is in 2031). */
async function seriesReadBefore(companyId: number): Promise<number> {
  let read = 0;
  const through = toIsoDate(latestToday(new Date()));
  for (let shard = 0; shard < WAKE_INDEX_SHARDS; shard++)
    for await (const hits of dueToWake(shard, through))
      read += hits.filter((hit) => hit.kind === 'recurring' && hit.companyId === companyId).length;
  return read;
}

/** The handler on pages of 100 hits, as the sweep hands them: its time and its DynamoDB round trips per series. */
async function sweepIssuing(ids: string[], companyId: number) {
  let roundTrips = 0;
  const remove = dynamoHooks.add({ before: () => void roundTrips++ });
  const accounts = new Map<number, ReturnType<typeof getAccount>>();
  const account = (id: number) => accounts.get(id) ?? accounts.set(id, getAccount(id)).get(id)!;
  const started = performance.now();
  let issued = 0;
  try {
    for (let page = 0; page < ids.length; page += 100) {
      const hits: WakeHit[] = ids
        .slice(page, page + 100)
        .map((id) => ({ kind: 'recurring', id, companyId, indexKey: '' }));
      issued += (await wakeSeries(hits, { now: SWEEP_AT, writtenAt: () => new Date(), account })).issued;
    }
  } finally {
    remove();
  }
  const ms = performance.now() - started;
  return { issued, msPerSeries: ms / Math.max(issued, 1), roundTripsPerSeries: roundTrips / Math.max(issued, 1) };
}

interface Measured {
  createMs: number[];
  getMs: number[];
  listMs: number[];
  changeMs: number[];
  cancelMs: number[];
  notDueRead: number;
  sweep: Awaited<ReturnType<typeof sweepIssuing>>;
}

function report(ctx: BenchContext, m: Measured) {
  const p50 = (samples: number[]) => Math.round(stats.median(samples) * 10) / 10;
  const figures = {
    createP50Ms: p50(m.createMs),
    getP50Ms: p50(m.getMs),
    listP50Ms: p50(m.listMs),
    pauseResumeP50Ms: p50(m.changeMs),
    cancelP50Ms: p50(m.cancelMs),
    issued: m.sweep.issued,
    sweepMsPerSeries: Math.round(m.sweep.msPerSeries * 10) / 10,
    sweepRoundTripsPerSeries: Math.round(m.sweep.roundTripsPerSeries * 100) / 100,
    seriesReadBeforeTheirDate: m.notDueRead,
  };
  ctx.results.recurring = figures;
  log(`  ${JSON.stringify(figures)}`);
  ctx.budgets.push(...figureBudgets(RECURRING_BUDGETS, figures));
}

/** The phase's budgets and why each holds (docs/performance.md "Budgets"). */
export const RECURRING_BUDGETS = [
  // One BatchGetItem (client, card, id block, idempotency record) and one transaction, as add invoice: ~2 round trips.
  {
    name: 'create recurring invoice p50 c=1',
    figure: 'createP50Ms',
    limit: 30,
    comparator: '<=',
    unit: 'ms',
    timed: true,
  },
  // One BatchGetItem of one item.
  { name: 'get recurring invoice p50 c=1', figure: 'getP50Ms', limit: 10, comparator: '<=', unit: 'ms', timed: true },
  // One Query page of 100 items on GSI1 (the series' items are small: no template parsing on the way out).
  {
    name: 'list recurring invoices (100) p50 c=1',
    figure: 'listP50Ms',
    limit: 30,
    comparator: '<=',
    unit: 'ms',
    timed: true,
  },
  // One BatchGetItem and one single-action transaction.
  {
    name: 'pause/resume recurring invoice p50 c=1',
    figure: 'pauseResumeP50Ms',
    limit: 25,
    comparator: '<=',
    unit: 'ms',
    timed: true,
  },
  {
    name: 'cancel recurring invoice p50 c=1',
    figure: 'cancelP50Ms',
    limit: 25,
    comparator: '<=',
    unit: 'ms',
    timed: true,
  },
  // Each series issued once: the sweep's count is exactly the active series.
  { name: 'sweep: series issued', figure: 'issued', limit: ISSUED, comparator: '==', unit: '', timed: false },
  // Per period: add invoice's read and transaction (2); per page of 100: the series' BatchGetItem; per run: the account.
  {
    name: 'sweep: round trips per series issued',
    figure: 'sweepRoundTripsPerSeries',
    limit: 2.1,
    comparator: '<=',
    unit: '',
    timed: false,
  },
  // Add invoice's two round trips (a transaction of ~12 actions is the larger, ~15 ms on DynamoDB Local) and its CPU,
  // sequential within a page: 26.6 ms measured on a shared 2-core machine.
  {
    name: 'sweep: ms per series issued',
    figure: 'sweepMsPerSeries',
    limit: 40,
    comparator: '<=',
    unit: 'ms',
    timed: true,
  },
  // The index is keyed by the next issue date: series not yet due cost today's sweep nothing.
  {
    name: 'sweep: series read before their date',
    figure: 'seriesReadBeforeTheirDate',
    limit: 0,
    comparator: '==',
    unit: '',
    timed: false,
  },
] as const;
