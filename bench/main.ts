/**
 * `npm run bench`: the performance benchmark of docs/performance.md (not a test: nothing here fails `npm test`).
 *
 * Starts in-memory DynamoDB Local, the local HTTP runtime (bench/server-child.ts, one per table) and the floor
 * (bench/floor-child.ts: a process set up like the runtime that replays each endpoint's captured DynamoDB
 * requests), seeds data, and measures each endpoint against its floor in interleaved blocks: latency (p50, p99)
 * at concurrency 1, throughput and p99 at concurrency 8, our CPU per request, the database work, pages by bytes,
 * many tenants, scale and the cold-start proxy. Each ratio is the median of the blocks, printed with their range.
 * Prints a report, writes bench/results/bench-<timestamp>.json and ends with `N budgets met, M missed`.
 * Method and latest figures: docs/performance.md.
 *
 * Env: BENCH_QUICK=1 runs smaller blocks (for developing the bench; figures are noisier);
 * BENCH_BLOCKS=<n> sets the number of interleaved blocks (default 4, at least 3);
 * BENCH_SERVER_NODE_OPTIONS passes flags to the server processes (e.g. "--cpu-prof --cpu-prof-dir=prof").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { CONCURRENCY, LARGE_TABLE, QUICK, REPO_ROOT, SIZES, SMALL_TABLE } from './config.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.LOG_LEVEL ??= 'SILENT';

process.env.TABLE_NAME = SMALL_TABLE;

const { ensureTable, startDynamoDbLocal } = await import('../infra/local/dynamodb-local.ts');
const { documentClient } = await import('../shared/store/dynamodb-client.ts');
const { MAX_PAGE_BYTES } = await import('../shared/domain/page-size.ts');
const { destroyAgent } = await import('./http.ts');
const { describeRun, httpOp, measured, measuredBlock, merge } = await import('./load.ts');
const { checkFloor, floorTemplate, prepareFloor, runFloor, runFloorBlock, withoutOutboxItems } = await import(
  './floor.ts'
);
const { capture } = await import('./capture.ts');
const { log, startProgress } = await import('./progress.ts');
const { createAccounts, seedPages, seedTables, seedWrites } = await import('./seeding.ts');
const { compare, explanation } = await import('./compare.ts');
const { startChild, startFloor, startServer, stopChild } = await import('./processes.ts');
const { call, clientIdInvoice, history, historyPage, newClientInvoice, payment } = await import('./requests.ts');
const { drive } = await import('./drive.ts');
const { buildBundles, measureColdStart } = await import('./cold-start.ts');
const stats = await import('./stats.ts');
type CaptureFigures = import('./capture.ts').CaptureFigures;
type Child = import('./processes.ts').Child;
type RequestSpec = import('./requests.ts').RequestSpec;
type Run = import('./drive.ts').Run;
type SideFigures = import('./stats.ts').SideFigures;
type PairFigures = import('./stats.ts').PairFigures;
type Spread = import('./stats.ts').Spread;

const progress = startProgress();
const { runStarted, phases, phase } = progress;

// ---------------------------------------------------------------------------------------------------
// Main

let client!: ReturnType<typeof documentClient>;

const results: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  quick: QUICK,
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    loadAverageAtStart: loadavg(),
  },
  sizes: SIZES,
};
const budgets: import('./stats.ts').Budget[] = [];
/** One line per endpoint for the markdown table printed at the end (docs/performance.md). */
const tableRows: string[] = [];

