/**
 * `npm run bench`: the performance benchmark of docs/performance.md (not a test: nothing here fails `npm test`).
 *
 * Starts in-memory DynamoDB Local, the local HTTP runtime (bench/server-child.ts, serving every phase) and the floor
 * (bench/floor-child.ts: a process set up like the runtime that replays each endpoint's captured DynamoDB
 * requests) at once, seeds every phase's data (bench/setup.ts), and measures each endpoint against its floor in interleaved blocks: latency (p50, p99)
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
 * receivables, webhookEvents, pagesByBytes, manyTenants, documents, recurring, onlinePayments, transfers,
 * durabilityBarrier, coldStart, render), and
 * BENCH_ROWS='add payment,send invoice (enqueue)' only those endpoint rows: for developing one row or phase;
 * DYNAMODB_PORT=<port> puts DynamoDB Local on that port (default: a free one).
 */

import type { Budget } from './budgets.ts';
import { SMALL_TABLE } from './config.ts';
import type { BenchContext } from './context.ts';
import type { Child } from './processes.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.LOG_LEVEL ??= 'SILENT';

process.env.TABLE_NAME = SMALL_TABLE;

// Imported once the environment is set: the store's DynamoDB client and the config read it when they load.
const { destroyAgent } = await import('./http.ts');
const { stopChild } = await import('./processes.ts');
const { startProgress } = await import('./progress.ts');
const { seedAll, startProcesses } = await import('./setup.ts');
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
const onlinePayments = await import('./phases/online-payments.ts');
const transfers = await import('./phases/transfers.ts');

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

// First of all the CDK synth of the cold-start bundles (a process of its own): it runs beside the start and the
// seeding, where nothing is timed, and the warm-up waits for it.
const bundleBuild = chosen('coldStart') ? buildBundles() : { outdir: '', done: Promise.resolve(new Map()) };
phase(
  `Set-up: DynamoDB Local (in memory), the local HTTP runtime and the floor process, then seeding${chosen('coldStart') ? ' (and, meanwhile, the CDK synth of the cold-start bundles)' : ''}`,
);
const children: Child[] = [];
let database: Awaited<ReturnType<typeof startProcesses>>['database'] | undefined;
let ctx!: BenchContext;
try {
  const processes = await startProcesses(children);
  ({ database } = processes);
  const { small, floor } = processes;
  const { keys, seeded } = await seedAll(database.endpoint, small.port, results);
  ctx = {
    endpoint: database.endpoint,
    small,
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

  const steps = { warmUp, scale, httpHop, endpoints, periodTotals, receivables, webhookEvents, pagesByBytes };
  for (const [name, step] of Object.entries({
    ...steps,
    manyTenants,
    documents,
    recurring,
    onlinePayments,
    transfers,
    durabilityBarrier,
  }))
    if (name === 'warmUp' || chosen(name)) {
      await step.run(ctx);
      calibrationSamples.push(calibrationMs());
    }
  if (chosen('scale')) scale.pushBudgets(ctx);
} finally {
  for (const child of children) await stopChild(child).catch(() => undefined);
  destroyAgent();
  await database?.stop();
}

// After DynamoDB Local stopped: nothing else competes for the CPU.
if (chosen('coldStart')) await coldStart.run(ctx);
if (chosen('render')) await render.run(ctx);

calibrationSamples.push(calibrationMs());
const { evaluated, file } = writeResults(results, budgets, progress, calibrationOf(calibrationSamples));
printTable(results, tableRows, progress);
printBudgets(evaluated, file, results, progress);
process.exit(0);
