/**
 * Which database the account CLI works on (docs/accounts.md: the same one as `npm start`, or a deployed
 * stage's table), and getting the store pointed at it.
 */

import { DEFAULT_LOCAL_TABLE, resetConfig } from '../../shared/config.ts';
import { documentClient } from '../../shared/store/dynamodb-client.ts';
import { installDurabilityBarrier } from '../local/durability-barrier.ts';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal, waitUntilReachable } from '../local/dynamodb-local.ts';
import { removeEngineRecord, runningEngine, writeEngineRecord } from '../local/engine-record.ts';
import { readLocalSettings, useLocalDynamoDb } from '../local/settings.ts';

export type Target =
  /** DYNAMODB_ENDPOINT is set: use it as is. */
  | { kind: 'endpoint'; endpoint: string; tableName: string }
  /** TABLE_NAME and AWS credentials are set: the deployed table. */
  | { kind: 'aws'; tableName: string }
  /** Otherwise the local database of `npm start` (started here if `npm start` is not running). */
  | { kind: 'local'; endpoint: string; port: number; dynamodbDir: string; tableName: string };

/** True when the AWS SDK's default credential chain has something explicit to work with. */
export function hasAwsCredentials(env: NodeJS.ProcessEnv): boolean {
  return Boolean(
    env.AWS_ACCESS_KEY_ID ||
      env.AWS_PROFILE ||
      env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI ||
      env.AWS_CONTAINER_CREDENTIALS_FULL_URI ||
      env.AWS_WEB_IDENTITY_TOKEN_FILE,
  );
}

/** Chooses the target from the environment (pure). */
export function chooseTarget(env: NodeJS.ProcessEnv = process.env): Target {
  if (env.DYNAMODB_ENDPOINT)
    return { kind: 'endpoint', endpoint: env.DYNAMODB_ENDPOINT, tableName: env.TABLE_NAME || DEFAULT_LOCAL_TABLE };
  if (env.TABLE_NAME && hasAwsCredentials(env)) return { kind: 'aws', tableName: env.TABLE_NAME };
  const settings = readLocalSettings(env);
  return {
    kind: 'local',
    endpoint: `http://127.0.0.1:${settings.dynamodbPort}`,
    port: settings.dynamodbPort,
    dynamodbDir: settings.dynamodbDir,
    tableName: settings.tableName,
  };
}

/** A human description of the target, for error messages. */
export function describeTarget(target: Target): string {
  switch (target.kind) {
    case 'endpoint':
      return `table ${target.tableName} at ${target.endpoint}`;
    case 'aws':
      return `table ${target.tableName} on AWS (${process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'default region'})`;
    case 'local':
      return `local table ${target.tableName} (${target.dynamodbDir})`;
  }
}

/** The database a command runs on, once reached. */
export interface Connection {
  close(): Promise<void>;
  /** The DynamoDB endpoint used (for a local target, the engine found or started); none for AWS. */
  endpoint: string | undefined;
  /** A DynamoDB Local was started for this command (and stops with it). */
  startedHere: boolean;
}

/**
 * Points the store at the target; for a local target whose DynamoDB Local is not running, starts
 * one on the same port and data directory. Call the returned `close` when done.
 */
export async function connectTarget(target: Target, env: NodeJS.ProcessEnv = process.env): Promise<Connection> {
  if (target.kind === 'endpoint') {
    env.TABLE_NAME = target.tableName;
    if (env === process.env) {
      resetConfig(); // read once per process: read it again with the target's table
      installDurabilityBarrier(documentClient()); // most likely DynamoDB Local (harmless elsewhere)
    }
    return { close: async () => {}, endpoint: target.endpoint, startedHere: false };
  }
  if (target.kind === 'aws') {
    delete env.DYNAMODB_ENDPOINT;
    if (env === process.env) resetConfig();
    return { close: async () => {}, endpoint: undefined, startedHere: false };
  }
  const { endpoint, started } = await localEngine(target);
  try {
    useLocalDynamoDb(endpoint, target.tableName, env);
    if (env === process.env) installDurabilityBarrier(documentClient());
    await ensureTable(endpoint, target.tableName);
  } catch (error) {
    await started?.stop();
    throw error;
  }
  return {
    close: async () => {
      await started?.stop();
      if (started) removeEngineRecord(target.dynamodbDir, process.pid);
    },
    endpoint,
    startedHere: started !== undefined,
  };
}

/**
 * The DynamoDB Local of the target's DATA_DIR: the one recorded as running there (whatever DYNAMODB_PORT says),
 * else one answering on DYNAMODB_PORT, else one started here and recorded, so that never two engines share
 * the directory's files (engine-record.ts).
 */
async function localEngine(
  target: Extract<Target, { kind: 'local' }>,
): Promise<{ endpoint: string; started?: DynamoDbLocal }> {
  const running = runningEngine(target.dynamodbDir);
  if (running) return { endpoint: `http://127.0.0.1:${running.port}` };
  if (await waitUntilReachable(target.endpoint, 1_000)) return { endpoint: target.endpoint };
  const started = await startDynamoDbLocal({ port: target.port, dataDir: target.dynamodbDir });
  writeEngineRecord(target.dynamodbDir, {
    javaPid: started.process.pid!,
    port: started.port,
    ownerPid: process.pid,
    owner: 'cli',
  });
  return { endpoint: started.endpoint, started };
}
