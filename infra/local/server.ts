/**
 * The local stand-in for API Gateway: a `node:http` server that matches the route table, turns each
 * request into a payload 2.0 event and invokes the same handler module Lambda runs.
 * Errors it produces itself (400/431 from the raw HTTP layer, 401 before its body cap, 404, 405, 413, 500,
 * 503, 504) use the service's error envelope (docs/api.md "Envelopes").
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { ApiError, invalidApiKey, OutcomeUnknownError, ServiceUnavailableError } from '../../shared/errors.ts';
import { errorBody, errorHeaders, errorResponse, type HttpResponse } from '../../shared/http/envelope.ts';
import { pageResponse } from '../../shared/http/page-responses.ts';
import { failure } from '../../shared/outcome.ts';
import { renderUnavailablePage } from '../../shared/render/invoice-page.ts';
import { hasPathParameters, matchRoutePath } from '../../shared/route-match.ts';
import { isPublicRoute, ROUTES, type RouteDefinition, routeKeys } from '../../shared/routes.ts';
import { FUNCTION_TIMEOUT_MS } from '../function-timeout.ts';
import { createLambdaContext, newApiGatewayRequestId, toApiGatewayEvent } from './event.ts';

/** A payload 2.0 Lambda handler, as exported by `functions/<name>/handler.ts`. */
export type LambdaHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyResultV2> | APIGatewayProxyResultV2;

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

/** Routes that write: when their invocation times out, the write may have committed. */

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

/** The raw-HTTP failures Node reports before a request exists (malformed request line, headers over maxHeaderSize). */
function clientErrorResponse(code: string | undefined): { status: number; error: ApiError } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, error: new ApiError('validation_failed', 'The request headers are too large.') };
  }
  return { status: 400, error: new ApiError('validation_failed', 'Malformed HTTP request.') };
}

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

function send(
  req: IncomingMessage,
  res: ServerResponse,
  response: { statusCode: number; headers: Record<string, string | string[]>; body: string | Buffer },
) {
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
) {
  // A page people open (shared/routes.ts `access: 'public'`) fails with an HTML page, as its handler does.
  const response: HttpResponse =
    route && isPublicRoute(route)
      ? pageResponse(error.status, renderUnavailablePage())
      : errorResponse(error, requestId);
  send(req, res, { ...response, headers: { ...response.headers, 'apigw-requestid': requestId, ...extraHeaders } });
}

