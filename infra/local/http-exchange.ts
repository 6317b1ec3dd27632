/**
 * The raw HTTP side of the local API server (server.ts): reading a request body under a cap, writing a response,
 * an error in the service's envelope (docs/api.md "Envelopes"), a handler's payload 2.0 result normalised as API
 * Gateway does, and the answer to a request Node could not parse.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { errorBody, errorHeaders, errorResponse, type HttpResponse } from '../../shared/http/envelope.ts';
import { ApiError, failureOf } from '../../shared/http/errors.ts';
import { pageResponse } from '../../shared/http/page-responses.ts';
import { renderUnavailablePage } from '../../shared/render/invoice-page.ts';
import { isPublicRoute, type RouteDefinition } from '../../shared/routes.ts';
import { newApiGatewayRequestId } from './event.ts';

export interface RawResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: string | Buffer;
}

export function send(req: IncomingMessage, res: ServerResponse, response: RawResponse): void {
  if (res.headersSent) return;
  const body = typeof response.body === 'string' ? Buffer.from(response.body, 'utf8') : response.body;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  res.setHeader('content-length', body.length);
  res.writeHead(response.statusCode);
  res.end(req.method === 'HEAD' ? undefined : body);
}

export function sendError(
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
export function toHttpResponse(result: APIGatewayProxyResultV2): RawResponse | undefined {
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
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
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

/** The raw-HTTP failures Node reports before a request exists (malformed request line, headers over maxHeaderSize). */
function clientErrorResponse(code: string | undefined): { status: number; error: ApiError } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, error: new ApiError('validation_failed', 'The request headers are too large.') };
  }
  return { status: 400, error: new ApiError('validation_failed', 'Malformed HTTP request.') };
}

/** The server's `clientError` listener: the error envelope written on the socket, then the connection closed. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
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
