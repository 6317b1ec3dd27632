/**
 * Turns a raw Node HTTP request into the API Gateway HTTP API (payload format 2.0) event and the
 * Lambda context that a deployed function receives, so the local runtime runs the handlers on the
 * same inputs as AWS. Pure apart from the clock and random ids, which callers may pin.
 */
import { isUtf8 } from 'node:buffer';
import { randomBytes, randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

/** The parts of an incoming HTTP request the event is built from. */
export interface RawHttpRequest {
  method: string;
  /** The request target as received, e.g. `/payments/history?x=1`. */
  url: string;
  /**
   * Node's `req.rawHeaders` (`[name, value, name, value, …]`, every repetition kept) or a header
   * object (`req.headers`, where array values are repetitions).
   */
  headers: readonly string[] | Readonly<Record<string, string | readonly string[] | undefined>>;
  body: Buffer;
  remoteAddress?: string | undefined;
  /** `1.1` or `2.0`; default `1.1`. */
  httpVersion?: string | undefined;
  /** The port the local server listens on, reported as `x-forwarded-port`. */
  localPort?: number | undefined;
}

export interface EventOptions {
  /** `POST /invoices` for a matched route; default `$default`. */
  routeKey?: string;
  /** Fixed for tests; default now. */
  now?: Date;
  /** Fixed for tests; default a fresh id shaped like API Gateway's. */
  requestId?: string;
  /** The matched route's path parameters (decoded), as API Gateway passes them. */
  pathParameters?: Record<string, string>;
}

/**
 * Media types whose bodies API Gateway HTTP APIs hand to Lambda as UTF-8 text. Everything else,
 * including a missing content type and (as on AWS) `application/x-www-form-urlencoded`, arrives
 * base64-encoded with `isBase64Encoded: true`, so the handlers must decode it on AWS too.
 */
export function isTextContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    mediaType.startsWith('text/') ||
    mediaType === 'application/json' ||
    mediaType === 'application/xml' ||
    mediaType === 'application/javascript' ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml')
  );
}

