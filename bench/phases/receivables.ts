/**
 * Getting paid (docs/performance.md "Receivables"): what the aging totals cost with 1,000 and with 10,000 open
 * invoices over 365 due dates (the same read units: the totals read a row per due date, not the invoices), a statement
 * of a client with 1,000 lines, a CSV page of 500 payments against its JSON twin, and one account's payment
 * throughput at c=8 on invoices that keep the receivables items against invoices that do not (written before aging:
 * their payments skip those items) — the same code, the same run, interleaved blocks.
 */

import { addDays, formatDayFirst } from '../../shared/domain/dates.ts';
import { createAccount } from '../../shared/store/accounts.ts';
import type { CapturedCall } from '../bench-hooks.ts';
import { machineTime } from '../budgets.ts';
import { capacityOf, capture } from '../capture.ts';
import { SIZES } from '../config.ts';
import type { BenchContext } from '../context.ts';
import { drive, type Run } from '../drive.ts';
import { describeRun, httpOp, merge } from '../load.ts';
import { log } from '../progress.ts';
import { CLIENTS, DUE_DATES, seedLongLedger, seedOpenInvoices, seedPayments } from '../receivables-seeding.ts';
import { call, type RequestSpec, TODAY } from '../requests.ts';
import * as stats from '../stats.ts';
import { throughput } from './receivables-throughput.ts';

const post = (key: string, path: string, body: unknown, accept?: string): RequestSpec => ({
  path,
  headers: { authorization: `Bearer ${key}`, ...(accept ? { accept } : {}) },
  body,
});

/** The query of a captured request on the partition whose key starts with `prefix`. */
const queryOn = (calls: CapturedCall[], prefix: string) =>
  calls.filter(
    (c) =>
      c.command === 'QueryCommand' &&
      String((c.input.ExpressionAttributeValues as Record<string, unknown>)?.[':pk']).startsWith(prefix),
  );

/**
 * p50 over interleaved turns of 10 requests at c=1 (`samples` each: the budgeted ones `SIZES.scaleSamples / 2`), then
 * one captured request's database work.
 */
async function measure(
  ctx: BenchContext,
  requests: Record<string, () => RequestSpec>,
  samples = SIZES.scaleSamples / 2,
) {
  const names = Object.keys(requests);
  for (const name of names) await drive(5, 1, httpOp(ctx.small.port, requests[name]!, 200, {}));
  const runs: Record<string, Run[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let turn = 0; turn < Math.ceil(samples / 10); turn++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(turn + k) % names.length]!;
      runs[name]!.push(await drive(10, 1, httpOp(ctx.small.port, requests[name]!, 200, {})));
    }
  const figures: Record<
    string,
    { run: ReturnType<typeof describeRun>; calls: CapturedCall[]; rcu: number; bytes: number }
  > = {};
  for (const name of names) {
    const captured = await capture(ctx.small, requests[name]!, 200, 1);
    figures[name] = {
      run: describeRun(merge(runs[name]!)),
      calls: captured.template,
      rcu: captured.rcu,
      bytes: captured.responseBytes,
    };
  }
  return figures;
}

/** Requests of each aging variant that no budget judges (its p50 and reads are printed). */
const REPORTED_SAMPLES = 10;

async function aging(ctx: BenchContext) {
  const sizes = SIZES.agingInvoices;
  const keysBySize = new Map<number, string>();
  for (const size of sizes) keysBySize.set(size, await seedOpenInvoices(ctx.endpoint, size));
  const budgeted: Record<string, () => RequestSpec> = {};
  const reported: Record<string, () => RequestSpec> = {};
  for (const size of sizes) {
    const key = keysBySize.get(size)!;
    reported[`${size} totals + client rows`] = () => post(key, '/reports/aging', { limit: 100 });
    budgeted[`${size} totals + open invoices`] = () => post(key, '/reports/aging', { invoices: true, limit: 100 });
  }
  // The client rows' variant has no budget (its reads are reported): a p50 of 10 each, not a budget's 50.
  const figures = { ...(await measure(ctx, budgeted)), ...(await measure(ctx, reported, REPORTED_SAMPLES)) };
  const result: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(figures)) {
    const totals = queryOn(f.calls, 'AGING#');
    const clients = queryOn(f.calls, 'AGINGCLIENT#');
    result[name] = {
      ...f.run,
      totalsRcu: capacityOf(totals).rcu,
      totalsRows: totals.reduce((n, c) => n + (c.count ?? 0), 0),
      clientRowsRead: clients.reduce((n, c) => n + (c.count ?? 0), 0),
      clientRowsRcu: capacityOf(clients).rcu,
      requestRcu: f.rcu,
      roundTrips: f.calls.length,
      responseBytes: f.bytes,
    };
    const r = result[name] as Record<string, number>;
    log(
      `  aging ${name.padEnd(28)} p50 ${r.p50} ms, p99 ${r.p99} ms; totals ${r.totalsRows} rows ${r.totalsRcu} RCU; client rows ${r.clientRowsRead} (${r.clientRowsRcu} RCU); request ${r.requestRcu} RCU, ${r.roundTrips} round trips`,
    );
  }
  const at = (size: number, what: string) => result[`${size} ${what}`] as Record<string, number>;
  ctx.budgets.push({
    name: `aging totals RCU, ${sizes[1]} ÷ ${sizes[0]} open invoices over ${DUE_DATES} due dates (flat)`,
    value: stats.ratio(
      at(sizes[1]!, 'totals + open invoices').totalsRcu!,
      at(sizes[0]!, 'totals + open invoices').totalsRcu!,
    ),
    comparator: '<=',
    limit: 1,
  });
  ctx.budgets.push({
    name: `aging with open invoices (limit 100) p50, ${sizes[1]} ÷ ${sizes[0]} open invoices`,
    value: stats.ratio(at(sizes[1]!, 'totals + open invoices').p50!, at(sizes[0]!, 'totals + open invoices').p50!),
    comparator: '<=',
    limit: 1.5,
  });
  return result;
}

