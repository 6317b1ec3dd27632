/**
 * `npm run bench`: the performance benchmark of docs/performance.md (not a test: nothing here fails `npm test`).
 *
 * Starts in-memory DynamoDB Local, the local HTTP runtime (bench/server-child.ts, one per table) and the floor
 * (bench/floor-child.ts: a process set up like the runtime that replays each endpoint's captured DynamoDB
 * requests), seeds data, and measures each endpoint against its floor in interleaved blocks: latency (p50, p99)
 * at concurrency 1, throughput and p99 at concurrency 8, our CPU per request, the database work, pages by bytes,
 * many tenants, scale, what a year's summary costs (period totals), receivables (aging, statements, CSV), the PDF
 * routes, the cold-start proxy and rendering. Each ratio is the median of the blocks, printed with their range. Budgets
 * that are absolute times are judged for this machine (bench/calibration.ts, measured before, between and after the
 * phases). Prints a report, writes bench/results/bench-<timestamp>.json and ends with `N budgets met, M missed`.
 * Method, budgets and latest figures: docs/performance.md.
 *
 * Env: BENCH_QUICK=1 shrinks every phase (for developing the bench, ≤ 3 minutes; figures too noisy to judge);
 * BENCH_BLOCKS=<n> sets the number of interleaved blocks (default 4, at least 3; quick: 2);
 * BENCH_SERVER_NODE_OPTIONS passes flags to the server processes (e.g. "--cpu-prof --cpu-prof-dir=prof");
 * BENCH_PHASES=endpoints,receivables runs only those phases (warmUp, scale, httpHop, endpoints, periodTotals,
 * receivables, webhookEvents, durabilityBarrier, pagesByBytes, manyTenants, documents, recurring, coldStart, render), and
 * BENCH_ROWS='add payment,send invoice (enqueue)' only those endpoint rows: for developing one row or phase.
 */

import type { Budget } from './budgets.ts';
import { LARGE_TABLE, SMALL_TABLE } from './config.ts';
import type { BenchContext } from './context.ts';
import type { Child } from './processes.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.LOG_LEVEL ??= 'SILENT';

process.env.TABLE_NAME = SMALL_TABLE;

// Imported once the environment is set: the store's DynamoDB client and the config read it when they load.
const { ensureTable, startDynamoDbLocal } = await import('../infra/local/dynamodb-local.ts');
const { destroyAgent } = await import('./http.ts');
const { measured } = await import('./load.ts');
const { startFloor, startServer, stopChild } = await import('./processes.ts');
const { log, startProgress } = await import('./progress.ts');
const { createAccounts, seedClients, seedingClient, seedPages, seedTables, seedWrites } = await import('./seeding.ts');
const { endpointDefs } = await import('./endpoint-defs.ts');
const { buildBundles } = await import('./cold-start.ts');
const { initialResults, printBudgets, printTable, writeResults } = await import('./report.ts');
// The phases, one file each, in the order they run.
const warmUp = await import('./phases/warm-up.ts');
const scale = await import('./phases/scale.ts');
const httpHop = await import('./phases/http-hop.ts');
const endpoints = await import('./phases/endpoints.ts');
const periodTotals = await import('./phases/period-totals.ts');
const receivables = await import('./phases/receivables.ts');
const webhookEvents = await import('./phases/webhook-events.ts');
const durabilityBarrier = await import('./phases/durability-barrier.ts');
const pagesByBytes = await import('./phases/pages-by-bytes.ts');
const manyTenants = await import('./phases/many-tenants.ts');
const coldStart = await import('./phases/cold-start.ts');
const render = await import('./phases/render.ts');
const documents = await import('./phases/documents.ts');
const recurring = await import('./phases/recurring.ts');

const { calibrationMs, calibrationOf } = await import('./calibration.ts');

