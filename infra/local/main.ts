/**
 * `npm start`: the whole service on this machine (docs/running-locally.md). Serves HTTP at once (503 until ready),
 * starts DynamoDB Local persisted under DATA_DIR/dynamodb, creates the table if missing, seeds the
 * demo account, then prints the base URL, the demo key and curl examples. Ctrl-C / SIGTERM stop
 * the HTTP server and DynamoDB Local, then exit 0.
 */

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { join } from 'node:path';
import { handler as mailEventsHandler } from '../../functions/mail-events/handler.ts';
import { loadConfig } from '../../shared/config.ts';
import { mailerPorts } from '../../shared/http/mailer.ts';
import { documentClient } from '../../shared/store/dynamodb-client.ts';
import { readyBanner } from './banner.ts';
import { ensureDemoAccount } from './demo-account.ts';
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
import { type MailRunner, startMailRunner, useLocalMailSettings } from './mail-runner.ts';
import { type OverdueRunner, startOverdueRunner } from './overdue-runner.ts';
import { createLocalServer, type LocalServer } from './server.ts';
import { type LocalSes, startLocalSes } from './ses-server.ts';
import { type LocalSettings, readLocalSettings, useLocalDynamoDb } from './settings.ts';
import { startWebhookRunner, type WebhookRunner } from './webhook-runner.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
// Tracing and CloudWatch metrics mean nothing off AWS; their output would only clutter the terminal.
process.env.POWERTOOLS_TRACE_ENABLED ??= 'false';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

let server: LocalServer | undefined;
let database: DynamoDbLocal | undefined;
let databaseStarting: Promise<DynamoDbLocal> | undefined;
let webhooks: WebhookRunner | undefined;
let overdue: OverdueRunner | undefined;
let ses: LocalSes | undefined;
let mail: MailRunner | undefined;
let stopping = false;
let demoReferenceCode: string | undefined;
let dynamodbDir: string | undefined;

async function shutdown(exitCode: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // Should stopping hang, leave anyway (stop() already SIGKILLs Java after 5 s).
  setTimeout(() => process.exit(exitCode), 15_000).unref();
  if (server) {
    const closed = new Promise<void>((r) => server!.close(() => r()));
    server.closeAllConnections();
    await closed;
  }
  await Promise.all([webhooks?.stop(), overdue?.stop(), mail?.stop()]);
  await ses?.stop();
  // A signal during startup: wait for Java to be up so that it can be stopped rather than orphaned.
  const db = database ?? (await databaseStarting?.catch(() => undefined));
  await db?.stop();
  if (db && dynamodbDir) removeEngineRecord(dynamodbDir, process.pid);
  if (exitCode === 0) console.log('Stopped (data kept in DATA_DIR).');
  process.exit(exitCode);
}

/**
 * The local SES server on SES_PORT (default 8005; when that is taken and SES_PORT was not set, a free port), its
 * reports (bounce, complaint) going to the same handler as deployed (functions/mail-events).
 */
async function startSes(settings: LocalSettings): Promise<LocalSes> {
  const options = { mailDir: join(settings.dataDir, 'mail'), onNotice: mailEventsHandler, log: console.error };
  try {
    return await startLocalSes({ ...options, port: settings.sesPort });
  } catch (error) {
    if ((error as { code?: string }).code !== 'EADDRINUSE') throw error;
    if (settings.sesPortExplicit)
      throw new Error(
        `SES_PORT ${settings.sesPort} is already in use. Stop what uses it, or set SES_PORT to a free port.`,
      );
    return startLocalSes({ ...options, port: 0 });
  }
}

function fail(message: string): Promise<void> {
  console.error(message);
  return shutdown(1);
}

function listen(target: LocalServer, settings: LocalSettings): Promise<AddressInfo> {
  return new Promise((resolveAddress, reject) => {
    target.once('error', reject);
    target.listen(settings.port, settings.host, () => {
      target.off('error', reject);
      resolveAddress(target.address() as AddressInfo);
    });
  });
}

