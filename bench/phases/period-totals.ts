/**
 * What a year's summary costs (docs/api.md "Payment history and pagination", docs/data-design.md "Period totals"). Payment history carries the totals of its whole range, read
 * beside the page with one consistent Query of the account's day rows (8 shards a day, shared/store/period-totals.ts).
 * An account with a row for every shard of 366 days (written directly, as the seeding does) and a few payments
 * through the API; `limit` 1 so that the page is one payment and the summary is most of the work. Three ranges in
 * interleaved turns at c=1: `today` (8 rows), `year` (1 January to today) and a custom range of 366 days (the most
 * a range can span: 2,928 rows). The read units of the totals Query are captured from inside the runtime.
 */

import { addDays, daysInclusive, formatDayFirst, toIsoDate } from '../../shared/domain/dates.ts';
import { TOTALS_SHARDS, type Totals } from '../../shared/domain/period-totals.ts';
import { createAccount } from '../../shared/store/accounts.ts';
import { dayTotalsItem } from '../../shared/store/period-totals.ts';
import type { CapturedCall } from '../bench-hooks.ts';
import { machineTime } from '../budgets.ts';
import { capacityOf, capture } from '../capture.ts';
import { SIZES, SMALL_TABLE } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive, type Run } from '../drive.ts';
import { describeRun, httpOp, merge } from '../load.ts';
import { log } from '../progress.ts';
import { batchWriteAll } from '../replay.ts';
import { call, clientIdInvoice, newClientInvoice, payment, type RequestSpec, TODAY } from '../requests.ts';
import { seedingClient } from '../seeding.ts';
import * as stats from '../stats.ts';

const DAYS = 366;
/** A day's row as a busy account's looks: payments in two channels, one reversal. */
const ROW_TOTALS: Totals = {
  count: 41,
  totalKobo: 12_345_600,
  byChannelKobo: { Cash: 2_345_600, BankTransfer: 10_000_000, POS: 0, Cheque: 0, Card: 0, USSD: 0, Other: 0 },
  reversedCount: 1,
  reversedTotalKobo: 50_000,
};
/**
 * The year summary's p50 at c=1 on this 2-core machine, at most (docs/performance.md "What a year's summary costs").
 * Two quick runs on a loaded machine measured 115 and 65 ms; the totals Query took 65–81 ms of DynamoDB Local in a
 * captured request (2,632 rows, one page). The budget guards the shape — one Query page of the account's day rows — against, for
 * instance, a Query per day (329 sequential round trips of 2–5 ms each) or a summary that reads payments; it is no
 * promise about AWS latency. To be revisited with the next full run on an idle machine.
 */
const YEAR_P50_BUDGET_MS = 150;

const historyOf = (key: string, body: Record<string, unknown>): RequestSpec => ({
  path: '/payments/history',
  headers: { authorization: `Bearer ${key}` },
  body: { ...body, limit: 1 },
});

/** The account, its 366 × 8 day rows, then a few payments through the API (their ADDs land on those rows). */
async function seedYear(ctx: BenchContext) {
  const created = await createAccount({ name: 'Bench year summary' });
  const companyId = created.account.companyId;
  const first = addDays(TODAY, -(DAYS - 1));
  const rows = Array.from({ length: DAYS * TOTALS_SHARDS }, (_, n) => ({
    table: SMALL_TABLE,
    item: dayTotalsItem(
      companyId,
      toIsoDate(addDays(first, Math.floor(n / TOTALS_SHARDS))),
      n % TOTALS_SHARDS,
      ROW_TOTALS,
    ),
  }));
  const client = seedingClient(ctx.endpoint);
  try {
    await batchWriteAll(client, rows, 4);
  } finally {
    client.destroy();
  }
  const key = created.secretKey;
  const invoice = await call(ctx.small.port, newClientInvoice(key), 201);
  const clientId = Number(invoice.json.data.client.id ?? invoice.json.data.client_id);
  for (let d = 0; d < 3; d++) {
    const ref = (await call(ctx.small.port, clientIdInvoice(key, clientId), 201)).json.data.reference_code;
    await call(ctx.small.port, payment(key, ref, addDays(TODAY, -d)), 201);
  }
  return {
    key,
    rows: rows.length,
    rowBytes: Math.max(...rows.map((r) => stats.dynamoItemBytes(r.item))),
    ranges: {
      today: { period: 'today' },
      year: { period: 'year' },
      [`${DAYS} days`]: { period: 'custom', start: formatDayFirst(first), end: formatDayFirst(TODAY) },
    } as Record<string, Record<string, unknown>>,
    yearDays: daysInclusive({ ...TODAY, month: 1, day: 1 }, TODAY),
  };
}

