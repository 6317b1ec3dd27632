/**
 * The one DynamoDB client of a process (built at module scope, reused across warm invocations).
 * Tests and the benchmark observe it through its middleware stack (test/support/dynamo-hooks.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config';

/**
 * X-Ray tracing of every DynamoDB call (Powertools Tracer), only in Lambda with tracing on: the CDK stack sets
 * `tracing: ACTIVE`; POWERTOOLS_TRACE_ENABLED=false turns it off. Imported lazily because the X-Ray SDK it
 * loads is costly at cold start and useless locally and in tests, where this stays undefined.
 */
const tracingEnabled =
  Boolean(process.env.AWS_LAMBDA_FUNCTION_NAME) &&
  process.env.POWERTOOLS_TRACE_ENABLED !== 'false' &&
  process.env.AWS_SAM_LOCAL !== 'true' &&
  !process.env.DYNAMODB_ENDPOINT;
const tracer = tracingEnabled ? new (await import('@aws-lambda-powertools/tracer')).Tracer() : undefined;

function buildClient(): DynamoDBDocumentClient {
  const config = loadConfig();
  const base = new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint
      ? {
          endpoint: config.dynamodbEndpoint,
          credentials: {
            accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? 'local',
            secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local',
          },
        }
      : {}),
    // The handler decides about retries of conflicts itself; the SDK retries throttling a little.
    maxAttempts: 3,
  });
  // The SDK's logger middleware builds a redacted copy of every request and response for its no-op default
  // logger (a deep walk of a 200-item BatchGetItem response on each history page). We log requests ourselves.
  base.middlewareStack.remove('loggerMiddleware');
  tracer?.captureAWSv3Client(base);
  return DynamoDBDocumentClient.from(base, {
    marshallOptions: { removeUndefinedValues: true },
  });
}

let client: DynamoDBDocumentClient | undefined;

/** The shared document client. */
export function documentClient(): DynamoDBDocumentClient {
  client ??= buildClient();
  return client;
}

export function tableName(): string {
  return loadConfig().tableName;
}
