/**
 * In-process API driver for the tests and the benchmark's diagnostics: builds API Gateway HTTP API (payload 2.0)
 * events and calls the real handler modules, which talk to whatever DynamoDB the environment points at.
 * test/support/api.ts adds the OpenAPI contract check to every call (`responseChecks`).
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { handler as historyHandler } from '../../functions/history/handler.ts';
import { handler as invoicesHandler } from '../../functions/invoices/handler.ts';
import { handler as paymentsHandler } from '../../functions/payments/handler.ts';
import { type ApiFunctionName, type RouteName, routeNamed } from '../../shared/routes.ts';
import { type AccountOptions, createAccount } from '../../shared/store/accounts.ts';

const handlers: Record<ApiFunctionName, typeof invoicesHandler> = {
  invoices: invoicesHandler,
  payments: paymentsHandler,
  history: historyHandler,
};

export interface CallOptions {
  key?: string | undefined;
  /** Raw body string; objects are JSON-encoded. */
  body?: unknown;
  headers?: Record<string, string>;
  contentType?: string | null;
  idempotencyKey?: string;
  /** Encode the body as base64 with isBase64Encoded, as sam's generated events do. */
  base64?: boolean;
  /** Send Title-Case header names, as `sam local start-api` does. */
  titleCaseHeaders?: boolean;
  /** Time the Lambda context reports as left (default 10 s, the functions' timeout). */
  budgetMs?: number;
  /** Values of the route's path parameters (`{ reference_code: '…' }`, `{ id: '7' }`). */
  pathParameters?: Record<string, string>;
  /** Query string parameters. */
  query?: Record<string, string>;
  /** The method to send instead of the route's own (one of its extra methods, e.g. GET for history). */
  method?: string;
}

/** The route's path with its parameters filled in (percent-encoded, as a client sends them). */
function concretePath(path: string, parameters: Record<string, string> = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(parameters[name] ?? ''));
}

export interface CallResult {
  status: number;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: callers read bodies by path; each is checked against the OpenAPI schema instead
  body: any;
  rawBody: string;
}

const titleCase = (name: string) =>
  name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/** The request's headers: content type, key and Idempotency-Key from the options, then its own (Title-Case on demand). */
function eventHeaders(options: CallOptions): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': 'vitest', host: 'localhost' };
  if (options.contentType !== null) headers['content-type'] = options.contentType ?? 'application/json';
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
  Object.assign(headers, options.headers);
  return options.titleCaseHeaders
    ? Object.fromEntries(Object.entries(headers).map(([k, v]) => [titleCase(k), v]))
    : headers;
}

export function makeEvent(route: RouteName, options: CallOptions = {}): APIGatewayProxyEventV2 {
  const definition = routeNamed(route);
  const method = options.method ?? definition.method;
  const path = concretePath(definition.path, options.pathParameters);
  const rawQueryString = new URLSearchParams(options.query ?? {}).toString();
  const finalHeaders = eventHeaders(options);
  const rawBody =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const requestId = randomUUID();
  return {
    version: '2.0',
    routeKey: `${method} ${definition.path}`,
    rawPath: path,
    rawQueryString,
    headers: finalHeaders,
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
    ...(options.query ? { queryStringParameters: options.query } : {}),
    requestContext: {
      accountId: 'test',
      apiId: 'test',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method,
        path,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'vitest',
      },
      requestId,
      routeKey: `${method} ${definition.path}`,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    ...(rawBody === undefined
      ? { isBase64Encoded: false }
      : options.base64
        ? { body: Buffer.from(rawBody).toString('base64'), isBase64Encoded: true }
        : { body: rawBody, isBase64Encoded: false }),
  } as APIGatewayProxyEventV2;
}

export function lambdaContext(budgetMs = 10_000): Context {
  const deadline = Date.now() + budgetMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:test',
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: 'test',
    logStreamName: 'test',
    getRemainingTimeInMillis: () => deadline - Date.now(),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Run on every response `call` gets (the tests check each against the OpenAPI document). */
export const responseChecks: ((route: RouteName, result: CallResult) => void)[] = [];

export async function call(route: RouteName, options: CallOptions = {}): Promise<CallResult> {
  const handler = handlers[routeNamed(route).function];
  const response = (await handler(makeEvent(route, options), lambdaContext(options.budgetMs))) as {
    statusCode: number;
    headers: Record<string, string>;
    body: string;
  };
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    body = undefined;
  }
  const result = { status: response.statusCode, headers: response.headers, body, rawBody: response.body };
  for (const check of responseChecks) check(route, result);
  return result;
}

export async function newAccount(options: Partial<AccountOptions> = {}) {
  const { account, secretKey } = await createAccount({ name: 'Test Co', ...options });
  return { account, key: secretKey };
}

let emailCounter = 0;
export const uniqueEmail = () => `client${Date.now()}${emailCounter++}@example.com`;

export function invoiceBody(overrides: Record<string, unknown> = {}) {
  return {
    client: { first_name: 'Ada', last_name: 'Obi', email: uniqueEmail(), phone: '+2348012345678' },
    due_date: '12/30/2030',
    fee_bearer: 'client',
    items: [{ item: 'Website Design', description: '5 pages', unit_cost: '50000.00', quantity: '1' }],
    ...overrides,
  };
}

/** MM/DD/YYYY of today in UTC (safe for accounts in Africa/Lagos except the first hour of a UTC day). */
export function todayMonthFirst(timeZone = 'Africa/Lagos'): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date());
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('month')}/${get('day')}/${get('year')}`;
}

export async function createInvoice(key: string, overrides: Record<string, unknown> = {}) {
  const result = await call('add-invoice', { key, body: invoiceBody(overrides) });
  if (result.status !== 201) throw new Error(`invoice creation failed: ${result.rawBody}`);
  return result.body.data;
}