phase('Starting DynamoDB Local (in memory), the local HTTP runtime and the floor process');
const dbStarted = performance.now();
const database = await startDynamoDbLocal();
measured.dynamoDbLocalPid = database.process.pid;
log(`  DynamoDB Local ready in ${Math.round(performance.now() - dbStarted)} ms`);
const children: Child[] = [];
let bundleBuild: ReturnType<typeof buildBundles> | undefined;
try {
  await ensureTable(database.endpoint, SMALL_TABLE);
  process.env.DYNAMODB_ENDPOINT = database.endpoint;
  client = documentClient();
  const t = performance.now();
  const small = await startServer(database.endpoint, SMALL_TABLE);
  children.push(small);
  const floor = await startFloor(database.endpoint, SMALL_TABLE);
  children.push(floor);
  measured.server = small;
  measured.floor = floor;
  log(`  runtime and floor processes ready in ${Math.round(performance.now() - t)} ms`);
  log(`  DynamoDB Local ${database.endpoint}; runtime for ${SMALL_TABLE} on port ${small.port}`);

  // --- Seed -----------------------------------------------------------------------------------------
  phase('Seeding (and, meanwhile, the CDK synth that builds the cold-start bundles)');
  bundleBuild = buildBundles();
  const accounts = await createAccounts();
  const hKey = accounts.history.secretKey;
  const wKey = accounts.writer.secretKey;
  const pKey = accounts.pages.secretKey;
  const { smallCount, largeCount } = await seedTables(client, database.endpoint, small.port, accounts.history, results);
  const large = await startServer(database.endpoint, LARGE_TABLE);
  children.push(large);
  const { wClientId, wInvoices, payerInvoices, payDate } = await seedWrites(
    small.port,
    accounts.writer,
    accounts.payers,
  );
  await seedPages(small.port, pKey);

  // --- Endpoints ------------------------------------------------------------------------------------
  // One entry per row of the report. A row such as "add payment (with events)" is one more entry whose
  // `make` pays with an account that has a webhook endpoint set: the floor replays whatever DynamoDB requests
  // the captured request made (an outbox write included), so the row shows what events cost beyond the floor.
  interface EndpointDef {
    name: string;
    make: (i: number, worker: number) => RequestSpec;
    expected: number;
    /** Our CPU per request (runtime minus floor, concurrency 1), ms. */
    cpuBudgetMs: number;
    roundTripBudget: (captured: CaptureFigures) => number;
    wcuBudget?: number;
  }
  const endpoints: EndpointDef[] = [
    {
      name: 'add invoice (new client)',
      make: () => newClientInvoice(wKey),
      expected: 201,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
    },
    {
      name: 'add invoice (client_id)',
      make: () => clientIdInvoice(wKey, wClientId),
      expected: 201,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
    },
    {
      name: 'add payment',
      make: (_i, worker) => payment(wKey, wInvoices[worker % wInvoices.length]!, payDate),
      expected: 201,
      cpuBudgetMs: 2,
      roundTripBudget: () => 2,
      wcuBudget: 8,
    },
    {
      name: 'history page of 100',
      make: () => history(hKey),
      expected: 200,
      cpuBudgetMs: 5,
      roundTripBudget: (c) => stats.historyRoundTripBudget(c.keysRead),
    },
  ];

  await bundleBuild.done.catch(() => undefined); // nothing may compete for the CPU from here on
  phase('Warm-up (JIT of Node and of DynamoDB Local)');
  for (const ep of endpoints) await drive(SIZES.warmup, 4, httpOp(small.port, ep.make, ep.expected, {}));
  await drive(
    SIZES.warmup,
    2,
    httpOp(large.port, () => history(hKey), 200, {}),
  );

  // --- Scale ----------------------------------------------------------------------------------------
  phase(`Scale: history page with ${smallCount} vs ${largeCount} payments (interleaved, concurrency 1)`);
  const scaleSmall: Run[] = [];
  const scaleLarge: Run[] = [];
  const block = Math.ceil(SIZES.scaleSamples / 10);
  for (let r = 0; r < 10; r++) {
    scaleSmall.push(
      await drive(
        block,
        1,
        httpOp(small.port, () => history(hKey), 200, {}),
      ),
    );
    scaleLarge.push(
      await drive(
        block,
        1,
        httpOp(large.port, () => history(hKey), 200, {}),
      ),
    );
  }
  const capSmall = await capture(small, () => history(hKey), 200, 3);
  const capLarge = await capture(large, () => history(hKey), 200, 3);
  const scale = {
    small: {
      payments: smallCount,
      ...describeRun(merge(scaleSmall)),
      rcu: capSmall.rcu,
      roundTrips: capSmall.roundTrips.max,
    },
    large: {
      payments: largeCount,
      ...describeRun(merge(scaleLarge)),
      rcu: capLarge.rcu,
      roundTrips: capLarge.roundTrips.max,
    },
  };
  const scaleRatio = stats.ratio(scale.large.p50, scale.small.p50);
  results.scale = { ...scale, latencyRatioP50: scaleRatio, capacityUnchanged: capSmall.rcu === capLarge.rcu };
  log(`  ${smallCount}: p50 ${scale.small.p50} ms, p99 ${scale.small.p99} ms, ${scale.small.rcu} RCU`);
  log(`  ${largeCount}: p50 ${scale.large.p50} ms, p99 ${scale.large.p99} ms, ${scale.large.rcu} RCU`);
  await stopChild(large);
  children.splice(children.indexOf(large), 1);

  // --- The HTTP hop alone ----------------------------------------------------------------------------
  // Part of "our time" is the local runtime's HTTP server and the load generator's client, which Lambda replaces
  // with API Gateway: measured alone (an empty route, a write-sized body) so the report can separate it.
  phase('HTTP hop alone (empty route of the local runtime, concurrency 1)');
  await drive(
    50,
    1,
    httpOp(small.port, () => ({ path: '/__bench/hop', headers: {}, body: payment(wKey, 'X', payDate).body }), 200, {}),
  );
  const hop = await measuredBlock('endpoint', () =>
    drive(
      SIZES.perBlock1 * 2,
      1,
      httpOp(
        small.port,
        () => ({ path: '/__bench/hop', headers: {}, body: payment(wKey, 'X', payDate).body }),
        200,
        {},
      ),
    ),
  );
  results.httpHop = hop.figures;
  log(
    `  p50 ${stats.round(hop.figures.p50)} ms, mean ${stats.round(hop.figures.meanMs)} ms; runtime CPU ${stats.round(hop.figures.processCpuMs)} ms and load generator CPU ${stats.round(hop.figures.loadGeneratorCpuMs)} ms per request`,
  );

  // --- Per endpoint ---------------------------------------------------------------------------------
  const endpointResults: Record<string, unknown>[] = [];
  const singleAccountPayment: { throughput?: Spread } = {};
  for (const ep of endpoints) {
    phase(`Endpoint: ${ep.name} (${SIZES.blocks} interleaved blocks per concurrency)`);
    const captured = await capture(small, () => ep.make(0, 0), ep.expected, SIZES.captures);
    const template = floorTemplate(captured.template);
    const floorCheck = await checkFloor(template, captured.template, `k${endpointResults.length}`);
    // The floor process's JIT
    await runFloor(template, SIZES.floorWarmup, 4, `w${endpointResults.length}`, ep.make, captured.responseBytes);
    const c1 = await compare({
      port: small.port,
      make: ep.make,
      expected: ep.expected,
      template,
      responseBytes: captured.responseBytes,
      concurrency: 1,
      perBlock: SIZES.perBlock1,
      tag: `s${endpointResults.length}`,
    });
    const c8 = await compare({
      port: small.port,
      make: ep.make,
      expected: ep.expected,
      template,
      responseBytes: captured.responseBytes,
      concurrency: CONCURRENCY,
      perBlock: SIZES.perBlock8,
      tag: `c${endpointResults.length}`,
    });
    const why1 = explanation(c1);
    const why8 = explanation(c8);
    const { template: _t, responseBytes: _r, ...captureFigures } = captured;
    endpointResults.push({
      name: ep.name,
      database: captureFigures,
      concurrency1: c1,
      concurrency8: c8,
      explanation: { concurrency1: why1, concurrency8: why8 },
      floorCheck,
      replayedRequests: captured.template.map((c) => ({
        command: c.command,
        elapsedMs: stats.round(c.elapsedMs),
        consumedCapacity: c.consumedCapacity,
      })),
    });
    if (ep.name === 'add payment')
      singleAccountPayment.throughput = stats.spreadOf(
        c8.blocks.map((b) => b.endpoint.throughputPerSecond),
        1,
      );
    const f = stats.formatSpread;
    log(
      `  round trips ${captured.roundTrips.max} (${captured.roundTrips.commands.join(' → ')}), ${captured.rcu} RCU, ${captured.wcu} WCU (index ${captured.indexUnits})`,
    );
    log(
      `  amortised, not counted above: ${captured.authReadsSeen} auth reads in ${captured.samples} captured requests`,
    );
    log(`  floor check: ${floorCheck.line}`);
    log(
      `  c=1  endpoint p50 ${c1.endpoint.p50} / p99 ${c1.endpoint.p99} ms   floor p50 ${c1.floor.p50} / p99 ${c1.floor.p99} ms   ratio p50 ${f(c1.p50Ratio)}, p99 ${f(c1.p99Ratio)}`,
    );
    log(
      `       CPU per request: runtime ${c1.endpoint.processCpuMs} ms, floor ${c1.floor.processCpuMs} ms → ours ${f(c1.ourCpuMs)} ms`,
    );
    log(`       ${why1.line}${why1.verdicts.map((v) => `\n       ${v}`).join('')}`);
    log(
      `  c=8  endpoint ${c8.endpoint.throughputPerSecond}/s, p99 ${c8.endpoint.p99} ms   floor ${c8.floor.throughputPerSecond}/s, p99 ${c8.floor.p99} ms   ratio throughput ${f(c8.throughputRatio)}, p99 ${f(c8.p99Ratio)}`,
    );
    log(
      `       CPU per request: runtime ${c8.endpoint.processCpuMs} ms, floor ${c8.floor.processCpuMs} ms → ours ${f(c8.ourCpuMs)} ms`,
    );
    log(`       ${why8.line}${why8.verdicts.map((v) => `\n       ${v}`).join('')}`);
    if (Object.keys(c8.statuses).some((s) => s !== String(ep.expected)))
      log(`  c=8 statuses ${JSON.stringify(c8.statuses)}`);

    budgets.push({
      name: `overhead p50 c=1 ${ep.name}`,
      value: c1.p50Ratio.median,
      spread: c1.p50Ratio,
      comparator: '<=',
      limit: 1.15,
    });
    budgets.push({
      name: `overhead p99 c=1 ${ep.name}`,
      value: c1.p99Ratio.median,
      spread: c1.p99Ratio,
      comparator: '<=',
      limit: 1.25,
    });
    budgets.push({
      name: `throughput c=8 ${ep.name}`,
      value: c8.throughputRatio.median,
      spread: c8.throughputRatio,
      comparator: '>=',
      limit: 0.85,
    });
    budgets.push({
      name: `tail p99 c=8 ${ep.name}`,
      value: c8.p99Ratio.median,
      spread: c8.p99Ratio,
      comparator: '<=',
      limit: 1.3,
    });
    budgets.push({
      name: `our CPU per request ${ep.name}`,
      value: c1.ourCpuMs.median,
      spread: c1.ourCpuMs,
      comparator: '<=',
      limit: ep.cpuBudgetMs,
      unit: 'ms',
    });
    budgets.push({
      name: `round trips ${ep.name}`,
      value: captured.roundTrips.max,
      comparator: '<=',
      limit: ep.roundTripBudget(captured),
    });
    if (ep.wcuBudget !== undefined)
      budgets.push({
        name: `WCU ${ep.name} (with index and idempotency record)`,
        value: captured.wcu,
        comparator: '<=',
        limit: ep.wcuBudget,
      });
    const capacity = [captured.rcu ? `${captured.rcu} RCU` : '', captured.wcu ? `${captured.wcu} WCU` : '']
      .filter(Boolean)
      .join(', ');
    tableRows.push(
      `| ${ep.name} | ${captured.roundTrips.max} | ${capacity} | ${c1.endpoint.p50} (${c1.floor.p50}) | ${f(c1.p50Ratio)} | ${f(c1.p99Ratio)} | ` +
        `${c8.endpoint.throughputPerSecond}/s (${c8.floor.throughputPerSecond}) | ${f(c8.throughputRatio)} | ${f(c8.p99Ratio)} | ${f(c1.ourCpuMs)} ms |`,
    );
  }
  results.endpoints = endpointResults;

  // --- What webhook events cost a payment ----------------------------------------------------------
  // Every payment's transaction carries its outbox event items (docs/webhooks.md). The floor replays the captured
  // transaction with and without them, in interleaved blocks: the difference is what events cost DynamoDB.
  phase(
    `Webhook events: a payment's transaction with its outbox items vs without (floor, c=1, ${SIZES.blocks} blocks)`,
  );
  const paymentEndpoint = endpoints.find((ep) => ep.name === 'add payment')!;
  const paymentCapture = await capture(small, () => paymentEndpoint.make(0, 0), 201, SIZES.captures);
  const withEvents = floorTemplate(paymentCapture.template);
  const withoutEvents = floorTemplate(withoutOutboxItems(paymentCapture.template));
  const eventsCapacity = {
    with: (await checkFloor(withEvents, paymentCapture.template, 'ev-with')).floor,
    without: (await checkFloor(withoutEvents, paymentCapture.template, 'ev-without')).floor,
  };
  const eventRatios: number[] = [];
  const eventMs: number[] = [];
  for (let b = 0; b < SIZES.blocks; b++) {
    await prepareFloor(`evw${b}`, withEvents, SIZES.perBlock1, paymentCapture.responseBytes);
    await prepareFloor(`evn${b}`, withoutEvents, SIZES.perBlock1, paymentCapture.responseBytes);
  }
  for (let b = 0; b < SIZES.blocks; b++) {
    const replay = (key: string) => () =>
      measuredBlock('floor', () => runFloorBlock(key, 1, SIZES.perBlock1, paymentEndpoint.make));
    const runWith = replay(`evw${b}`);
    const runWithout = replay(`evn${b}`);
    // Alternate which side goes first, as the endpoint blocks do.
    const first = await (b % 2 === 0 ? runWith : runWithout)();
    const second = await (b % 2 === 0 ? runWithout : runWith)();
    const [withBlock, withoutBlock] = b % 2 === 0 ? [first, second] : [second, first];
    eventRatios.push(stats.ratio(withBlock.figures.p50, withoutBlock.figures.p50));
    eventMs.push(withBlock.figures.p50 - withoutBlock.figures.p50);
  }
  const eventsCost = {
    wcuWith: eventsCapacity.with.wcu,
    wcuWithout: eventsCapacity.without.wcu,
    indexUnitsWith: eventsCapacity.with.indexUnits,
    indexUnitsWithout: eventsCapacity.without.indexUnits,
    p50Ratio: stats.spreadOf(eventRatios, 3),
    p50ExtraMs: stats.spreadOf(eventMs, 2),
  };
  results.webhookEvents = eventsCost;
  log(
    `  capacity: ${eventsCost.wcuWith} WCU (index ${eventsCost.indexUnitsWith}) with events, ${eventsCost.wcuWithout} WCU (index ${eventsCost.indexUnitsWithout}) without`,
  );
  log(
    `  latency p50 with ÷ without ${stats.formatSpread(eventsCost.p50Ratio)}, ${stats.formatSpread(eventsCost.p50ExtraMs)} ms more per payment`,
  );

  // --- The local runtime's durability barrier ------------------------------------------------------------
  // `npm start` holds each write's answer until DynamoDB Local made it durable (docs/guarantees.md): one
  // consistent GetItem after each transaction. A second runtime process with the barrier, interleaved blocks.
  phase(`Durability barrier of npm start: add payment at c=1 with vs without (${SIZES.blocks} interleaved blocks)`);
  const withBarrier = await startChild('bench/server-child.ts', database.endpoint, SMALL_TABLE, {
    BENCH_DURABILITY_BARRIER: '1',
  });
  children.push(withBarrier);
  const barrierRatios: number[] = [];
  const barrierMs: number[] = [];
  const payOnce = (port: number) => () =>
    drive(
      SIZES.perBlock1,
      1,
      httpOp(port, () => payment(wKey, wInvoices[0]!, payDate), 201, {}),
    );
  for (let w = 0; w < 2; w++) await payOnce(withBarrier.port)(); // warm the new process
  for (let b = 0; b < SIZES.blocks; b++) {
    const runWith = payOnce(withBarrier.port);
    const runWithout = payOnce(small.port);
    const first = await (b % 2 === 0 ? runWith : runWithout)();
    const second = await (b % 2 === 0 ? runWithout : runWith)();
    const [withRun, withoutRun] = b % 2 === 0 ? [first, second] : [second, first];
    const [p50With, p50Without] = [stats.median(withRun.samples), stats.median(withoutRun.samples)];
    barrierRatios.push(stats.ratio(p50With, p50Without));
    barrierMs.push(p50With - p50Without);
  }
  await stopChild(withBarrier);
  const barrierCost = { p50Ratio: stats.spreadOf(barrierRatios, 3), p50ExtraMs: stats.spreadOf(barrierMs, 2) };
  results.durabilityBarrier = barrierCost;
  log(
    `  latency p50 with ÷ without ${stats.formatSpread(barrierCost.p50Ratio)}, ${stats.formatSpread(barrierCost.p50ExtraMs)} ms more per payment`,
  );
  budgets.push({
    // One more DynamoDB Local round trip on top of the payment's two (read, transaction) and the HTTP hop.
    name: 'npm start durability barrier: add payment p50 with ÷ without',
    value: barrierCost.p50Ratio.median,
    spread: barrierCost.p50Ratio,
    comparator: '<=',
    limit: 2,
  });

  // --- Pages by bytes ---------------------------------------------------------------------------------
  phase(
    `Pages by bytes: history of ${SIZES.pageInvoices} payments on ${SIZES.pageItems}-item invoices (cap ${MAX_PAGE_BYTES.toLocaleString('en')} bytes)`,
  );
  const defaultPage = await call(small.port, history(hKey), 200);
  const defaultBytesPerPayment = Math.round(
    Buffer.byteLength(defaultPage.body) / defaultPage.json.data.payments.length,
  );
  const pageOf = async (limit: number) => {
    const page = await call(small.port, historyPage(pKey, limit), 200);
    return {
      limit,
      bytes: Buffer.byteLength(page.body),
      payments: page.json.data.payments.length as number,
      nextCursor: page.json.data.next_cursor !== null,
    };
  };
  const bigPage = await pageOf(100);
  const quarterPage = await pageOf(25);
  const bigCapture = await capture(small, () => historyPage(pKey, 100), 200, 1);
  const bigTemplate = floorTemplate(bigCapture.template);
  const bigCheck = await checkFloor(bigTemplate, bigCapture.template, 'pk');
  log(`  floor check (limit 100): ${bigCheck.line}`);
  for (let w = 0; w < 2; w++) await call(small.port, historyPage(pKey, 25), 200);
  const bigRequest = () => historyPage(pKey, 100);
  await runFloor(bigTemplate, 2, 1, 'pw', bigRequest, bigCapture.responseBytes);
  for (let b = 0; b < SIZES.blocks; b++)
    await prepareFloor(`p${b}`, bigTemplate, SIZES.pagePerBlock, bigCapture.responseBytes);
  const bigBlocks: {
    endpoint: SideFigures;
    floor: SideFigures;
    pair: PairFigures;
    quarter: SideFigures;
    perByte: number;
  }[] = [];
  for (let b = 0; b < SIZES.blocks; b++) {
    const e = await measuredBlock('endpoint', () =>
      drive(
        SIZES.pagePerBlock,
        1,
        httpOp(small.port, () => historyPage(pKey, 100), 200, {}),
      ),
    );
    const fl = await measuredBlock('floor', () => runFloorBlock(`p${b}`, 1, SIZES.pagePerBlock, bigRequest));
    const q = await measuredBlock('endpoint', () =>
      drive(
        SIZES.pagePerBlock,
        1,
        httpOp(small.port, () => historyPage(pKey, 25), 200, {}),
      ),
    );
    bigBlocks.push({
      endpoint: e.figures,
      floor: fl.figures,
      pair: stats.pairFigures(e.figures, fl.figures),
      quarter: q.figures,
      perByte: stats.perByteRatio(
        { cost: e.figures.processCpuMs, bytes: bigPage.bytes },
        { cost: q.figures.processCpuMs, bytes: quarterPage.bytes },
      ),
    });
  }
  const perByte = stats.spreadOf(bigBlocks.map((b) => b.perByte));
  const bigRatio = stats.spreadOf(bigBlocks.map((b) => b.pair.p50Ratio));
  const spreadOfBlocks = (figure: (block: (typeof bigBlocks)[number]) => number) =>
    stats.spreadOf(bigBlocks.map(figure), 1);
  const bigOurCpu = spreadOfBlocks((b) => b.pair.ourCpuMs);
  const bigRuntimeCpu = spreadOfBlocks((b) => b.endpoint.processCpuMs).median;
  const quarterRuntimeCpu = spreadOfBlocks((b) => b.quarter.processCpuMs).median;
  const bigP50 = spreadOfBlocks((b) => b.endpoint.p50).median;
  const bigFloorP50 = spreadOfBlocks((b) => b.floor.p50).median;
  const quarterP50 = spreadOfBlocks((b) => b.quarter.p50).median;
  const mb = (bytes: number) => bytes / 1e6;
  results.pagesByBytes = {
    defaultShape: {
      bytesPerPayment: defaultBytesPerPayment,
      pageBytes: Buffer.byteLength(defaultPage.body),
      payments: defaultPage.json.data.payments.length,
    },
    bigPage: {
      ...bigPage,
      bytesPerPayment: Math.round(bigPage.bytes / bigPage.payments),
      p50: bigP50,
      floorP50: bigFloorP50,
      runtimeCpuMs: bigRuntimeCpu,
      ourCpuMs: bigOurCpu,
      ratioP50: bigRatio,
      rcu: bigCapture.rcu,
    },
    quarterPage: { ...quarterPage, p50: quarterP50, runtimeCpuMs: quarterRuntimeCpu },
    cpuPerByteBigOverQuarter: perByte,
    blocks: bigBlocks,
  };
  log(
    `  default shape (history page of 100 above): ${defaultBytesPerPayment} bytes per payment (${Buffer.byteLength(defaultPage.body)} bytes per page)`,
  );
  log(
    `  limit 100: ${bigPage.payments} payments, ${bigPage.bytes} bytes (${Math.round(bigPage.bytes / bigPage.payments)} per payment), next_cursor ${bigPage.nextCursor ? 'set' : 'null'}, ${bigCapture.rcu} RCU`,
  );
  log(
    `    p50 ${bigP50} ms (floor ${bigFloorP50}, ratio ${stats.formatSpread(bigRatio)}), runtime CPU ${bigRuntimeCpu} ms (${stats.round(bigRuntimeCpu / mb(bigPage.bytes), 1)} ms/MB), ours ${stats.formatSpread(bigOurCpu)} ms`,
  );
  log(
    `  limit 25:  ${quarterPage.payments} payments, ${quarterPage.bytes} bytes, p50 ${quarterP50} ms, runtime CPU ${quarterRuntimeCpu} ms (${stats.round(quarterRuntimeCpu / mb(quarterPage.bytes), 1)} ms/MB)`,
  );
  log(
    `  runtime CPU per byte, limit 100 ÷ limit 25: ${stats.formatSpread(perByte)} (≤ 1: linear in bytes plus a fixed part per request)`,
  );
  budgets.push({
    name: `history page bytes (${SIZES.pageItems}-item invoices, limit 100)`,
    value: bigPage.bytes,
    comparator: '<=',
    limit: MAX_PAGE_BYTES - 1,
    unit: 'bytes',
  });
  budgets.push({
    name: 'history CPU per byte, big page ÷ quarter page',
    value: perByte.median,
    spread: perByte,
    comparator: '<=',
    limit: 1.25,
  });

  // --- Many tenants -------------------------------------------------------------------------------------
  phase(`Many tenants: add payment at concurrency 8, one account vs ${CONCURRENCY} accounts (interleaved blocks)`);
  const tenantBlocks: { oneAccount: number; manyAccounts: number; ratio: number; statuses: Record<string, number> }[] =
    [];
  for (let b = 0; b < SIZES.blocks; b++) {
    const statuses: Record<string, number> = {};
    const one = () =>
      drive(
        SIZES.tenantsPerBlock,
        CONCURRENCY,
        httpOp(small.port, (_i, worker) => payment(wKey, wInvoices[worker]!, payDate), 201, statuses),
      );
    const many = () =>
      drive(
        SIZES.tenantsPerBlock,
        CONCURRENCY,
        httpOp(
          small.port,
          (_i, worker) => payment(payerInvoices[worker]!.key, payerInvoices[worker]!.ref, payDate),
          201,
          statuses,
        ),
      );
    const [a, m] =
      b % 2 === 0
        ? [await one(), await many()]
        : await (async () => {
            const mm = await many();
            return [await one(), mm];
          })();
    const oneRate = stats.throughput(a.samples.length, a.elapsedMs);
    const manyRate = stats.throughput(m.samples.length, m.elapsedMs);
    tenantBlocks.push({ oneAccount: oneRate, manyAccounts: manyRate, ratio: stats.ratio(manyRate, oneRate), statuses });
  }
  const tenants = stats.spreadOf(tenantBlocks.map((b) => b.ratio));
  results.manyTenants = {
    blocks: tenantBlocks,
    ratio: tenants,
    singleAccountEndpointPhase: singleAccountPayment.throughput,
  };
  log(
    `  one account ${stats.formatSpread(
      stats.spreadOf(
        tenantBlocks.map((b) => b.oneAccount),
        1,
      ),
    )}/s, ${CONCURRENCY} accounts ${stats.formatSpread(
      stats.spreadOf(
        tenantBlocks.map((b) => b.manyAccounts),
        1,
      ),
    )}/s, ratio ${stats.formatSpread(tenants)}`,
  );
  budgets.push({
    name: `add payment c=8 across ${CONCURRENCY} accounts ÷ one account`,
    value: tenants.median,
    spread: tenants,
    comparator: '>=',
    limit: 0.95,
  });

  budgets.push({
    name: `history latency ratio ${largeCount}/${smallCount}`,
    value: scaleRatio,
    comparator: '<=',
    limit: 1.2,
  });
  budgets.push({
    name: 'history RCU at 50k minus at 1k',
    value: capLarge.rcu - capSmall.rcu,
    comparator: '==',
    limit: 0,
    unit: 'RCU',
  });
} finally {
  for (const child of children) await stopChild(child).catch(() => undefined);
  destroyAgent();
  client?.destroy();
  await database.stop();
}

