/**
 * The local stand-in for API Gateway: a `node:http` server that matches the route table, turns each
 * request into a payload 2.0 event and invokes the same handler module Lambda runs, imported once per route and
 * raced against the function's timeout. Errors it produces itself (400/431 from the raw HTTP layer, 401 before its
 * body cap, 404, 405, 413, 500, 503, 504) use the service's error envelope (docs/api.md "Envelopes").
 */

import type { Server } from 'node:http';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { routeKeys } from '../../shared/gateway-routes.ts';
import { errorBody, errorHeaders, errorResponse, type HttpResponse } from '../../shared/http/envelope.ts';
import {
  ApiError,
  failureOf,
  invalidApiKey,
  OutcomeUnknownError,
  ServiceUnavailableError,
} from '../../shared/http/errors.ts';
import { pageResponse } from '../../shared/http/page-responses.ts';
import { hasPathParameters, matchRoutePath } from '../../shared/path-parameters.ts';
import { renderUnavailablePage } from '../../shared/render/invoice-page.ts';
import { isPublicRoute, ROUTES, type RouteDefinition } from '../../shared/routes.ts';
import { FUNCTION_TIMEOUT_MS } from '../function-timeout.ts';
import { createLambdaContext, newApiGatewayRequestId, toApiGatewayEvent } from './event.ts';
import { readRequestBody } from './request-body.ts';

/** Serves a non-Lambda route (e.g. `GET /openapi.json`); keyed by `"<METHOD> <path>"`. */
export type StaticRoute = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface LocalServerOptions {
  /** Default: the service's route table. */
  routes?: readonly RouteDefinition[];
  /** Default: imports `route.entry` from `rootDir` and takes its `handler` export. */
  loadHandler?: (route: RouteDefinition) => Promise<LambdaHandler>;
  /** Extra routes served directly, keyed by `"GET /openapi.json"`; matched before the route table. */
  staticRoutes?: Record<string, StaticRoute>;
  /** Initial readiness; while false, route requests get 503. Default true. */
  ready?: boolean;
  /** Largest body buffered; beyond it 413 without invoking the handler. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Budget of one invocation (the handler's context counts down from it), after which the client gets
   * 504 `outcome_unknown` on a write route (a write may still be in flight) and 503 otherwise.
   * Default: the deployed functions' timeout.
   */
  timeoutMs?: number;
  /**
   * Whether an Authorization header would authenticate; asked only for a body over `maxBodyBytes`, so that
   * an unauthenticated request gets 401 before any body limit. Default: the handlers' own key check.
   */
  isAuthenticated?: (authorization: string | undefined) => Promise<boolean>;
  /** Repository root that `entry` paths are relative to. Default the current directory. */
  rootDir?: string;
  logger?: LocalServerLogger;
}

export interface LocalServerLogger {
  /** One line per request. */
  request?(line: string): void;
  /** Handler failures and other unexpected errors. */
  error?(message: string, error: unknown): void;
}

/** The `node:http` server, plus the readiness flag `npm start` flips once DynamoDB Local is up. */
export type LocalServer = Server & { ready: boolean };

const DEFAULT_MAX_BODY = 1024 * 1024;

/** A route-table entry that matched a request's path, with the path parameters it took from it. */
interface MatchedRoute {
  route: RouteDefinition;
  method: string;
  path: string;
  parameters: Record<string, string>;
}

/** What one server needs to answer a request, settled once from its options. */
interface ServerParts {
  staticRoutes: Record<string, StaticRoute>;
  matchPath(path: string): MatchedRoute[];
  maxBodyBytes: number;
  isAuthenticated(authorization: string | undefined): Promise<boolean>;
  invoker: HandlerInvoker;
  logger: LocalServerLogger;
}

async function handlersAuthenticate(authorization: string | undefined): Promise<boolean> {
  const { resolveAccount } = await import('../../shared/http/auth.ts');
  try {
    await resolveAccount(authorization);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_api_key') return false;
    throw error;
  }
}

/** Every route key's matches for a path; literal paths first, as API Gateway prefers `/invoices/history`. */
function routeMatcher(routes: readonly RouteDefinition[]): (path: string) => MatchedRoute[] {
  const routeTable = routes
    .flatMap((route) => routeKeys(route).map((key) => ({ route, ...key })))
    .sort((a, b) => Number(hasPathParameters(a.path)) - Number(hasPathParameters(b.path)));
  return (path) =>
    routeTable.flatMap((entry) => {
      const parameters = matchRoutePath(entry.path, path);
      return parameters ? [{ ...entry, parameters }] : [];
    });
}

function serverParts(options: LocalServerOptions): ServerParts {
  const rootDir = options.rootDir ?? process.cwd();
  const loadHandler = options.loadHandler ?? ((route: RouteDefinition) => importHandler(route, rootDir));
  return {
    staticRoutes: options.staticRoutes ?? {},
    matchPath: routeMatcher(options.routes ?? ROUTES),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY,
    isAuthenticated: options.isAuthenticated ?? handlersAuthenticate,
    invoker: new HandlerInvoker(loadHandler, options.timeoutMs ?? FUNCTION_TIMEOUT_MS),
    logger: options.logger ?? { error: (message: string, error: unknown) => console.error(message, error) },
  };
}

