/**
 * Per-file setup of the `unit` project (vitest.config.ts): no database. The store is pointed at a closed port, so
 * a test that reaches DynamoDB by mistake fails at once (ECONNREFUSED) instead of waiting on a database that was
 * never started; such a test belongs to the `dynamodb` project.
 */
process.env.DYNAMODB_ENDPOINT = 'http://127.0.0.1:9';
process.env.TABLE_NAME = 'no-database';
process.env.AWS_REGION ??= 'local';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