// --- Cold start (after DynamoDB Local stopped: nothing else competes for the CPU) ----------------
phase(
  `Cold-start proxy: bundles built by the CDK stack, import time in fresh Node processes (median of ${SIZES.coldRuns})`,
);
const cold = await measureColdStart(bundleBuild ?? buildBundles(), SIZES.coldRuns, log);
results.coldStart = cold;
log(
  `  baseline (document client only): ${cold.baseline.sizeKb} KB (${cold.baseline.gzipKb} KB gzip), import ${cold.baseline.importMedianMs} ms`,
);
for (const fn of cold.functions) {
  log(
    `  ${fn.name}: ${fn.sizeKb} KB (${fn.gzipKb} KB gzip), import ${fn.importMedianMs} ms = ${fn.ratioToBaseline} × baseline`,
  );
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

phase('Table (median of the blocks, their range in parentheses; floor figures in parentheses after the endpoint)');
log(
  '| Endpoint | Round trips | Capacity | p50 c=1 ms (floor) | Overhead p50 c=1 | Overhead p99 c=1 | Throughput c=8 (floor) | Throughput ratio | Tail p99 c=8 ratio | Our CPU per request |',
);
log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of tableRows) log(row);
const hopFigures = results.httpHop as SideFigures | undefined;
if (hopFigures)
  log(
    `\nHTTP hop alone (local runtime, empty route): p50 ${stats.round(hopFigures.p50)} ms, runtime CPU ${stats.round(hopFigures.processCpuMs)} ms per request.`,
  );

const floorChecks = [
  ...((results.endpoints as { name: string; floorCheck: { same: boolean } }[] | undefined) ?? []).map((e) => ({
    name: e.name,
    same: e.floorCheck.same,
  })),
];
if (floorChecks.some((c) => !c.same))
  log(
    `\nWARNING: the floor did not send DynamoDB the same work as the endpoint for ${floorChecks
      .filter((c) => !c.same)
      .map((c) => c.name)
      .join(', ')} (see "floor check" above): those ratios are not against a floor.`,
  );

phase('Budgets (a figure with a range is the median of interleaved blocks)');
for (const r of evaluated) log(`  ${stats.formatBudget(r)}`);
log(`\nRaw figures: ${path.relative(REPO_ROOT, file)} (${results.durationSeconds} s)`);
log(stats.budgetLine(evaluated));
process.exit(0);
