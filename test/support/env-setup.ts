/** Per-worker setup: point the store at this worker's DynamoDB Local, started by global-setup.ts. */
import { inject } from 'vitest';

const endpoints = inject('dynamodbEndpoints');
process.env.DYNAMODB_ENDPOINT = endpoints[Number(process.env.VITEST_POOL_ID ?? 1) % endpoints.length];
process.env.TABLE_NAME = inject('tableName');
process.env.AWS_REGION ??= 'local';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true'; // EMF lines would clutter the test output; test/observability turns them on