async function statement(ctx: BenchContext) {
  const { account, secretKey: key } = await createAccount({ name: 'Bench statement' });
  const client = { first_name: 'Long', last_name: 'Ledger', email: 'ledger@example.com', phone: '+2348012345678' };
  const clientId = Number((await call(ctx.small.port, post(key, '/clients', client), 201)).json.data.id);
  await seedLongLedger(ctx.endpoint, account.companyId, clientId, 1_000);
  const body = { period: 'custom', start: formatDayFirst(addDays(TODAY, -365)), end: formatDayFirst(TODAY) };
  const path = `/clients/${clientId}/statement`;
  const figures = await measure(ctx, { statement: () => post(key, path, body) });
  const f = figures.statement!;
  const ledger = queryOn(f.calls, 'LEDGER#');
  const lines = (await call(ctx.small.port, post(key, path, body), 200)).json.data.lines.length;
  const result = {
    ...f.run,
    lines,
    ledgerRcu: capacityOf(ledger).rcu,
    requestRcu: f.rcu,
    roundTrips: f.calls.length,
    responseBytes: f.bytes,
  };
  log(
    `  statement of ${lines} lines: p50 ${result.p50} ms, p99 ${result.p99} ms; ledger ${result.ledgerRcu} RCU; request ${result.requestRcu} RCU, ${result.roundTrips} round trips, ${result.responseBytes} bytes`,
  );
  ctx.budgets.push({
    name: `statement of ${lines} lines p50 c=1`,
    value: result.p50,
    comparator: '<=',
    limit: STATEMENT_P50_BUDGET_MS,
    scale: machineTime(STATEMENT_P50_BUDGET_MS),
    unit: 'ms',
  });
  return result;
}

/**
 * Budgets set from the first runs on this 2-core machine (docs/performance.md "Receivables"): they guard the shape —
 * one Query of the client's ledger, reads that do not grow with the account — not AWS latency.
 */
const STATEMENT_P50_BUDGET_MS = 250;

async function csvPage(ctx: BenchContext) {
  const body = {
    period: 'custom',
    start: formatDayFirst(addDays(TODAY, -365)),
    end: formatDayFirst(TODAY),
    limit: 500,
  };
  const key = await seedPayments(ctx.endpoint, ctx.small.port, 500);
  const figures = await measure(ctx, {
    json: () => post(key, '/payments/history', body),
    csv: () => post(key, '/payments/history', body, 'text/csv'),
  });
  const rows = (await call(ctx.small.port, post(key, '/payments/history', body), 200)).json.data.payments.length;
  const json = figures.json!;
  const csv = figures.csv!;
  const side = (f: typeof json) => ({ ...f.run, bytes: f.bytes, rcu: f.rcu, roundTrips: f.calls.length });
  const result = { rows, json: side(json), csv: side(csv) };
  log(
    `  page of ${rows} payments: JSON p50 ${json.run.p50} ms (${json.bytes} bytes, ${json.calls.length} round trips, ${json.rcu} RCU), CSV p50 ${csv.run.p50} ms (${csv.bytes} bytes, ${csv.calls.length} round trips, ${csv.rcu} RCU)`,
  );
  ctx.budgets.push({
    name: `CSV page of ${rows} payments p50 ÷ its JSON twin`,
    value: stats.ratio(csv.run.p50, json.run.p50),
    comparator: '<=',
    limit: 1.25,
  });
  return result;
}

/** BENCH_RECEIVABLES=aging,statement,csv,throughput picks parts (bench/receivables.ts; the full bench runs all). */
const PARTS = { aging, statement, csv: csvPage, throughput } as const;

export async function run(ctx: BenchContext): Promise<void> {
  ctx.phase(
    `Receivables: aging (${SIZES.agingInvoices.join(' and ')} open invoices, ${DUE_DATES} due dates, ${CLIENTS} clients), a statement, CSV, payments with and without`,
  );
  const asked = process.env.BENCH_RECEIVABLES?.split(',') ?? Object.keys(PARTS);
  const figures: Record<string, unknown> = {};
  for (const [name, part] of Object.entries(PARTS)) if (asked.includes(name)) figures[name] = await part(ctx);
  ctx.results.receivables = figures;
}
