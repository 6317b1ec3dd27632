/**
 * Vitest global setup: in-memory DynamoDB Locals on free ports for the whole run, each warmed
 * (infra/local/dynamodb-local-warm-up.ts) and with the table created from the shared definition. Each worker uses one
 * (env-setup.ts), through DYNAMODB_ENDPOINT and TABLE_NAME. In the Node 22 pass each worker has its own: one engine
 * serves one request at a time much of the time, and a shared one kept that pass waiting on it (224 s with one
 * engine for three workers, 200 s with two, 187 s with three: docs/decisions.md "How the suite runs").
 */
import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';
import { warmUp } from '../../infra/local/dynamodb-local-warm-up.ts';

const TABLE_NAME = 'invoicing-test';
let databases: DynamoDbLocal[] = [];

/**
 * One per worker where the files hold DynamoDB Local to the functions' timeouts (`functions`: TEST_ENGINE_PER_WORKER,
 * set by scripts/test-on-node22.ts); one elsewhere (`local` and `cdk` use it little: `npm start` has its own).
 */
function engineCount(project: TestProject): number {
  if (process.env.TEST_ENGINE_PER_WORKER !== '1') return 1;
  return Math.min(4, Math.max(1, Number(project.globalConfig.maxWorkers) || 1));
}

export default async function setup(project: TestProject) {
  databases = await Promise.all(
    Array.from({ length: engineCount(project) }, async () => {
      const database = await startDynamoDbLocal();
      await warmUp(database.endpoint);
      await ensureTable(database.endpoint, TABLE_NAME);
      return database;
    }),
  );
  project.provide(
    'dynamodbEndpoints',
    databases.map((database) => database.endpoint),
  );
  project.provide('tableName', TABLE_NAME);
  process.env.DYNAMODB_ENDPOINT = databases[0]!.endpoint;
  process.env.TABLE_NAME = TABLE_NAME;
  return async () => {
    await Promise.all(databases.map((database) => database.stop()));
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoints: string[];
    tableName: string;
  }
}
