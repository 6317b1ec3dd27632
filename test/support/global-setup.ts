/**
 * Vitest global setup: one in-memory DynamoDB Local on a free port for the whole run, warmed
 * (test/support/warm-up.ts), with the table created from the shared definition. Test files see it through
 * DYNAMODB_ENDPOINT and TABLE_NAME.
 */
import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, ensureTable, startDynamoDbLocal } from '../../infra/local/dynamodb-local.ts';
import { warmUp } from './warm-up.ts';

let database: DynamoDbLocal | undefined;

export default async function setup(project: TestProject) {
  database = await startDynamoDbLocal();
  await warmUp(database.endpoint);
  const tableName = 'invoicing-test';
  await ensureTable(database.endpoint, tableName);
  project.provide('dynamodbEndpoint', database.endpoint);
  project.provide('tableName', tableName);
  process.env.DYNAMODB_ENDPOINT = database.endpoint;
  process.env.TABLE_NAME = tableName;
  return async () => {
    await database?.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
    tableName: string;
  }
}