/** A request id shaped like API Gateway's (`JKJaXmPLvHcESHA=`). */
export function newApiGatewayRequestId(): string {
  return `${randomBytes(11).toString('base64url')}=`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `12/Mar/2020:19:03:58 +0000`, the format of `requestContext.time`. */
export function formatRequestTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`
  );
}

function headerPairs(headers: RawHttpRequest['headers']): [string, string][] {
  const pairs: [string, string][] = [];
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([headers[i]!, headers[i + 1]!]);
    return pairs;
  }
  for (const [name, value] of Object.entries(headers as Record<string, string | readonly string[] | undefined>)) {
    if (value === undefined) continue;
    for (const v of typeof value === 'string' ? [value] : value) pairs.push([name, v]);
  }
  return pairs;
}

function decodeComponent(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Like API Gateway: values percent-decoded (`+` left as is), repeated names comma-joined. */
export function parseQueryString(rawQueryString: string): Record<string, string> | undefined {
  if (rawQueryString === '') return undefined;
  const parameters: Record<string, string> = {};
  for (const part of rawQueryString.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeComponent(eq === -1 ? part : part.slice(0, eq));
    const value = eq === -1 ? '' : decodeComponent(part.slice(eq + 1));
    parameters[name] = name in parameters ? `${parameters[name]},${value}` : value;
  }
  return Object.keys(parameters).length > 0 ? parameters : undefined;
}

/** Splits a request target into its raw path and raw query string (an absolute-form target loses its origin). */
export function splitTarget(url: string): { rawPath: string; rawQueryString: string } {
  let target = url.split('#')[0]!;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || '/';
  const q = target.indexOf('?');
  return q === -1
    ? { rawPath: target, rawQueryString: '' }
    : { rawPath: target.slice(0, q), rawQueryString: target.slice(q + 1) };
}

function sourceIp(remoteAddress: string | undefined): string {
  if (!remoteAddress) return '127.0.0.1';
  return remoteAddress.startsWith('::ffff:') ? remoteAddress.slice('::ffff:'.length) : remoteAddress;
}

/** The event's headers and cookies (as toApiGatewayEvent describes them). */
function apiGatewayHeaders(
  request: RawHttpRequest,
  ip: string,
  now: Date,
): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [rawName, value] of headerPairs(request.headers)) {
    const name = rawName.toLowerCase();
    if (name === 'cookie') {
      cookies.push(
        ...value
          .split(';')
          .map((c) => c.trim())
          .filter((c) => c !== ''),
      );
      continue;
    }
    headers[name] = name in headers ? `${headers[name]},${value}` : value;
  }
  headers['x-forwarded-for'] = headers['x-forwarded-for'] ? `${headers['x-forwarded-for']}, ${ip}` : ip;
  headers['x-forwarded-port'] = String(request.localPort ?? 80);
  headers['x-forwarded-proto'] = 'http';
  headers['x-amzn-trace-id'] ??=
    `Root=1-${Math.floor(now.getTime() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`;
  return { headers, cookies };
}

/**
 * Builds the event API Gateway HTTP API sends a Lambda proxy integration (payload 2.0): header names
 * lower-cased and repeated headers comma-joined, `cookie` headers moved to `cookies`, the
 * `x-forwarded-*` and `x-amzn-trace-id` headers API Gateway adds, and a text or base64 body.
 */
export function toApiGatewayEvent(request: RawHttpRequest, options: EventOptions = {}): APIGatewayProxyEventV2 {
  const now = options.now ?? new Date();
  const requestId = options.requestId ?? newApiGatewayRequestId();
  const method = request.method.toUpperCase();
  const { rawPath, rawQueryString } = splitTarget(request.url);
  const ip = sourceIp(request.remoteAddress);
  const { headers, cookies } = apiGatewayHeaders(request, ip, now);
  const host = headers.host ?? 'localhost';
  const domainName = host.replace(/:\d+$/, '');
  const hasBody = request.body.length > 0;
  // A "text" body that is not valid UTF-8 is passed base64-encoded, bytes intact, so the handler can refuse it
  // (a UTF-8 string would have turned the invalid bytes into U+FFFD).
  const text = isTextContentType(headers['content-type']) && isUtf8(request.body);
  const routeKey = options.routeKey ?? '$default';

  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    ...(cookies.length > 0 ? { cookies } : {}),
    headers,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0]!,
      http: {
        method,
        path: rawPath,
        protocol: `HTTP/${request.httpVersion ?? '1.1'}`,
        sourceIp: ip,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: formatRequestTime(now),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: hasBody && !text,
  };
  const queryStringParameters = parseQueryString(rawQueryString);
  if (queryStringParameters) event.queryStringParameters = queryStringParameters;
  if (options.pathParameters && Object.keys(options.pathParameters).length > 0)
    event.pathParameters = options.pathParameters;
  if (hasBody) event.body = text ? request.body.toString('utf8') : request.body.toString('base64');
  return event;
}

export interface ContextOptions {
  functionName: string;
  /** The invocation's time budget; default 30 s (API Gateway's integration limit). */
  timeoutMs?: number;
  memoryLimitInMB?: number;
  region?: string;
  /** Fixed for tests; default now. */
  startedAt?: number;
}

const notSupported = (name: string) => () => {
  throw new Error(`context.${name}() is not supported: return a value or a promise from the handler.`);
};

/** One log stream per function for the life of the process, as a warm Lambda container keeps its own. */
const logStreams = new Map<string, string>();
function logStreamOf(functionName: string): string {
  let stream = logStreams.get(functionName);
  if (!stream) {
    const day = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
    stream = `${day}/[$LATEST]${randomBytes(16).toString('hex')}`;
    logStreams.set(functionName, stream);
  }
  return stream;
}

/** A Lambda context for one local invocation, with a remaining-time clock counting down from `timeoutMs`. */
export function createLambdaContext(options: ContextOptions): Context {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = (options.startedAt ?? Date.now()) + timeoutMs;
  const region = options.region ?? process.env.AWS_REGION ?? 'local';
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: options.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${options.functionName}`,
    memoryLimitInMB: String(options.memoryLimitInMB ?? 256),
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${options.functionName}`,
    logStreamName: logStreamOf(options.functionName),
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: notSupported('done'),
    fail: notSupported('fail'),
    succeed: notSupported('succeed'),
  };
}
