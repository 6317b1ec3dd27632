/**
 * Per-file setup: point the store at this worker's DynamoDB Local, started by global-setup.ts. In a project whose
 * worker runs many files in one process (`isolate: false`, vitest.config.ts), each file starts from the environment
 * the worker's first file had, with the configuration read again and no DynamoDB hook left by the file before: a file
 * that changes a setting for its tests cannot change it for the next file.
 */
import { inject } from 'vitest';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { resetConfig } from '../../shared/config.ts';

const WORKER_ENVIRONMENT = Symbol.for('invoicing.test.workerEnvironment');
const worker = globalThis as { [WORKER_ENVIRONMENT]?: NodeJS.ProcessEnv };
const first = (worker[WORKER_ENVIRONMENT] ??= { ...process.env });
for (const name of Object.keys(process.env)) if (!(name in first)) delete process.env[name];
Object.assign(process.env, first);

const endpoints = inject('dynamodbEndpoints');
process.env.DYNAMODB_ENDPOINT = endpoints[Number(process.env.VITEST_POOL_ID ?? 1) % endpoints.length];
process.env.TABLE_NAME = inject('tableName');
process.env.AWS_REGION ??= 'local';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true'; // EMF lines would clutter the test output; test/observability turns them on
resetConfig();
dynamoHooks.clear();
