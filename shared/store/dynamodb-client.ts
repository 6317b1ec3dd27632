/**
 * The one DynamoDB client of a process (built at module scope, reused across warm invocations).
 * Tests and the benchmark observe it through its middleware stack (infra/tools/dynamo-hooks.ts).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DeadlineReachedError, remainingCallTime } from '../call-deadline.ts';
import { loadConfig, tracingEnabledIn } from '../config.ts';

/**
 * X-Ray tracing of every DynamoDB call (Powertools Tracer), only in Lambda with tracing on: the CDK stack sets
 * `tracing: ACTIVE`; POWERTOOLS_TRACE_ENABLED=false turns it off. Imported lazily because the X-Ray SDK it
 * loads is costly at cold start and useless locally and in tests, where this stays undefined.
 */
const tracer = tracingEnabledIn(process.env) ? new (await import('@aws-lambda-powertools/tracer')).Tracer() : undefined;

/**
 * Explicit timeouts and retries, so that every DynamoDB call ends well before the function's own timeout
 * (10 s) and an answer never leaves while a write is still in flight (docs/api.md "Ambiguous outcomes").
 * DynamoDB answers in milliseconds; a request that has not completed within 1.5 s is stuck, not slow.
 * One SDK retry (standard mode); the write executor resends a transaction itself, with the same token.
 */
export const DYNAMODB_TIMEOUTS = {
  /** TCP (and TLS) connection establishment. */
  connectionTimeoutMs: 1_000,
  /** One attempt, from sending the request to the end of the response (connection included). */
  requestTimeoutMs: 1_500,
  /** Attempts per call, first included. */
  maxAttempts: 2,
  retryMode: 'standard',
} as const;

/** Below this much time left before the invocation's deadline, a call is not started (it could not finish). */
export const MIN_TIME_TO_START_CALL_MS = 100;

function buildClient(): DynamoDBDocumentClient {
  const config = loadConfig();
  const base = new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint
      ? {
          endpoint: config.dynamodbEndpoint,
          credentials: config.localCredentials,
        }
      : {}),
    // The handler decides about retries of conflicts itself; the SDK retries throttling and timeouts once.
    maxAttempts: DYNAMODB_TIMEOUTS.maxAttempts,
    retryMode: DYNAMODB_TIMEOUTS.retryMode,
    requestHandler: {
      connectionTimeout: DYNAMODB_TIMEOUTS.connectionTimeoutMs,
      requestTimeout: DYNAMODB_TIMEOUTS.requestTimeoutMs,
      throwOnRequestTimeout: true,
    },
  });
  // Outermost: no call starts too close to the invocation's deadline, and none is awaited past it.
  base.middlewareStack.add(
    (next) => async (args) => {
      const remaining = remainingCallTime();
      if (remaining === Infinity) return next(args);
      if (remaining < MIN_TIME_TO_START_CALL_MS) throw new DeadlineReachedError(false);
      const call = next(args);
      call.catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new DeadlineReachedError(true)), remaining)),
      );
      try {
        return await Promise.race([call, expired]);
      } finally {
        clearTimeout(timer);
      }
    },
    { step: 'initialize', priority: 'high', name: 'invocationDeadline', override: true },
  );
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