/** True when something accepts TCP connections on the port. */
function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolveAnswer) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const done = (answer: boolean) => {
      socket.destroy();
      resolveAnswer(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * `kill <npm pid>` (SIGTERM) reaches npm's shell, which dies without passing it on: this process is then
 * re-parented. Treat losing the parent that started it like SIGTERM, so that nothing outlives `npm start`.
 */
function stopWhenOrphaned(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void shutdown(0);
  }, 250).unref();
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  stopWhenOrphaned();

  let settings: LocalSettings;
  try {
    settings = readLocalSettings();
  } catch (error) {
    return fail((error as Error).message);
  }

  server = createLocalServer({
    ready: false,
    staticRoutes: docsRoutes({ demoReferenceCode: () => demoReferenceCode }),
    logger: {
      request: (line) => console.log(line),
      error: (message, error) => console.error(message, error),
    },
  });
  let address: AddressInfo;
  try {
    address = await listen(server, settings);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return fail(
      code === 'EADDRINUSE'
        ? `PORT ${settings.port} is already in use. Stop what uses it, or set PORT to a free port.`
        : `Cannot listen on ${settings.host}:${settings.port}: ${(error as Error).message}`,
    );
  }
  const baseUrl = `http://${urlHost(settings.host)}:${address.port}`;
  // Invoices' hosted_url point at this server, unless PUBLIC_BASE_URL names another (a tunnel, a proxy): the
  // configuration is read again once the store points at DynamoDB Local (useLocalDynamoDb, below).
  process.env.PUBLIC_BASE_URL ||= baseUrl;
  console.log(`Starting on ${baseUrl} (it answers 503 until DynamoDB Local is ready)…`);

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

  const endpoint = `http://127.0.0.1:${settings.dynamodbPort}`;
  if (await portAnswers(settings.dynamodbPort)) {
    const isDynamoDb = await waitUntilReachable(endpoint, 2_000);
    return fail(
      isDynamoDb
        ? `DynamoDB already answers on port ${settings.dynamodbPort} (another "npm start", or a DynamoDB Local started by hand?). ` +
            'Stop it, or set DYNAMODB_PORT to a free port.'
        : `Port ${settings.dynamodbPort} is in use by another program. Set DYNAMODB_PORT to a free port.`,
    );
  }

  try {
    databaseStarting = startDynamoDbLocal({ port: settings.dynamodbPort, dataDir: settings.dynamodbDir });
    database = await databaseStarting;
    dynamodbDir = settings.dynamodbDir;
    writeEngineRecord(settings.dynamodbDir, {
      javaPid: database.process.pid!,
      port: database.port,
      ownerPid: process.pid,
      owner: 'npm start',
    });
  } catch (error) {
    if (error instanceof JavaUnavailableError) return fail(error.message);
    return fail(`Could not start DynamoDB Local: ${(error as Error).message}`);
  }
  if (stopping) return;
  database.process.once('exit', (code, signal) => {
    if (stopping) return;
    // Ctrl-C in a terminal signals Java too (same process group); that is a normal stop.
    if (signal === 'SIGINT' || signal === 'SIGTERM' || code === 130 || code === 143) return void shutdown(0);
    void fail(`DynamoDB Local stopped unexpectedly (exit code ${code ?? signal}).`);
  });

  try {
    useLocalDynamoDb(database.endpoint, settings.tableName);
    installDurabilityBarrier(documentClient());
    await ensureTable(database.endpoint, settings.tableName);
    const { account } = await ensureDemoAccount(settings.dataDir);
    demoReferenceCode = account.demo_reference_code;
    if (stopping) return;
    webhooks = startWebhookRunner({
      endpoint: database.endpoint,
      tableName: settings.tableName,
      dataDir: settings.dataDir,
      log: console.error,
    });
    overdue = startOverdueRunner({ log: console.error });
    ses = await startSes(settings);
    useLocalMailSettings(ses.url);
    mail = startMailRunner({
      endpoint: database.endpoint,
      tableName: settings.tableName,
      dataDir: settings.dataDir,
      ports: () => mailerPorts,
      log: console.error,
    });
    server.ready = true;
    console.log(
      readyBanner({
        baseUrl,
        companyId: account.company_id,
        secretKey: account.secret_key,
        ...(account.demo_reference_code ? { demoReferenceCode: account.demo_reference_code } : {}),
        dynamodbEndpoint: database.endpoint,
        tableName: settings.tableName,
        dataDir: settings.dynamodbDir,
        mail: { inboxUrl: ses.url, mailDir: join(settings.dataDir, 'mail'), from: loadConfig().mailFrom },
      }),
    );
  } catch (error) {
    console.error(error);
    return fail('Could not prepare the local database (see the error above).');
  }
}

void main();
