/**
 * What the CLI says on stderr about the database it used (docs/accounts.md "Which database"): where it is, and a
 * warning when no `npm start` serves it — a key created in a database the running service does not read is
 * refused by that service, which a new user otherwise finds out only from a 401.
 */
import { dirname } from 'node:path';
import type { LocalEngine } from '../local/engine-record.ts';
import type { Connection, Target } from './target.ts';

/** Lines for stderr, one JSON object each (`{"database": …}`, then `{"warning": …}` when there is one). */
export interface DatabaseNote {
  database: string;
  warning?: string;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The port of a DynamoDB endpoint on this machine; undefined for another host. */
function localPort(endpoint: string): number | undefined {
  try {
    const url = new URL(endpoint);
    return LOCAL_HOSTS.has(url.hostname) ? Number(url.port || 80) : undefined;
  } catch {
    return undefined;
  }
}

const dataDirOf = (dynamodbDir: string) => dirname(dynamodbDir);

/** Where the running `npm start`s keep their data, to point the user at the right one. */
function runningServices(engines: readonly LocalEngine[]): string {
  const served = engines.filter((engine) => engine.npmStartPid !== undefined && engine.dynamodbDir);
  if (served.length === 0) return 'No npm start is running on this machine.';
  const each = served.map(
    (engine) => `npm start (pid ${engine.npmStartPid}) uses DATA_DIR=${dataDirOf(engine.dynamodbDir!)}`,
  );
  return `${each.join('; ')}: run the command with that DATA_DIR to work on its database.`;
}

function engineDescription(engine: LocalEngine | undefined, connection: Connection, dataDir: string | undefined) {
  if (!engine) return '';
  if (!engine.dynamodbDir) return ', in memory';
  const where = `, data in ${dataDirOf(engine.dynamodbDir)}`;
  const other = dataDir && dataDirOf(engine.dynamodbDir) !== dataDir ? ` (not DATA_DIR ${dataDir})` : '';
  if (engine.npmStartPid !== undefined) return `${where}${other}, served by npm start (pid ${engine.npmStartPid})`;
  return `${where}${other}${connection.startedHere ? ', started for this command and stopped after it' : ''}`;
}

/** What to say about the database a command used (pure: the running engines are given). */
export function databaseNote(target: Target, connection: Connection, engines: readonly LocalEngine[]): DatabaseNote {
  if (target.kind === 'aws') {
    const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'the default region';
    return { database: `table ${target.tableName} on AWS (${region})` };
  }
  const endpoint = connection.endpoint ?? target.endpoint;
  const port = localPort(endpoint);
  const source = target.kind === 'endpoint' ? ' (DYNAMODB_ENDPOINT)' : ' (DynamoDB Local)';
  if (port === undefined) return { database: `table ${target.tableName} at ${endpoint}${source}` };
  const engine = engines.find((candidate) => candidate.port === port);
  const dataDir = target.kind === 'local' ? dataDirOf(target.dynamodbDir) : undefined;
  const database = `table ${target.tableName} at ${endpoint}${source}${engineDescription(engine, connection, dataDir)}`;
  if (engine?.npmStartPid !== undefined) return { database };
  const warning =
    'No npm start serves this database: a service running with another DATA_DIR does not see this change ' +
    `(it refuses a key created here with 401). ${runningServices(engines)}`;
  return { database, warning };
}
