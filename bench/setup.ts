/**
 * The run's set-up, never timed (docs/performance.md "Processes" and "Set-up"): DynamoDB Local, the runtime and the
 * floor started together, then the shared data seeded once, what does not depend on each other side by side. The CDK
 * synth of the cold-start bundles (bench/cold-start.ts), started before all this, runs beside it.
 */
import { ensureTable, freePort, startDynamoDbLocal } from '../infra/local/dynamodb-local.ts';
import { resetConfig } from '../shared/config.ts';
import { SMALL_TABLE } from './config.ts';
import { measured } from './load.ts';
import { type Child, startFloor, startServer } from './processes.ts';
import { log, timed } from './progress.ts';
import {
  createAccounts,
  type Seeded,
  seedClients,
  seedingClient,
  seedPages,
  seedTables,
  seedTaxed,
  seedWrites,
} from './seeding.ts';
import { seedTaxYear } from './tax-seeding.ts';

export type Database = Awaited<ReturnType<typeof startDynamoDbLocal>>;

/**
 * DynamoDB Local (in memory, on DYNAMODB_PORT or a free port), the runtime and the floor, started at once: the two
 * Node processes only need DynamoDB Local's address, not its answers, until their first request. Every process
 * started is pushed to `children` (or returned as `database`) before an error is thrown, for the caller to stop.
 */
export async function startProcesses(children: Child[]): Promise<{ database: Database; small: Child; floor: Child }> {
  const port = Number(process.env.DYNAMODB_PORT) || (await freePort());
  const endpoint = `http://127.0.0.1:${port}`;
  const started = await Promise.allSettled([
    timed('DynamoDB Local started', () => startDynamoDbLocal({ port })),
    timed('runtime started', () => startServer(endpoint, SMALL_TABLE)),
    timed('floor started', () => startFloor(endpoint, SMALL_TABLE)),
  ]);
  const [database, small, floor] = started;
  for (const child of [small, floor]) if (child.status === 'fulfilled') children.push(child.value);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    if (database.status === 'fulfilled') await database.value.stop();
    throw failed.reason;
  }
  if (database.status !== 'fulfilled' || small.status !== 'fulfilled' || floor.status !== 'fulfilled')
    throw new Error('unreachable');
  await ensureTable(endpoint, SMALL_TABLE);
  process.env.DYNAMODB_ENDPOINT = endpoint;
  resetConfig(); // a module may have read the configuration on import, before DynamoDB Local's endpoint was known
  measured.dynamoDbLocalPid = database.value.process.pid;
  measured.server = small.value;
  measured.floor = floor.value;
  log(`  DynamoDB Local ${endpoint}; runtime for ${SMALL_TABLE} on port ${small.value.port}`);
  return { database: database.value, small: small.value, floor: floor.value };
}

export interface SeededRun {
  keys: { history: string; writer: string; pages: string };
  seeded: Seeded;
}

/**
 * The accounts and tables the rows and phases share (period totals, receivables and documents seed accounts of their
 * own when they start). The history account comes first, through the runtime (both tables are filled around its
 * payments); the large table is then written directly while the rest goes through the runtime.
 */
export async function seedAll(endpoint: string, port: number, results: Record<string, unknown>): Promise<SeededRun> {
  const client = seedingClient(endpoint);
  try {
    const accounts = await timed('accounts', () => createAccounts());
    const { largeCount, ...tables } = await seedTables(client, endpoint, port, accounts.history, results);
    const writes = await timed('writer, payers, payments to reverse', () =>
      seedWrites(port, accounts.writer, accounts.payers, accounts.soloPayer),
    );
    const taxed = await timed('VAT account', () => seedTaxed(port, accounts.taxed));
    await timed('VAT account: a year of tax day rows', () => seedTaxYear(client, accounts.taxed.account.companyId));
    await timed('pages by bytes', () => seedPages(port, accounts.pages.secretKey));
    await timed('clients', () => seedClients(port, accounts.history.secretKey));
    const seeded = {
      ...tables,
      largeCount: await timed('large table waited for', () => largeCount),
      ...writes,
      ...taxed,
    };
    const keys = {
      history: accounts.history.secretKey,
      writer: accounts.writer.secretKey,
      pages: accounts.pages.secretKey,
    };
    return { keys, seeded };
  } finally {
    client.destroy();
  }
}
