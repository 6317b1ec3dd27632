/**
 * The middy stack every Lambda handler shares. Order (docs/api.md "Request handling"): authentication
 * first, then the path parameters (each of its kind, else the 404 an unknown one gets), then the body (size,
 * content type, JSON/form parsing), then the route's own validation and work.
 * Every failure — parser errors, zod errors, DynamoDB errors, timeouts — leaves as the error envelope.
 */
import middy from '@middy/core';
import httpContentNegotiation from '@middy/http-content-negotiation';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { withCallDeadline, writeMayHaveCommitted } from '../call-deadline.ts';
import { type RouteName, routeNamed } from '../routes.ts';
import { type RequestContext, requestContext } from '../services/context.ts';
import type { HttpResponse } from './envelope.ts';
import { ApiError, OutcomeUnknownError, ServiceUnavailableError } from './errors.ts';
import { acceptWithoutParameters } from './middleware/accept-ranges.ts';
import { authenticate, authenticatedAccount } from './middleware/authenticate.ts';
import { bodyGate } from './middleware/body-gate.ts';
import { errorEnvelope } from './middleware/error-envelope.ts';
import { pageErrors } from './middleware/page-errors.ts';
import { pathParameterCheck } from './middleware/path-parameters.ts';
import { requestLog } from './middleware/request-log.ts';
import type { ApiContext, ApiInternal } from './middleware/types.ts';

export interface ApiRequest {
  /**
   * What the services need of the request, worked out once: the account, the request id and the account's dates
   * (shared/services/context.ts). The Idempotency-Key is left to the routes that take one (`withIdempotencyKey`).
   */
  context: RequestContext;
  /** Parsed JSON or form body (untrusted: validate it). */
  body: unknown;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  /** The route's path parameters (`reference_code`, `id`), as API Gateway decoded them; each matches its kind. */
  pathParameters: Record<string, string | undefined>;
  /** Query string parameters (repeated names comma-joined, as API Gateway passes them). */
  query: Record<string, string | undefined>;
  /** The path as requested (with a stage prefix, if any): what a `Link` to the next page names. */
  path: string;
  /** What the client asked for: `csv` (or `pdf`) on a route that offers it and an `Accept` that prefers it. */
  format: AnswerFormat;
}

export type AnswerFormat = 'json' | 'csv' | 'pdf';

export type RouteHandler = (request: ApiRequest) => Promise<HttpResponse>;

/** What a public route (no API key: the hosted page and its PDF) is given: no account, no body. */
export interface PublicRequest extends Pick<ApiRequest, 'headers' | 'pathParameters' | 'query'> {
  requestId: string;
}

export type PublicRouteHandler = (request: PublicRequest) => Promise<HttpResponse>;

/** What a provider's route (Paystack's webhook) is given: no account, and the body as the exact bytes received. */
export interface ProviderRequest extends PublicRequest {
  body: Buffer;
}

export type ProviderRouteHandler = (request: ProviderRequest) => Promise<HttpResponse>;

/** The largest provider body read (Paystack's events are a few KB); a larger one is 413 and nothing is stored. */
export const MAX_PROVIDER_BODY_BYTES = 256 * 1024;

/** middy answers this long before the function's timeout (payload 2.0 needs a response, not a timeout). */
const EARLY_RESPONSE_MS = 250;
/** Every database call has ended this long before middy's early answer: time to build the response. */
const RESPONSE_MARGIN_MS = 250;

/** The moment by which every DynamoDB call of this invocation must have ended (docs/api.md "Ambiguous outcomes"). */
export function callDeadline(context: Context): number {
  return Date.now() + context.getRemainingTimeInMillis() - EARLY_RESPONSE_MS - RESPONSE_MARGIN_MS;
}

export function createApiHandler(route: RouteName, run: RouteHandler) {
  return withDeadline(buildMiddyHandler(route, run));
}

/** A public route's handler: no authentication, no body, and its errors as HTML pages (`pageErrors`). */
export function createPublicHandler(route: RouteName, run: PublicRouteHandler) {
  const handler = baseStack(route)
    .use(pageErrors())
    .use(httpHeaderNormalizer())
    .use(pathParameterCheck(routeNamed(route).parameters))
    .handler((event, context) =>
      run({
        headers: event.headers ?? {},
        pathParameters: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        requestId: event.requestContext?.requestId ?? context.awsRequestId,
      }),
    );
  return withDeadline(handler);
}