/** BENCH_PHASES=endpoints,scale runs only those phases (after the seeding and the warm-up; names as in `steps`). */
const chosenPhases = process.env.BENCH_PHASES?.split(',').map((name) => name.trim());
const chosen = (name: string) => !chosenPhases || chosenPhases.includes(name);

const progress = startProgress();
// The machine's speed before anything of the bench runs, after each phase and after everything stopped
// (bench/calibration.ts).
const calibrationSamples = [calibrationMs()];
const { phase } = progress;
const results = initialResults();
const budgets: Budget[] = [];
/** One line per endpoint for the markdown table printed at the end (docs/performance.md). */
const tableRows: string[] = [];

phase('Starting DynamoDB Local (in memory), the local HTTP runtime and the floor process');
const dbStarted = performance.now();
const database = await startDynamoDbLocal();
measured.dynamoDbLocalPid = database.process.pid;
log(`  DynamoDB Local ready in ${Math.round(performance.now() - dbStarted)} ms`);
const children: Child[] = [];
let client: ReturnType<typeof seedingClient> | undefined;
let ctx!: BenchContext;
try {
  await ensureTable(database.endpoint, SMALL_TABLE);
  process.env.DYNAMODB_ENDPOINT = database.endpoint;
  client = seedingClient(database.endpoint);
  const t = performance.now();
  const small = await startServer(database.endpoint, SMALL_TABLE);
  children.push(small);
  const floor = await startFloor(database.endpoint, SMALL_TABLE);
  children.push(floor);
  measured.server = small;
  measured.floor = floor;
  log(`  runtime and floor processes ready in ${Math.round(performance.now() - t)} ms`);
  log(`  DynamoDB Local ${database.endpoint}; runtime for ${SMALL_TABLE} on port ${small.port}`);

  phase(chosen('coldStart') ? 'Seeding (and, meanwhile, the CDK synth that builds the cold-start bundles)' : 'Seeding');
  const bundleBuild = chosen('coldStart') ? buildBundles() : { outdir: '', done: Promise.resolve(new Map()) };
  const accounts = await createAccounts();
  const { largeCount, ...tables } = await seedTables(client, database.endpoint, small.port, accounts.history, results);
  const large = await startServer(database.endpoint, LARGE_TABLE);
  children.push(large);
  const writes = await seedWrites(small.port, accounts.writer, accounts.payers, accounts.soloPayer);
  await seedPages(small.port, accounts.pages.secretKey);
  await seedClients(small.port, accounts.history.secretKey);
  const seededTables = { ...tables, largeCount: await largeCount };
  const keys = {
    history: accounts.history.secretKey,
    writer: accounts.writer.secretKey,
    pages: accounts.pages.secretKey,
  };
  const seeded = { ...seededTables, ...writes };
  ctx = {
    endpoint: database.endpoint,
    small,
    large,
    floor,
    children,
    keys,
    seeded,
    endpoints: endpointDefs(keys, seeded),
    bundleBuild,
    results,
    budgets,
    tableRows,
    phase,
    later: {},
  };

  const steps = { warmUp, scale, httpHop, endpoints, periodTotals, receivables, webhookEvents, durabilityBarrier };
  for (const [name, step] of Object.entries({ ...steps, pagesByBytes, manyTenants, documents, recurring }))
    if (name === 'warmUp' || chosen(name)) {
      await step.run(ctx);
      calibrationSamples.push(calibrationMs());
    }
  if (chosen('scale')) scale.pushBudgets(ctx);
} finally {
  for (const child of children) await stopChild(child).catch(() => undefined);
  destroyAgent();
  client?.destroy();
  await database.stop();
}

// After DynamoDB Local stopped: nothing else competes for the CPU.
if (chosen('coldStart')) await coldStart.run(ctx);
if (chosen('render')) await render.run(ctx);

calibrationSamples.push(calibrationMs());
const { evaluated, file } = writeResults(results, budgets, progress, calibrationOf(calibrationSamples));
printTable(results, tableRows, progress);
printBudgets(evaluated, file, results, progress);
process.exit(0);