/** The totals Query among a request's captured calls (its key is the account's TOTALS# partition). */
const totalsQuery = (calls: CapturedCall[]) =>
  calls.find(
    (c) =>
      c.command === 'QueryCommand' &&
      String((c.input.ExpressionAttributeValues as Record<string, unknown>)?.[':pk']).startsWith('TOTALS#'),
  );

/** Each range's latency, and its totals Query's rows, RCU and time from one captured request. */
async function figuresOf(
  ctx: BenchContext,
  names: string[],
  request: (name: string) => () => RequestSpec,
  runs: Record<string, Run[]>,
  rowBytes: number,
) {
  const figures: Record<string, Record<string, unknown>> = {};
  for (const name of names) {
    const captured = await capture(ctx.small, request(name), 200, 1);
    const query = totalsQuery(captured.template);
    const rows = query?.count ?? Number.NaN;
    const rcu = query ? capacityOf([query]).rcu : Number.NaN;
    const summary = await call(ctx.small.port, request(name)(), 200);
    figures[name] = {
      ...describeRun(merge(runs[name]!)),
      totalsRows: rows,
      totalsRcu: rcu,
      totalsRcuBound: stats.consistentQueryRcu(rows, rowBytes),
      totalsQueryMs: query ? stats.round(query.elapsedMs) : Number.NaN,
      requestRcu: captured.rcu,
      roundTrips: captured.roundTrips.max,
      summaryCount: summary.json.data.summary?.count,
    };
  }
  return figures;
}

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(`Period totals: what a year's summary costs (${DAYS} days × ${TOTALS_SHARDS} day rows, c=1)`);
  const seeded = await seedYear(ctx);
  const names = Object.keys(seeded.ranges);
  const request = (name: string) => () => historyOf(seeded.key, seeded.ranges[name]!);
  for (const name of names) await drive(10, 1, httpOp(ctx.small.port, request(name), 200, {}));
  const runs: Record<string, Run[]> = Object.fromEntries(names.map((n) => [n, []]));
  // Turns of 10 requests, the ranges in rotating order, so that all meet the same moments of DynamoDB Local.
  for (let turn = 0; turn < Math.ceil(SIZES.summarySamples / 10); turn++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(turn + k) % names.length]!;
      runs[name]!.push(await drive(10, 1, httpOp(ctx.small.port, request(name), 200, {})));
    }
  const figures = await figuresOf(ctx, names, request, runs, seeded.rowBytes);
  ctx.results.periodTotals = {
    account: { dayRows: seeded.rows, rowBytes: seeded.rowBytes, yearDays: seeded.yearDays },
    ranges: figures,
  };
  log(
    `  ${seeded.rows} day rows of at most ${seeded.rowBytes} bytes (DynamoDB's item size); year = ${seeded.yearDays} days`,
  );
  for (const name of names) {
    const f = figures[name]!;
    log(
      `  ${name.padEnd(9)} p50 ${f.p50} ms, p99 ${f.p99} ms; totals Query ${f.totalsRows} rows, ${f.totalsRcu} RCU (bound ${f.totalsRcuBound}), ${f.totalsQueryMs} ms in the captured request; whole request ${f.requestRcu} RCU, ${f.roundTrips} round trips; summary count ${f.summaryCount}`,
    );
  }
  pushBudgets(ctx, figures, seeded.rowBytes);
}

/** The year's p50, and each long range's totals RCU against its bound. */
function pushBudgets(ctx: BenchContext, figures: Record<string, Record<string, unknown>>, rowBytes: number): void {
  const year = figures.year!;
  const widest = figures[`${DAYS} days`]!;
  ctx.budgets.push({
    name: 'year summary p50 c=1 (history, period year, limit 1)',
    value: year.p50 as number,
    comparator: '<=',
    limit: YEAR_P50_BUDGET_MS,
    scale: machineTime(YEAR_P50_BUDGET_MS),
    unit: 'ms',
  });
  for (const [name, f] of [
    ['year', year],
    [`${DAYS}-day`, widest],
  ] as const)
    ctx.budgets.push({
      // A consistent Query reads the sum of its items' sizes, rounded up to 4 KB: 1 RCU per 4 KB of rows.
      name: `${name} summary totals Query RCU (${f.totalsRows} rows of ≤ ${rowBytes} bytes, consistent)`,
      value: f.totalsRcu as number,
      comparator: '<=',
      limit: f.totalsRcuBound as number,
      unit: 'RCU',
    });
}
