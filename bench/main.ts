/**
 * `npm run bench`: the performance benchmark of docs/performance.md (not a test: nothing here fails `npm test`).
 *
 * Starts in-memory DynamoDB Local and the local HTTP runtime (bench/server-child.ts, one per table),
 * seeds data, measures latency, database work, the floor (replayed DynamoDB requests), scale and the
 * cold-start proxy, prints a report, writes bench/results/bench-<timestamp>.json and ends with
 * `N budgets met, M missed`. Method and latest figures: docs/performance.md.
 *
 * Env: BENCH_QUICK=1 runs a smaller sample (for developing the bench; figures are noisier);
 * BENCH_SERVER_NODE_OPTIONS passes flags to the server processes (e.g. "--cpu-prof --cpu-prof-dir=prof").
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.LOG_LEVEL ??= 'SILENT';

const SMALL_TABLE = 'bench-1k';
const LARGE_TABLE = 'bench-50k';
process.env.TABLE_NAME = SMALL_TABLE;

const { ensureTable, startDynamoDbLocal } = await import('../infra/local/dynamodb-local.ts');
const { createAccount } = await import('#shared/store/accounts');
const { documentClient } = await import('#shared/store/client');
const { paymentItem } = await import('#shared/store/items');
const { addDays, formatDayFirst, fromEpochSeconds, toEpochSeconds, todayIn } = await import('#shared/domain/dates');
const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
const { ulid } = await import('ulid');
const { httpRequest, destroyAgent } = await import('./http.ts');
const { batchWriteAll, isWriteRequest, prepareReplays, runReplay } = await import('./replay.ts');
const { buildBundles, measureColdStart } = await import('./cold-start.ts');
const stats = await import('./stats.ts');
type CapturedCall = import('./server-child.ts').CapturedCall;
type CalendarDate = import('#shared/domain/dates').CalendarDate;

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const QUICK = process.env.BENCH_QUICK === '1';
const SIZES = {
  historyInvoices: 120,
  seq: QUICK ? 40 : 120, // requests per kind at concurrency 1 (endpoint, and replay)
  conc: QUICK ? 80 : 240, // requests per kind at concurrency 8
  concHistory: QUICK ? 48 : 240, // same sample as writes: at 96 (about 2 s per side) the ratio swung between 0.75 and 0.86
  rounds: QUICK ? 2 : 4, // endpoint and replay blocks are interleaved this many times
  warmup: QUICK ? 30 : 60,
  scaleSamples: QUICK ? 40 : 100,
  coldRuns: QUICK ? 7 : 21,
  captures: 10,
};
const CONCURRENCY = 8;
const runStarted = performance.now();
const log = (line: string) => console.log(line);
const phases: { name: string; startedAtSeconds: number }[] = [];
const phase = (name: string) => {
  const at = Math.round((performance.now() - runStarted) / 100) / 10;
  phases.push({ name, startedAtSeconds: at });
  log(`\n[${at.toFixed(1)} s] ${name}`);
};

// ---------------------------------------------------------------------------------------------------
// Processes

interface ServerChild {
  port: number;
  child: ChildProcess;
}

function startServer(endpoint: string, tableName: string): Promise<ServerChild> {
  const child = fork(path.join(REPO_ROOT, 'bench/server-child.ts'), [], {
    cwd: REPO_ROOT,
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? [])],
    // Production logging (one INFO line per request) stays on; its output goes nowhere.
    env: { ...process.env, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, LOG_LEVEL: 'INFO', AUTH_CACHE_SECONDS: '30', POWERTOOLS_SERVICE_NAME: 'invoicing', POWERTOOLS_METRICS_NAMESPACE: 'Invoicing' },
    // Its stderr carries the handlers' ERROR log lines (e.g. 503s, counted in the statuses); kept for a crash report.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null) console.error(`server child (${tableName}) exited with ${code}:\n${stderr}`);
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { port: number }) => resolve({ port: message.port, child }));
    child.once('exit', (code) => reject(new Error(`server child exited with ${code}: ${stderr}`)));
  });
}

async function stopServer(server: ServerChild): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.send('stop');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------------
// Requests

const mmddyyyy = (d: CalendarDate) => `${String(d.month).padStart(2, '0')}/${String(d.day).padStart(2, '0')}/${d.year}`;
const TODAY = todayIn('Africa/Lagos');
// The history period: a fixed 91-day window in the past, so that the same account has payments both before and after it.
const WINDOW_START = addDays(TODAY, -200);
const WINDOW_END = addDays(TODAY, -110);
const HISTORY_BODY = { period: 'custom', start: formatDayFirst(WINDOW_START), end: formatDayFirst(WINDOW_END), limit: 100 };
const runTag = Date.now().toString(36);
let sequence = 0;
const unique = () => `${runTag}-${++sequence}`;

interface RequestSpec {
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

const auth = (key: string, idempotent: boolean): Record<string, string> => ({
  authorization: `Bearer ${key}`,
  ...(idempotent ? { 'idempotency-key': `bench-${unique()}` } : {}),
});

const newClientInvoice = (key: string): RequestSpec => {
  const id = unique();
  return {
    path: '/invoices',
    headers: auth(key, true),
    body: {
      client: { first_name: 'Ada', last_name: 'Obi', email: `ada.${id}@example.com`, phone: '+2348012345678', company_name: 'Obi Stores' },
      due_date: '12/31/2030',
      fee_bearer: 'client',
      items: [
        { item: 'Website design', description: 'Landing page', unit_cost: '150,000.00', quantity: '1' },
        { item: 'Hosting', description: '12 months', unit_cost: '2,500.00', quantity: 12 },
      ],
    },
  };
};

const clientIdInvoice = (key: string, clientId: number, total = '150,000.00'): RequestSpec => ({
  path: '/invoices',
  headers: auth(key, true),
  body: {
    client_id: clientId,
    due_date: '12/31/2030',
    fee_bearer: 'account',
    items: [
      { item: 'Website design', description: 'Landing page', unit_cost: total, quantity: '1' },
      { item: 'Hosting', description: '12 months', unit_cost: '2,500.00', quantity: 12 },
    ],
  },
});

const payment = (key: string, referenceCode: string, date: CalendarDate, amount = '1.00'): RequestSpec => ({
  path: '/payments',
  headers: auth(key, true),
  body: { reference_code: referenceCode, date: mmddyyyy(date), amount, channel: 'BankTransfer' },
});

const history = (key: string): RequestSpec => ({ path: '/payments/history', headers: auth(key, false), body: HISTORY_BODY });

async function call(port: number, spec: RequestSpec, expected: number) {
  const result = await httpRequest(port, 'POST', spec.path, spec.body, spec.headers);
  if (result.status !== expected) throw new Error(`${spec.path}: expected ${expected}, got ${result.status}: ${result.body.slice(0, 400)}`);
  return { ...result, json: JSON.parse(result.body) as { data: any } };
}

// ---------------------------------------------------------------------------------------------------
// Load generation

interface Run {
  samples: number[];
  elapsedMs: number;
  errors: number;
  statuses: Record<string, number>;
}

/** `count` operations, `concurrency` at a time; `op(i, worker)` resolves to its latency in ms. */
async function drive(count: number, concurrency: number, op: (i: number, worker: number) => Promise<number>): Promise<Run> {
  const samples: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < count) {
        const i = next++;
        try {
          samples.push(await op(i, worker));
        } catch (error) {
          errors++;
          if (errors === 1) console.error(`  first error of this block: ${(error as Error).message.slice(0, 160)}`);
        }
      }
    }),
  );
  return { samples, elapsedMs: performance.now() - started, errors, statuses: {} };
}