/** Normalises what a handler returned the way API Gateway does for payload 2.0. */
function toHttpResponse(
  result: APIGatewayProxyResultV2,
): { statusCode: number; headers: Record<string, string | string[]>; body: string | Buffer } | undefined {
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

/** Reads the body, or reports that it exceeds `limit` (the excess is drained, not kept). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    req.on('end', () => resolveBody(tooLarge ? 'too_large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Creates the local API server. Order of answers, as on AWS: unknown path (404) and wrong method
 * (405) first, then 503 while not ready, then 413 for an oversized body, then the handler.
 */
export function createLocalServer(options: LocalServerOptions = {}): LocalServer {
  const routes = options.routes ?? ROUTES;
  const staticRoutes = options.staticRoutes ?? {};
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const timeoutMs = options.timeoutMs ?? FUNCTION_TIMEOUT_MS;
  const isAuthenticated = options.isAuthenticated ?? handlersAuthenticate;
  // Literal paths first: like API Gateway, `/invoices/history` is preferred to `/invoices/{reference_code}`.
  const routeTable = routes
    .flatMap((route) => routeKeys(route).map((key) => ({ route, ...key })))
    .sort((a, b) => Number(hasPathParameters(a.path)) - Number(hasPathParameters(b.path)));
  const matchPath = (path: string) =>
    routeTable.flatMap((entry) => {
      const parameters = matchRoutePath(entry.path, path);
      return parameters ? [{ ...entry, parameters }] : [];
    });
  const rootDir = options.rootDir ?? process.cwd();
  const loadHandler = options.loadHandler ?? ((route: RouteDefinition) => importHandler(route, rootDir));
  const logger = options.logger ?? { error: (message: string, error: unknown) => console.error(message, error) };
  // One import per route for the life of the server (a Lambda's warm container), retried after a failure.
  const handlers = new Map<string, Promise<LambdaHandler>>();

  function handlerFor(route: RouteDefinition): Promise<LambdaHandler> {
    let loading = handlers.get(route.name);
    if (!loading) {
      loading = loadHandler(route);
      handlers.set(route.name, loading);
      loading.catch(() => handlers.delete(route.name));
    }
    return loading;
  }

  async function invoke(
    route: RouteDefinition,
    event: APIGatewayProxyEventV2,
  ): Promise<APIGatewayProxyResultV2 | 'timeout'> {
    const handler = await handlerFor(route);
    const context = createLambdaContext({ functionName: route.function, timeoutMs });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
    try {
      return await Promise.race([Promise.resolve().then(() => handler(event, context)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, server: LocalServer): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const path = url.split('?')[0]!.split('#')[0]!;
    const requestId = newApiGatewayRequestId();

    const staticRoute = staticRoutes[`${method} ${path}`];
    if (staticRoute) return staticRoute(req, res);

    const onPath = matchPath(path);
    if (onPath.length === 0) {
      req.resume();
      return sendError(req, res, new ApiError('route_not_found', `No route for ${method} ${path}.`), requestId);
    }
    const matched = onPath.find((r) => r.method === method);
    if (!matched) {
      req.resume();
      const allow = [...new Set(onPath.map((r) => r.method))].join(', ');
      return sendError(req, res, new ApiError('method_not_allowed', `${path} accepts ${allow} only.`), requestId, {
        allow,
      });
    }
    const route = matched.route;
    if (!server.ready) {
      req.resume();
      const starting = new ServiceUnavailableError('The service is starting. Retry shortly.');
      return sendError(req, res, starting, requestId, {}, route);
    }

    // Over the cap: 401 first when the key does not authenticate (as the handlers order it), else 413.
    const tooLarge = async () =>
      (await isAuthenticated(req.headers.authorization))
        ? new ApiError('payload_too_large', `The request body exceeds the local server's ${maxBodyBytes} byte limit.`)
        : invalidApiKey();
    if (Number(req.headers['content-length'] ?? 0) > maxBodyBytes) {
      req.resume();
      return sendError(req, res, await tooLarge(), requestId, { connection: 'close' });
    }
    const body = await readBody(req, maxBodyBytes);
    if (body === 'too_large') return sendError(req, res, await tooLarge(), requestId);

    const address = server.address();
    const event = toApiGatewayEvent(
      {
        method,
        url,
        headers: req.rawHeaders,
        body,
        remoteAddress: req.socket.remoteAddress,
        httpVersion: req.httpVersion,
        localPort: typeof address === 'object' && address ? address.port : undefined,
      },
      { routeKey: `${matched.method} ${matched.path}`, requestId, pathParameters: matched.parameters },
    );

    let result: APIGatewayProxyResultV2 | 'timeout';
    try {
      result = await invoke(route, event);
    } catch (error) {
      logger.error?.(`${route.name}: handler failed`, error);
      const internal = new ApiError('internal_error', 'An internal error occurred. It has been logged.');
      return sendError(req, res, internal, requestId, {}, route);
    }
    if (result === 'timeout') {
      logger.error?.(`${route.name}: no response within ${timeoutMs} ms`, undefined);
      // The handler may still be committing its write: never invite a plain retry then.
      const error = route.writes
        ? new OutcomeUnknownError()
        : new ServiceUnavailableError('The request timed out. Retry shortly.');
      return sendError(req, res, error, requestId, {}, route);
    }
    const response = toHttpResponse(result);
    if (!response) {
      logger.error?.(`${route.name}: malformed handler result`, result);
      return sendError(
        req,
        res,
        new ApiError('internal_error', 'An internal error occurred. It has been logged.'),
        requestId,
      );
    }
    send(req, res, { ...response, headers: { ...response.headers, 'apigw-requestid': requestId } });
  }

  const server = createServer((req, res) => {
    const started = performance.now();
    res.on('finish', () => {
      logger.request?.(`${req.method} ${req.url} ${res.statusCode} ${Math.round(performance.now() - started)} ms`);
    });
    handle(req, res, server).catch((error: unknown) => {
      logger.error?.('local server: unexpected error', error);
      if (!res.headersSent)
        sendError(req, res, new ApiError('internal_error', 'An internal error occurred.'), newApiGatewayRequestId());
      else res.destroy();
    });
  }) as LocalServer;
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const { status, error: apiError } = clientErrorResponse(error.code);
    const outcome = failure(apiError, newApiGatewayRequestId());
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
  });
  server.ready = options.ready ?? true;
  return server;
}