/**
 * A provider's route handler: no authentication and no body parsing — its body reaches it byte for byte (base64 as
 * API Gateway sends a binary body, else the UTF-8 text it was), since a signature covers those bytes — and its errors
 * as the JSON envelope.
 */
export function createProviderHandler(route: RouteName, run: ProviderRouteHandler) {
  const handler = baseStack(route)
    .use(errorEnvelope())
    .use(httpHeaderNormalizer())
    .use(pathParameterCheck(routeNamed(route).parameters))
    .handler((event, context) =>
      run({
        body: rawBodyOf(event),
        headers: event.headers ?? {},
        pathParameters: event.pathParameters ?? {},
        query: event.queryStringParameters ?? {},
        requestId: event.requestContext?.requestId ?? context.awsRequestId,
      }),
    );
  return withDeadline(handler);
}

function rawBodyOf(event: APIGatewayProxyEventV2): Buffer {
  const body =
    event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  if (body.length > MAX_PROVIDER_BODY_BYTES)
    throw new ApiError('payload_too_large', `The request body must be at most ${MAX_PROVIDER_BODY_BYTES / 1024} KiB.`);
  return body;
}

function withDeadline(handler: (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResponse>) {
  // The deadline scope wraps middy, so that its early-timeout answer can see whether a write was sent.
  return (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> =>
    typeof context?.getRemainingTimeInMillis === 'function'
      ? withCallDeadline(callDeadline(context), () => handler(event, context))
      : handler(event, context);
}

/** The stack's start, common to every route: the early timeout answer and the request log. */
function baseStack(route: RouteName) {
  return middy<APIGatewayProxyEventV2, HttpResponse, Error, ApiContext, ApiInternal>({
    timeoutEarlyInMillis: EARLY_RESPONSE_MS,
    timeoutEarlyResponse: () => {
      // A transaction that was sent and not refused may have committed: never invite a plain retry then.
      if (writeMayHaveCommitted()) throw new OutcomeUnknownError();
      throw new ServiceUnavailableError('The request timed out. Retry shortly.');
    },
  }).use(requestLog({ route }));
}

function buildMiddyHandler(route: RouteName, run: RouteHandler) {
  const handler = baseStack(route)
    .use(errorEnvelope())
    .use(httpHeaderNormalizer())
    .use(authenticate())
    .use(pathParameterCheck(routeNamed(route).parameters));
  const { takesBody, optionalBody, csv, pdf } = routeNamed(route);
  // An Accept naming none of the types is answered with JSON (as if it were absent), never 406; media-type parameters
  // (`text/csv; charset=utf-8`) do not stop a match.
  const mediaTypes = [JSON_TYPE, ...(csv ? [CSV_TYPE] : []), ...(pdf ? [PDF_TYPE] : [])];
  if (mediaTypes.length > 1)
    handler
      .use(acceptWithoutParameters())
      .use(httpContentNegotiation({ ...ONLY_MEDIA_TYPES, availableMediaTypes: mediaTypes }));
  if (takesBody)
    handler
      .use(bodyGate({ emptyIsObject: optionalBody === true }))
      .use(httpJsonBodyParser({ disableContentTypeError: true }));
  return handler.handler((event, context) =>
    run({
      context: requestContext(authenticatedAccount(context), event.requestContext?.requestId ?? context.awsRequestId),
      body: takesBody ? event.body : undefined,
      headers: event.headers ?? {},
      pathParameters: event.pathParameters ?? {},
      query: event.queryStringParameters ?? {},
      path: event.rawPath ?? event.requestContext?.http?.path ?? '',
      format: FORMAT_OF[(context as { preferredMediaType?: string }).preferredMediaType ?? JSON_TYPE] ?? 'json',
    }),
  );
}

const JSON_TYPE = 'application/json';
const CSV_TYPE = 'text/csv';
const PDF_TYPE = 'application/pdf';
const FORMAT_OF: Record<string, AnswerFormat> = { [JSON_TYPE]: 'json', [CSV_TYPE]: 'csv', [PDF_TYPE]: 'pdf' };
const ONLY_MEDIA_TYPES = { parseCharsets: false, parseEncodings: false, parseLanguages: false, failOnMismatch: false };
