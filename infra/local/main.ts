/**
 * `npm start`: the whole service on this machine (docs/running-locally.md). Serves HTTP at once (503 until ready),
 * starts DynamoDB Local persisted under DATA_DIR/dynamodb, creates the table if missing, seeds the
 * demo account, starts the background runners, then prints the base URL, the demo key and curl examples.
 * Ctrl-C / SIGTERM stop the HTTP server, the runners and DynamoDB Local, then exit 0.
 */

import './quiet-observability.ts';
import { documentClient } from '../../shared/store/dynamodb-client.ts';
import { readyBanner } from './banner.ts';
import { type DemoAccount, demoPaystackKey, ensureDemoAccount } from './demo-account.ts';
import { docsRoutes } from './docs.ts';
import { installDurabilityBarrier } from './durability-barrier.ts';
import {
  type DynamoDbLocal,
  ensureTable,
  JavaUnavailableError,
  startDynamoDbLocal,
  waitUntilReachable,
} from './dynamodb-local.ts';
import {
  processAlive,
  removeEngineRecord,
  runningEngine,
  stopOrphanedEngine,
  writeEngineRecord,
} from './engine-record.ts';
import { type LocalMail, startLocalMail } from './local-mail.ts';
import { startOutboxRunner } from './outbox-runner.ts';
import type { LocalPaystack } from './paystack/server.ts';
import { connectDemoAccount, newDemoPaystackKey, startPaystackForLocalRun } from './paystack-runner.ts';
import { listen, portAnswers, urlHost } from './ports.ts';
import { createLocalServer, type LocalServer } from './server.ts';
import { type LocalSettings, readLocalSettings, useLocalDynamoDb, useLocalWebhookSettings } from './settings.ts';
import { startWakeRunner } from './wake-runner.ts';

/** A background loop of `npm start` (the outbox, the wake sweep…), stopped before the database. */
interface Runner {
  stop(): Promise<void>;
}

let server: LocalServer | undefined;
let database: DynamoDbLocal | undefined;
let databaseStarting: Promise<DynamoDbLocal> | undefined;
const runners: Runner[] = [];
let stopping = false;
let demoReferenceCode: string | undefined;
let paystack: LocalPaystack | undefined;
let dynamodbDir: string | undefined;

async function shutdown(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Should stopping hang, leave anyway, Java included: it ignores the group's SIGINT (startDatabase).
  setTimeout(() => {
    database?.process.kill('SIGKILL');
    process.exit(exitCode);
  }, 15_000).unref();
  if (server) {
    const closed = new Promise<void>((r) => server!.close(() => r()));
    server.closeAllConnections();
    await closed;
  }
  await Promise.all(runners.map((runner) => runner.stop()));
  // A signal during startup: wait for Java to be up so that it can be stopped rather than orphaned.
  const db = database ?? (await databaseStarting?.catch(() => undefined));
  await db?.stop();
  if (db && dynamodbDir) removeEngineRecord(dynamodbDir, process.pid);
  if (exitCode === 0) console.log('Stopped (data kept in DATA_DIR).');
  process.exit(exitCode);
}

/** Prints one line, stops what was started and exits 1. Resolves to `undefined` for the step that failed. */
async function fail(message: string): Promise<undefined> {
  console.error(message);
  await shutdown(1);
  return undefined;
}

/**
 * `kill <npm pid>` (SIGTERM) reaches npm's shell, which dies without passing it on: this process is then
 * re-parented. Treat losing the parent that started it like SIGTERM, so that nothing outlives `npm start`.
 */
function stopOnSignalsAndOrphaning(): void {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown(0);
  }, 250).unref();
}

/** Serves HTTP at once (503 until ready); the base URL, or `undefined` when the port cannot be used. */
async function startServing(settings: LocalSettings): Promise<string | undefined> {
  server = createLocalServer({
    ready: false,
    staticRoutes: docsRoutes({ demoReferenceCode: () => demoReferenceCode }),
    logger: {
      request: (line) => console.log(line),
      error: (message, error) => console.error(message, error),
    },
  });
  try {
    const address = await listen(server, settings.port, settings.host);
    const baseUrl = `http://${urlHost(settings.host)}:${address.port}`;
    // Invoices' hosted_url point at this server, unless PUBLIC_BASE_URL names another (a tunnel, a proxy): the
    // configuration is read again once the store points at DynamoDB Local (useLocalDynamoDb).
    process.env.PUBLIC_BASE_URL ||= baseUrl;
    console.log(`Starting on ${baseUrl} (it answers 503 until DynamoDB Local is ready)…`);
    return baseUrl;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return fail(
      code === 'EADDRINUSE'
        ? `PORT ${settings.port} is already in use. Stop what uses it, or set PORT to a free port.`
        : `Cannot listen on ${settings.host}:${settings.port}: ${(error as Error).message}`,
    );
  }
}

/** One engine per DATA_DIR: refuses one another live process runs, stops one a killed process left behind. */
async function claimDataDir(settings: LocalSettings): Promise<true | undefined> {
  const engine = runningEngine(settings.dynamodbDir);
  if (engine && processAlive(engine.ownerPid)) {
    return fail(
      `DATA_DIR ${settings.dataDir} is in use: ${engine.owner} (pid ${engine.ownerPid}) runs DynamoDB Local on it ` +
        `(port ${engine.port}). Stop it, or set DATA_DIR to another directory.`,
    );
  }
  if (engine) {
    console.log(
      `Stopping DynamoDB Local (pid ${engine.javaPid}), left running on this DATA_DIR by a process that was killed…`,
    );
    await stopOrphanedEngine(engine);
  }
  if (!(await portAnswers(settings.dynamodbPort))) return true;
  const isDynamoDb = await waitUntilReachable(`http://127.0.0.1:${settings.dynamodbPort}`, 2_000);
  return fail(
    isDynamoDb
      ? `DynamoDB already answers on port ${settings.dynamodbPort} (another "npm start", or a DynamoDB Local started by hand?). ` +
          'Stop it, or set DYNAMODB_PORT to a free port.'
      : `Port ${settings.dynamodbPort} is in use by another program. Set DYNAMODB_PORT to a free port.`,
  );
}

