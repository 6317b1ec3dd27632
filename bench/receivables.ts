/**
 * The receivables phase on its own (bench/phases/receivables.ts): DynamoDB Local, the local runtime and the floor, then only that
 * phase and its budgets — for working on aging, statements and CSV without the whole `npm run bench`.
 *
 *   npx tsx bench/receivables.ts          (BENCH_QUICK=1 for smaller blocks)
 */

import type { Budget } from './budgets.ts';
import { SMALL_TABLE } from './config.ts';
import type { BenchContext } from './context.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_REGION ??= 'eu-west-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.LOG_LEVEL ??= 'SILENT';
process.env.TABLE_NAME = SMALL_TABLE;

const { ensureTable, startDynamoDbLocal } = await import('../infra/local/dynamodb-local.ts');
const { destroyAgent } = await import('./http.ts');
const { startFloor, startServer, stopChild } = await import('./processes.ts');
const { measured } = await import('./load.ts');
const { startProgress } = await import('./progress.ts');
const { initialResults, printBudgets, writeResults } = await import('./report.ts');
const receivables = await import('./phases/receivables.ts');
const { calibrationMs, calibrationOf } = await import('./calibration.ts');

const progress = startProgress();
const calibrationSamples = [calibrationMs()];
const results = initialResults();
const budgets: Budget[] = [];
progress.phase('Starting DynamoDB Local (in memory), the local HTTP runtime and the floor process');
const database = await startDynamoDbLocal();
try {
  await ensureTable(database.endpoint, SMALL_TABLE);
  process.env.DYNAMODB_ENDPOINT = database.endpoint;
  const small = await startServer(database.endpoint, SMALL_TABLE);
  // The throughput part replays its captured payments in the floor process (bench/phases/receivables-throughput.ts).
  const floor = await startFloor(database.endpoint, SMALL_TABLE);
  measured.server = small;
  measured.floor = floor;
  try {
    // Only what the phase uses: it makes its own accounts and data.
    const ctx = {
      endpoint: database.endpoint,
      small,
      results,
      budgets,
      phase: progress.phase,
    } as unknown as BenchContext;
    await receivables.run(ctx);
  } finally {
    await stopChild(small).catch(() => undefined);
    await stopChild(floor).catch(() => undefined);
  }
} finally {
  destroyAgent();
  await database.stop();
}
calibrationSamples.push(calibrationMs());
const { evaluated, file } = writeResults(results, budgets, progress, calibrationOf(calibrationSamples));
printBudgets(evaluated, file, results, progress);
process.exit(0);