/**
 * Creates the local API server. Order of answers, as on AWS: unknown path (404) and wrong method
 * (405) first, then 503 while not ready, then 413 for an oversized body, then the handler.
 */
export function createLocalServer(options: LocalServerOptions = {}): LocalServer {
  const parts = serverParts(options);
  const server = createServer((req, res) => {
    const started = performance.now();
    res.on('finish', () => {
      parts.logger.request?.(
        `${req.method} ${req.url} ${res.statusCode} ${Math.round(performance.now() - started)} ms`,
      );
    });
    handle(parts, req, res, server).catch((error: unknown) => {
      parts.logger.error?.('local server: unexpected error', error);
      if (!res.headersSent)
        sendError(req, res, new ApiError('internal_error', 'An internal error occurred.'), newApiGatewayRequestId());
      else res.destroy();
    });
  }) as LocalServer;
  server.on('clientError', answerClientError);
  server.ready = options.ready ?? true;
  return server;
}

async function handle(parts: ServerParts, req: IncomingMessage, res: ServerResponse, server: LocalServer) {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = req.url ?? '/';
  const path = url.split('?')[0]!.split('#')[0]!;
  const requestId = newApiGatewayRequestId();

  const staticRoute = parts.staticRoutes[`${method} ${path}`];
  if (staticRoute) return staticRoute(req, res);
  const matched = matchRoute(parts, method, path, server.ready);
  if ('refusal' in matched) {
    req.resume();
    return sendError(req, res, matched.refusal, requestId, matched.headers, matched.route);
  }
  const body = await receiveBody(parts, req);
  if ('refusal' in body) return sendError(req, res, body.refusal, requestId, body.headers);
  const address = server.address();
  const event = toApiGatewayEvent(
    {
      method,
      url,
      headers: req.rawHeaders,
      body: body.body,
      remoteAddress: req.socket.remoteAddress,
      httpVersion: req.httpVersion,
      localPort: typeof address === 'object' && address ? address.port : undefined,
    },
    { routeKey: `${matched.method} ${matched.path}`, requestId, pathParameters: matched.parameters },
  );
  await answer(parts, req, res, matched.route, event);
}

type Refusal = { refusal: ApiError; headers?: Record<string, string>; route?: RouteDefinition };

/** The route a request is for, or what API Gateway answers first: 404, 405, then 503 while not ready. */
function matchRoute(parts: ServerParts, method: string, path: string, ready: boolean): MatchedRoute | Refusal {
  const onPath = parts.matchPath(path);
  if (onPath.length === 0) return { refusal: new ApiError('route_not_found', `No route for ${method} ${path}.`) };
  const matched = onPath.find((r) => r.method === method);
  if (!matched) {
    const allow = [...new Set(onPath.map((r) => r.method))].join(', ');
    return { refusal: new ApiError('method_not_allowed', `${path} accepts ${allow} only.`), headers: { allow } };
  }
  if (!ready)
    return { refusal: new ServiceUnavailableError('The service is starting. Retry shortly.'), route: matched.route };
  return matched;
}

/** The request body, or, over the cap, 401 when the key does not authenticate (as the handlers order it), else 413. */
async function receiveBody(parts: ServerParts, req: IncomingMessage): Promise<{ body: Buffer } | Refusal> {
  const tooLarge = async () =>
    (await parts.isAuthenticated(req.headers.authorization))
      ? new ApiError(
          'payload_too_large',
          `The request body exceeds the local server's ${parts.maxBodyBytes} byte limit.`,
        )
      : invalidApiKey();
  if (Number(req.headers['content-length'] ?? 0) > parts.maxBodyBytes) {
    req.resume();
    return { refusal: await tooLarge(), headers: { connection: 'close' } };
  }
  const body = await readRequestBody(req, parts.maxBodyBytes);
  return body === 'too_large' ? { refusal: await tooLarge() } : { body };
}

/** Invokes the route's handler and sends what it answered, or 500, or 504/503 when it timed out. */
async function answer(
  parts: ServerParts,
  req: IncomingMessage,
  res: ServerResponse,
  route: RouteDefinition,
  event: APIGatewayProxyEventV2,
) {
  const requestId = event.requestContext.requestId;
  const internalError = () => new ApiError('internal_error', 'An internal error occurred. It has been logged.');
  let result: Awaited<ReturnType<HandlerInvoker['invoke']>>;
  try {
    result = await parts.invoker.invoke(route, event);
  } catch (error) {
    parts.logger.error?.(`${route.name}: handler failed`, error);
    return sendError(req, res, internalError(), requestId, {}, route);
  }
  if (result === 'timeout') {
    parts.logger.error?.(`${route.name}: no response within ${parts.invoker.timeoutMs} ms`, undefined);
    // The handler may still be committing its write: never invite a plain retry then.
    const error = route.writes
      ? new OutcomeUnknownError()
      : new ServiceUnavailableError('The request timed out. Retry shortly.');
    return sendError(req, res, error, requestId, {}, route);
  }
  const response = toHttpResponse(result);
  if (!response) {
    parts.logger.error?.(`${route.name}: malformed handler result`, result);
    return sendError(req, res, internalError(), requestId);
  }
  send(req, res, { ...response, headers: { ...response.headers, 'apigw-requestid': requestId } });
}