function httpOp(port: number, make: (i: number, worker: number) => RequestSpec, expected: number, statuses: Record<string, number>) {
  return async (i: number, worker: number) => {
    const spec = make(i, worker);
    const result = await httpRequest(port, 'POST', spec.path, spec.body, spec.headers);
    statuses[result.status] = (statuses[result.status] ?? 0) + 1;
    if (result.status !== expected) throw new Error(`${spec.path}: ${result.status} ${result.body.slice(0, 200)}`);
    return result.ms;
  };
}

function merge(runs: Run[]): Run {
  const statuses: Record<string, number> = {};
  for (const run of runs) for (const [k, v] of Object.entries(run.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return {
    samples: runs.flatMap((r) => r.samples),
    elapsedMs: runs.reduce((a, r) => a + r.elapsedMs, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    statuses,
  };
}

const describeRun = (run: Run) => ({
  ...stats.summarize(run.samples),
  throughputPerSecond: stats.throughput(run.samples.length, run.elapsedMs),
  errors: run.errors,
  ...(Object.keys(run.statuses).length ? { statuses: run.statuses } : {}),
});

// ---------------------------------------------------------------------------------------------------
// Capture: round trips and consumed capacity per request

interface CapacityEntry {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

const READS = new Set(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand']);
/** Authentication's reads (API key, then account), made once per key per AUTH_CACHE_SECONDS per warm function. */
const isAuthRead = (c: CapturedCall) => {
  const key = (c.input.Key ?? {}) as { PK?: string; SK?: string };
  return c.command === 'GetItemCommand' && (String(key.PK).startsWith('APIKEY#') || key.SK === 'ACCOUNT');
};

/**
 * Id blocks (shared/store/sequences.ts) are refilled inside a request's own read and transaction (one request in
 * BLOCK_SIZE per process reads its sequence item and advances it), so they add no round trip; only the auth
 * reads are amortised outside the request path.
 */
const isAmortised = isAuthRead;

function capacityOf(calls: readonly CapturedCall[]) {
  let rcu = 0;
  let wcu = 0;
  let indexUnits = 0;
  for (const c of calls) {
    const entries = ([] as CapacityEntry[]).concat((c.consumedCapacity as CapacityEntry | CapacityEntry[] | undefined) ?? []);
    for (const e of entries) {
      const units = e.CapacityUnits ?? 0;
      if (READS.has(c.command)) rcu += e.ReadCapacityUnits ?? units;
      else wcu += e.WriteCapacityUnits ?? units;
      for (const gsi of Object.values(e.GlobalSecondaryIndexes ?? {})) indexUnits += gsi.CapacityUnits ?? 0;
    }
  }
  return { rcu, wcu, indexUnits };
}

interface CaptureFigures {
  samples: number;
  roundTrips: { min: number; max: number; commands: string[] };
  authReadsSeen: number;
  rcu: number;
  wcu: number;
  indexUnits: number;
  keysRead: number;
  capacityPerSample: { rcu: number; wcu: number }[];
  template: CapturedCall[];
}

async function capture(port: number, make: () => RequestSpec, expected: number, samples: number): Promise<CaptureFigures> {
  const perSample: CapturedCall[][] = [];
  for (let i = 0; i < samples; i++) {
    await httpRequest(port, 'POST', '/__bench/capture');
    await call(port, make(), expected);
    const calls = JSON.parse((await httpRequest(port, 'GET', '/__bench/capture')).body) as CapturedCall[];
    perSample.push(calls);
  }
  const business = perSample.map((calls) => calls.filter((c) => !isAmortised(c)));
  const counts = business.map((calls) => calls.length);
  const template = business[business.length - 1]!;
  const capacities = business.map(capacityOf);
  const keysRead = template
    .filter((c) => c.command === 'BatchGetItemCommand')
    .reduce((n, c) => n + Object.values(c.input.RequestItems as Record<string, { Keys: unknown[] }>).reduce((m, r) => m + r.Keys.length, 0), 0);
  return {
    samples,
    roundTrips: { min: Math.min(...counts), max: Math.max(...counts), commands: template.map((c) => c.command.replace(/Command$/, '')) },
    authReadsSeen: perSample.reduce((n, calls) => n + calls.filter(isAuthRead).length, 0),
    rcu: Math.max(...capacities.map((c) => c.rcu)),
    wcu: Math.max(...capacities.map((c) => c.wcu)),
    indexUnits: Math.max(...capacities.map((c) => c.indexUnits)),
    keysRead,
    capacityPerSample: capacities.map(({ rcu, wcu }) => ({ rcu, wcu })),
    template,
  };
}

// ---------------------------------------------------------------------------------------------------
// Seeding

let client!: ReturnType<typeof documentClient>;

async function countPayments(tableName: string): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'entity = :payment',
        ExpressionAttributeValues: { ':payment': 'payment' },
        Select: 'COUNT',
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return count;
}

async function copyTable(from: string, to: string): Promise<number> {
  const items: { table: string; item: Record<string, unknown> }[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: from, ...(start ? { ExclusiveStartKey: start } : {}) }));
    for (const item of page.Items ?? []) items.push({ table: to, item });
    start = page.LastEvaluatedKey;
  } while (start);
  await batchWriteAll(client, items, 4);
  return items.length;
}

interface InvoiceRef {
  referenceCode: string;
  invoiceId: number;
  clientId: number;
}

/** Payment items written directly (BatchWriteItem), shaped by the store's own item builder. */
function syntheticPayments(count: number, companyOf: (i: number) => number, dateOf: (i: number) => CalendarDate, invoiceOf: (i: number) => InvoiceRef, firstId: number) {
  const now = '2025-01-01 00:00:00';
  return Array.from({ length: count }, (_, i) => {
    const invoice = invoiceOf(i);
    return {
      table: '',
      item: paymentItem({
        id: firstId + i,
        companyId: companyOf(i),
        clientId: invoice.clientId,
        invoiceId: invoice.invoiceId,
        referenceCode: invoice.referenceCode,
        amountKobo: 100_00,
        currency: 'NGN',
        transactionDate: toEpochSeconds(dateOf(i)),
        channel: 'Cash',
        createdAt: now,
        recordedId: ulid(),
      }),
    };
  });
}

const outsideWindow = (i: number): CalendarDate =>
  i % 2 === 0 ? addDays(WINDOW_START, -1 - (i % 700)) : addDays(WINDOW_END, 1 + (i % 100));

// ---------------------------------------------------------------------------------------------------
// Main

const results: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  quick: QUICK,
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform} ${process.arch}`, loadAverageAtStart: loadavg() },
  sizes: SIZES,
};
const budgets: import('./stats.ts').Budget[] = [];

phase('Starting DynamoDB Local (in memory) and the local HTTP runtime');
const dbStarted = performance.now();
const database = await startDynamoDbLocal();
log(`  DynamoDB Local ready in ${Math.round(performance.now() - dbStarted)} ms`);
const servers: ServerChild[] = [];
let bundleBuild: ReturnType<typeof buildBundles> | undefined;
try {
  await ensureTable(database.endpoint, SMALL_TABLE);
  process.env.DYNAMODB_ENDPOINT = database.endpoint;
  client = documentClient();
  let t = performance.now();
  const small = await startServer(database.endpoint, SMALL_TABLE);
  servers.push(small);
  log(`  runtime process ready in ${Math.round(performance.now() - t)} ms`);
  log(`  DynamoDB Local ${database.endpoint}; runtime for ${SMALL_TABLE} on port ${small.port}`);

  // --- Seed -----------------------------------------------------------------------------------------
  phase('Seeding (and, meanwhile, the CDK synth that builds the cold-start bundles)');
  bundleBuild = buildBundles();
  const historyAccount = await createAccount({ name: 'Bench history' });
  const writer = await createAccount({ name: 'Bench writer' });
  const payers = await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => createAccount({ name: `Bench payer ${k}` })));
  const hKey = historyAccount.secretKey;
  const wKey = writer.secretKey;

  // History account: invoices and in-window payments through the API (real item shapes; doubles as warm-up).
  const first = await call(small.port, newClientInvoice(hKey), 201);
  const hClientId = Number(first.json.data.client.id ?? first.json.data.client_id);
  const hInvoices: InvoiceRef[] = [];
  for (let i = 0; i < SIZES.historyInvoices; i++) {
    const created = await call(small.port, clientIdInvoice(hKey, hClientId), 201);
    hInvoices.push({ referenceCode: created.json.data.reference_code, invoiceId: Number(created.json.data.id), clientId: hClientId });
  }
  // Sequentially: concurrent payments of one account contend on its payment-id sequence (measured below).
  await drive(hInvoices.length, 1, async (i) => {
    const date = addDays(WINDOW_START, i % 91);
    return (await call(small.port, payment(hKey, hInvoices[i]!.referenceCode, date), 201)).ms;
  });
  const inWindow = hInvoices.length;
  // The rest of the 1,000: the same account outside the window, and other accounts.
  const sameOutsideSmall = 380;
  const othersSmall = 1000 - inWindow - sameOutsideSmall;
  const smallSeed = [
    ...syntheticPayments(sameOutsideSmall, () => historyAccount.account.companyId, outsideWindow, (i) => hInvoices[i % hInvoices.length]!, 1_000_000),
    ...syntheticPayments(othersSmall, (i) => 2_000_000 + (i % 200), (i) => addDays(WINDOW_START, i % 200), () => ({ referenceCode: 'NOSUCHINVOICE0000000', invoiceId: 1, clientId: 1 }), 1),
  ].map((p) => ({ ...p, table: SMALL_TABLE }));
  await batchWriteAll(client, smallSeed, 4);
  const smallCount = await countPayments(SMALL_TABLE);

  // The large table: a copy of the small one plus 49,000 payments (same account outside the window, other accounts).
  let seedStarted = performance.now();
  await ensureTable(database.endpoint, LARGE_TABLE);
  const copied = await copyTable(SMALL_TABLE, LARGE_TABLE);
  const extra = 50_000 - smallCount;
  const sameOutsideLarge = Math.floor(extra / 2);
  const largeSeed = [
    ...syntheticPayments(sameOutsideLarge, () => historyAccount.account.companyId, outsideWindow, (i) => hInvoices[i % hInvoices.length]!, 2_000_000),
    ...syntheticPayments(extra - sameOutsideLarge, (i) => 3_000_000 + (i % 500), (i) => addDays(WINDOW_START, (i % 400) - 100), () => ({ referenceCode: 'NOSUCHINVOICE0000000', invoiceId: 1, clientId: 1 }), 1),
  ].map((p) => ({ ...p, table: LARGE_TABLE }));
  await batchWriteAll(client, largeSeed, 4);
  const largeCount = await countPayments(LARGE_TABLE);
  const seedMs = performance.now() - seedStarted;
  log(`  ${SMALL_TABLE}: ${smallCount} payments (${inWindow} of the history account in its window)`);
  log(`  ${LARGE_TABLE}: ${largeCount} payments (copied ${copied} items, BatchWriteItem ${largeSeed.length} in ${(seedMs / 1000).toFixed(1)} s)`);
  results.seed = { smallTable: { payments: smallCount, inWindow }, largeTable: { payments: largeCount }, largeSeedMs: Math.round(seedMs) };
  const large = await startServer(database.endpoint, LARGE_TABLE);
  servers.push(large);

  // Writer account: one client, invoices to pay (totals large enough never to be fully paid).
  const wFirst = await call(small.port, newClientInvoice(wKey), 201);
  const wClientId = Number(wFirst.json.data.client.id ?? wFirst.json.data.client_id);
  const wInvoices: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) wInvoices.push((await call(small.port, clientIdInvoice(wKey, wClientId, '900,000,000.00'), 201)).json.data.reference_code);
  const payerInvoices: { key: string; ref: string }[] = [];
  for (const payer of payers) {
    const inv = await call(small.port, newClientInvoice(payer.secretKey), 201);
    const big = await call(small.port, clientIdInvoice(payer.secretKey, Number(inv.json.data.client.id ?? inv.json.data.client_id), '900,000,000.00'), 201);
    payerInvoices.push({ key: payer.secretKey, ref: big.json.data.reference_code });
  }
  const payDate = addDays(TODAY, -1);

  // --- Endpoints ------------------------------------------------------------------------------------
  const endpoints: { name: string; make: (i: number, worker: number) => RequestSpec; expected: number }[] = [
    { name: 'add invoice (new client)', make: () => newClientInvoice(wKey), expected: 201 },
    { name: 'add invoice (client_id)', make: () => clientIdInvoice(wKey, wClientId), expected: 201 },
    { name: 'add payment', make: (_i, worker) => payment(wKey, wInvoices[worker % wInvoices.length]!, payDate), expected: 201 },
    { name: 'history page of 100', make: () => history(hKey), expected: 200 },
  ];

  await bundleBuild.done.catch(() => undefined); // nothing may compete for the CPU from here on
  phase('Warm-up (JIT of Node and of DynamoDB Local)');
  for (const ep of endpoints) await drive(SIZES.warmup, 4, httpOp(small.port, ep.make, ep.expected, {}));
  await drive(SIZES.warmup, 2, httpOp(large.port, () => history(hKey), 200, {}));

  // --- Scale ----------------------------------------------------------------------------------------
  phase(`Scale: history page with ${smallCount} vs ${largeCount} payments (interleaved, concurrency 1)`);
  const scaleSmall: Run[] = [];
  const scaleLarge: Run[] = [];
  const block = Math.ceil(SIZES.scaleSamples / 10);
  for (let r = 0; r < 10; r++) {
    scaleSmall.push(await drive(block, 1, httpOp(small.port, () => history(hKey), 200, {})));
    scaleLarge.push(await drive(block, 1, httpOp(large.port, () => history(hKey), 200, {})));
  }
  const capSmall = await capture(small.port, () => history(hKey), 200, 3);
  const capLarge = await capture(large.port, () => history(hKey), 200, 3);
  const scale = {
    small: { payments: smallCount, ...describeRun(merge(scaleSmall)), rcu: capSmall.rcu, roundTrips: capSmall.roundTrips.max },
    large: { payments: largeCount, ...describeRun(merge(scaleLarge)), rcu: capLarge.rcu, roundTrips: capLarge.roundTrips.max },
  };
  const scaleRatio = stats.ratio(scale.large.p50, scale.small.p50);
  results.scale = { ...scale, latencyRatioP50: scaleRatio, capacityUnchanged: capSmall.rcu === capLarge.rcu };
  log(`  ${smallCount}: p50 ${scale.small.p50} ms, p99 ${scale.small.p99} ms, ${scale.small.rcu} RCU`);
  log(`  ${largeCount}: p50 ${scale.large.p50} ms, p99 ${scale.large.p99} ms, ${scale.large.rcu} RCU`);
  await stopServer(large);
  servers.pop();

  // --- Per endpoint ---------------------------------------------------------------------------------
  const endpointResults: Record<string, unknown>[] = [];
  for (const ep of endpoints) {
    phase(`Endpoint: ${ep.name}`);
    const captured = await capture(small.port, () => ep.make(0, 0), ep.expected, SIZES.captures);
    const template = { calls: captured.template, write: isWriteRequest(captured.template) };
    const statuses1: Record<string, number> = {};
    const statuses8: Record<string, number> = {};
    const e1: Run[] = [];
    const r1: Run[] = [];
    const e8: Run[] = [];
    const r8: Run[] = [];
    const perRound1 = Math.ceil(SIZES.seq / SIZES.rounds);
    const perRound8 = Math.ceil((ep.name.startsWith('history') ? SIZES.concHistory : SIZES.conc) / SIZES.rounds);
    for (let round = 0; round < SIZES.rounds; round++) {
      const replays1 = await prepareReplays(client, template, perRound1, `${runTag}s${round}-`);
      e1.push(await drive(perRound1, 1, httpOp(small.port, ep.make, ep.expected, statuses1)));
      r1.push(await drive(perRound1, 1, (i) => runReplay(client, replays1[i]!)));
    }
    for (let round = 0; round < SIZES.rounds; round++) {
      const replays8 = await prepareReplays(client, template, perRound8, `${runTag}c${round}-`);
      e8.push(await drive(perRound8, CONCURRENCY, httpOp(small.port, ep.make, ep.expected, statuses8)));
      r8.push(await drive(perRound8, CONCURRENCY, (i) => runReplay(client, replays8[i]!)));
    }
    const c1 = { endpoint: describeRun({ ...merge(e1), statuses: statuses1 }), replay: describeRun(merge(r1)) };
    const c8 = { endpoint: describeRun({ ...merge(e8), statuses: statuses8 }), replay: describeRun(merge(r8)) };
    const overheadP50 = stats.ratio(c1.endpoint.p50, c1.replay.p50);
    const throughputRatio = stats.ratio(c8.endpoint.throughputPerSecond, c8.replay.throughputPerSecond);
    const { template: _t, ...captureFigures } = captured;
    const entry = {
      name: ep.name,
      concurrency1: c1,
      concurrency8: c8,
      overheadRatioP50: overheadP50,
      overheadRatioP50AtConcurrency8: stats.ratio(c8.endpoint.p50, c8.replay.p50),
      throughputRatio,
      database: captureFigures,
      replayedRequests: captured.template.map((c) => ({ command: c.command, elapsedMs: stats.round(c.elapsedMs), consumedCapacity: c.consumedCapacity })),
    };
    endpointResults.push(entry);
    log(`  round trips ${captured.roundTrips.max} (${captured.roundTrips.commands.join(' → ')}), ${captured.rcu} RCU, ${captured.wcu} WCU (index ${captured.indexUnits})`);
    log(`  amortised, not counted above: ${captured.authReadsSeen} auth reads in ${captured.samples} captured requests`);
    log(`  c=1  endpoint p50 ${c1.endpoint.p50} / p99 ${c1.endpoint.p99} ms   replay p50 ${c1.replay.p50} / p99 ${c1.replay.p99} ms   overhead ${overheadP50}`);
    log(`  c=8  endpoint p50 ${c8.endpoint.p50} / p99 ${c8.endpoint.p99} ms, ${c8.endpoint.throughputPerSecond}/s   replay p50 ${c8.replay.p50} / p99 ${c8.replay.p99} ms, ${c8.replay.throughputPerSecond}/s   throughput ratio ${throughputRatio}`);
    if (Object.keys(statuses8).some((s) => s !== String(ep.expected))) log(`  c=8 statuses ${JSON.stringify(statuses8)}`);

    budgets.push({ name: `overhead p50 ${ep.name}`, value: overheadP50, comparator: '<=', limit: 1.15 });
    budgets.push({ name: `throughput c=8 ${ep.name}`, value: throughputRatio, comparator: '>=', limit: 0.8 });
    if (ep.name.startsWith('add invoice')) budgets.push({ name: `round trips ${ep.name}`, value: captured.roundTrips.max, comparator: '<=', limit: 2 });
    if (ep.name === 'add payment') {
      budgets.push({ name: 'round trips add payment', value: captured.roundTrips.max, comparator: '<=', limit: 2 });
      budgets.push({ name: 'WCU add payment (with index and idempotency record)', value: captured.wcu, comparator: '<=', limit: 8 });
    }
    if (ep.name.startsWith('history')) {
      budgets.push({ name: `round trips history (${captured.keysRead} keys)`, value: captured.roundTrips.max, comparator: '<=', limit: stats.historyRoundTripBudget(captured.keysRead) });
    }
  }
  results.endpoints = endpointResults;

  // Diagnostic: add payment at concurrency 8 on 8 different accounts (no shared payment-id sequence).
  phase('Diagnostic: add payment at concurrency 8 across 8 accounts');
  const spread = await drive(Math.ceil(SIZES.conc / 2), CONCURRENCY, httpOp(small.port, (_i, worker) => payment(payerInvoices[worker]!.key, payerInvoices[worker]!.ref, payDate), 201, {}));
  results.addPaymentAcrossAccounts = describeRun(spread);
  log(`  p50 ${stats.summarize(spread.samples).p50} ms, ${stats.throughput(spread.samples.length, spread.elapsedMs)}/s`);

  budgets.push({ name: `history latency ratio ${largeCount}/${smallCount}`, value: scaleRatio, comparator: '<=', limit: 1.2 });
  budgets.push({ name: 'history RCU at 50k minus at 1k', value: capLarge.rcu - capSmall.rcu, comparator: '==', limit: 0, unit: 'RCU' });
} finally {
  for (const server of servers) await stopServer(server).catch(() => undefined);
  destroyAgent();
  client?.destroy();
  await database.stop();
}

// --- Cold start (after DynamoDB Local stopped: nothing else competes for the CPU) ----------------
phase(`Cold-start proxy: bundles built by the CDK stack, import time in fresh Node processes (median of ${SIZES.coldRuns})`);
const cold = await measureColdStart(bundleBuild ?? buildBundles(), SIZES.coldRuns, log);
results.coldStart = cold;
log(`  baseline (document client only): ${cold.baseline.sizeKb} KB (${cold.baseline.gzipKb} KB gzip), import ${cold.baseline.importMedianMs} ms`);
for (const fn of cold.functions) {
  log(`  ${fn.name}: ${fn.sizeKb} KB (${fn.gzipKb} KB gzip), import ${fn.importMedianMs} ms = ${fn.ratioToBaseline} × baseline`);
  budgets.push({ name: `import ${fn.name} ÷ baseline`, value: fn.ratioToBaseline, comparator: '<=', limit: 1.5 });
}

// --- Report ---------------------------------------------------------------------------------------
const evaluated = budgets.map(stats.evaluateBudget);
results.budgets = evaluated;
results.durationSeconds = Math.round((performance.now() - runStarted) / 1000);
results.phases = phases;
results.loadAverageAtEnd = loadavg();
const resultsDir = path.join(REPO_ROOT, 'bench/results');
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
writeFileSync(path.join(resultsDir, 'latest.json'), JSON.stringify(results, null, 2));

phase('Budgets');
for (const r of evaluated) log(`  ${stats.formatBudget(r)}`);
log(`\nRaw figures: ${path.relative(REPO_ROOT, file)} (${results.durationSeconds} s)`);
log(stats.budgetLine(evaluated));
process.exit(0);