/** Starts DynamoDB Local on DATA_DIR and records it (engine-record.ts); its unexpected exit stops the service. */
async function startDatabase(settings: LocalSettings): Promise<DynamoDbLocal | undefined> {
  try {
    // Ctrl-C reaches Java too (same process group): it ignores that, and is stopped after the runners (shutdown).
    const options = { port: settings.dynamodbPort, dataDir: settings.dynamodbDir, ignoreInterrupt: true };
    databaseStarting = startDynamoDbLocal(options);
    database = await databaseStarting;
  } catch (error) {
    if (error instanceof JavaUnavailableError) return fail(error.message);
    return fail(`Could not start DynamoDB Local: ${(error as Error).message}`);
  }
  dynamodbDir = settings.dynamodbDir;
  const owner = 'npm start';
  writeEngineRecord(settings.dynamodbDir, {
    javaPid: database.process.pid!,
    port: database.port,
    ownerPid: process.pid,
    owner,
  });
  database.process.once('exit', (code, signal) => {
    if (stopping) return;
    // SIGTERM sent to the whole process group (a process manager's stop) is a normal stop.
    if (signal === 'SIGTERM' || code === 143) return void shutdown(0);
    void fail(`DynamoDB Local stopped unexpectedly (exit code ${code ?? signal}).`);
  });
  return database;
}

/**
 * The background runners, each with the code its deployed function runs. A new one is one more line here. The outbox
 * (every job kind's dispatch and worker) stops before the local SES server its mail worker sends through; the banner
 * says where mail is read.
 */
async function startRunners(settings: LocalSettings, db: DynamoDbLocal): Promise<LocalMail> {
  const common = { endpoint: db.endpoint, tableName: settings.tableName, dataDir: settings.dataDir };
  useLocalWebhookSettings(settings.dataDir);
  const mail = await startLocalMail({
    ...common,
    sesPort: settings.sesPort,
    sesPortExplicit: settings.sesPortExplicit,
  });
  const outbox = await startOutboxRunner({ ...common, log: console.error });
  runners.push({
    async stop() {
      await outbox.stop();
      await mail.stop();
    },
  });
  runners.push(startWakeRunner({ log: console.error }));
  return mail;
}

/**
 * The local Paystack server (started beside DynamoDB Local, stopped with the runners), unless PAYSTACK_BASE_URL names
 * another; `false` when it cannot start.
 */
async function startPaystack(settings: LocalSettings): Promise<LocalPaystack | undefined | false> {
  try {
    const started = await startPaystackForLocalRun(settings, console.error);
    if (started) runners.push(started);
    return started;
  } catch (error) {
    await fail(`Could not start the local Paystack server: ${(error as Error).message}`);
    return false;
  }
}

/** The demo account connected to the local Paystack server: what the banner says of Paystack. */
async function connectDemo(settings: LocalSettings, demo: DemoAccount) {
  const base = process.env.PAYSTACK_BASE_URL ?? '';
  if (!paystack) return { url: base, external: true };
  const { paystack_secret_key: key } = demoPaystackKey(settings.dataDir, demo, newDemoPaystackKey);
  const webhookUrl = await connectDemoAccount(paystack, demo.company_id, key!, process.env.PUBLIC_BASE_URL ?? '');
  return { url: paystack.url, external: false, webhookUrl };
}

/** The table, the demo account and the runners; then ready, and the banner. */
async function prepare(settings: LocalSettings, db: DynamoDbLocal, baseUrl: string): Promise<void> {
  try {
    useLocalDynamoDb(db.endpoint, settings.tableName);
    installDurabilityBarrier(documentClient());
    await ensureTable(db.endpoint, settings.tableName);
    const { account } = await ensureDemoAccount(settings.dataDir);
    demoReferenceCode = account.demo_reference_code;
    const paystackBanner = await connectDemo(settings, account);
    if (stopping) return;
    const mail = await startRunners(settings, db);
    server!.ready = true;
    console.log(
      readyBanner({
        baseUrl,
        companyId: account.company_id,
        secretKey: account.secret_key,
        ...(account.demo_reference_code ? { demoReferenceCode: account.demo_reference_code } : {}),
        dynamodbEndpoint: db.endpoint,
        tableName: settings.tableName,
        dataDir: settings.dynamodbDir,
        mail: mail.banner,
        paystack: paystackBanner,
      }),
    );
  } catch (error) {
    console.error(error);
    await fail('Could not prepare the local database (see the error above).');
  }
}

async function main(): Promise<void> {
  stopOnSignalsAndOrphaning();
  let settings: LocalSettings;
  try {
    settings = readLocalSettings();
  } catch (error) {
    return void (await fail((error as Error).message));
  }
  const baseUrl = await startServing(settings);
  if (!baseUrl || !(await claimDataDir(settings))) return;
  const [db, started] = await Promise.all([startDatabase(settings), startPaystack(settings)]);
  if (!db || started === false || stopping) return;
  paystack = started;
  await prepare(settings, db, baseUrl);
}

void main();