// How a route's handler runs, as Lambda would run it: the handler module imported once per route for the life of the
// server (a warm container; retried after a failed import), and each invocation given a Lambda context and raced
// against the function's timeout.

/** A payload 2.0 Lambda handler, as exported by `functions/<name>/handler.ts`. */
export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyResultV2> | APIGatewayProxyResultV2;

/** Imports a handler module by its route-table entry, relative to `rootDir`. */
export async function importHandler(route: RouteDefinition, rootDir = process.cwd()): Promise<LambdaHandler> {
  const url = pathToFileURL(resolve(rootDir, route.entry)).href;
  let module: { handler?: unknown };
  try {
    module = (await import(url)) as { handler?: unknown };
  } catch (error) {
    const missing =
      (error as { code?: string; url?: string }).code === 'ERR_MODULE_NOT_FOUND' &&
      (error as { url?: string }).url === url;
    if (missing) throw new Error(`Handler module ${route.entry} does not exist (yet).`);
    throw error;
  }
  if (typeof module.handler !== 'function') throw new Error(`${route.entry} does not export a handler function`);
  return module.handler as LambdaHandler;
}

class HandlerInvoker {
  private readonly handlers = new Map<string, Promise<LambdaHandler>>();

  constructor(
    private readonly loadHandler: (route: RouteDefinition) => Promise<LambdaHandler>,
    readonly timeoutMs: number,
  ) {}

  /** The handler's result, or `'timeout'` when it did not answer within the function's timeout. */
  async invoke(route: RouteDefinition, event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2 | 'timeout'> {
    const handler = await this.handlerFor(route);
    const context = createLambdaContext({ functionName: route.function, timeoutMs: this.timeoutMs });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), this.timeoutMs)));
    try {
      return await Promise.race([Promise.resolve().then(() => handler(event, context)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private handlerFor(route: RouteDefinition): Promise<LambdaHandler> {
    let loading = this.handlers.get(route.name);
    if (!loading) {
      loading = this.loadHandler(route);
      this.handlers.set(route.name, loading);
      loading.catch(() => this.handlers.delete(route.name));
    }
    return loading;
  }
}

// The raw HTTP side: reading a request body under a cap, writing a response, an error in the service's envelope, a
// handler's payload 2.0 result normalised as API Gateway does, and the answer to a request Node could not parse.

interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: string | Buffer;
}

function send(req: IncomingMessage, res: ServerResponse, response: RawResponse): void {
  if (res.headersSent) return;
  const body = typeof response.body === 'string' ? Buffer.from(response.body, 'utf8') : response.body;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.setHeader('content-length', body.length);
  res.writeHead(response.statusCode);
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendError(
  req: IncomingMessage,
  res: ServerResponse,
  error: ApiError,
  requestId: string,
  extraHeaders: Record<string, string> = {},
  route?: RouteDefinition,
): void {
  // A page people open (shared/routes.ts `access: 'public'`) fails with an HTML page, as its handler does.
  const response: HttpResponse =
    route && isPublicRoute(route)
      ? pageResponse(error.status, renderUnavailablePage())
      : errorResponse(error, requestId);
  send(req, res, { ...response, headers: { ...response.headers, 'apigw-requestid': requestId, ...extraHeaders } });
}

/** Normalises what a handler returned the way API Gateway does for payload 2.0; `undefined` when it cannot. */
function toHttpResponse(result: APIGatewayProxyResultV2): RawResponse | undefined {
  if (typeof result === 'string')
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: result };
  if (result === null || typeof result !== 'object' || !('statusCode' in result) || result.statusCode === undefined) {
    // API Gateway infers a 200 JSON response from a result without statusCode.
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(result ?? null) };
  }
  const { statusCode } = result;
  if (!Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) return undefined;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  if (result.cookies && result.cookies.length > 0) headers['set-cookie'] = [...result.cookies];
  const rawBody = result.body ?? '';
  const body = result.isBase64Encoded ? Buffer.from(rawBody, 'base64') : rawBody;
  return { statusCode, headers, body };
}

/** The raw-HTTP failures Node reports before a request exists (malformed request line, headers over maxHeaderSize). */
function clientErrorResponse(code: string | undefined): { status: number; error: ApiError } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, error: new ApiError('validation_failed', 'The request headers are too large.') };
  }
  return { status: 400, error: new ApiError('validation_failed', 'Malformed HTTP request.') };
}

/** The server's `clientError` listener: the error envelope written on the socket, then the connection closed. */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
  const { status, error: apiError } = clientErrorResponse(error.code);
  const outcome = failureOf(apiError, newApiGatewayRequestId());
  const body = JSON.stringify(errorBody(outcome));
  const headers = {
    ...errorHeaders(outcome),
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n${head}\r\n\r\n${body}`,
  );
}
