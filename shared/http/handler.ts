/**
 * The middy stack every Lambda handler shares. Order (SPEC §1): authentication first, then the body
 * (size, content type, JSON/form parsing), then the route's own validation and work. Every failure —
 * parser errors, zod errors, DynamoDB errors, timeouts — leaves through `onError` as the error envelope.
 */
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { ApiError, OutcomeUnknownError, ServiceUnavailableError } from '../errors';
import { withCallDeadline, writeMayHaveCommitted } from '../store/deadline';
import { TRAILING_SLASH_VARIABLE, type RouteName } from '../routes';
import type { Account } from '../store/accounts';
import { authenticate } from './auth';
import { prepareBody } from './body';
import { errorResponse, toApiError, type HttpResponse } from './envelope';
import { captureColdStart, finishInvocation, logger } from '../observability';

export interface ApiRequest {
  account: Account;
  /** Parsed JSON or form body (untrusted: validate it). */
  body: unknown;
  /** Lower-cased header names. */
  headers: Record<string, string | undefined>;
  requestId: string;
}

type Internal = { startedAt: number };
type AuthenticatedContext = Context & { account?: Account };
type Request = middy.Request<APIGatewayProxyEventV2, HttpResponse, Error, Context, Internal>;

const requestIdOf = (request: Request): string =>
  request.event.requestContext?.requestId ?? request.context.awsRequestId ?? 'unknown';

function logOutcome(route: RouteName, request: Request, statusCode: number, errorCode?: string, cause?: unknown) {
  const fields = {
    route,
    request_id: requestIdOf(request),
    company_id: (request.context as AuthenticatedContext).account?.companyId,
    status: statusCode,
    latency_ms: Math.round(performance.now() - request.internal.startedAt),
    ...(errorCode ? { error_code: errorCode } : {}),
  };
  if (statusCode >= 500) logger.error('request failed', { ...fields, error: cause instanceof Error ? { name: cause.name, message: cause.message, stack: cause.stack } : String(cause) });
  else logger.info('request', fields);
  finishInvocation(route, errorCode);
}

/** The `code` of an error envelope (it comes right after `"status":"error"`), without parsing the whole body. */
const errorCodeOf = (body: string | undefined): string | undefined => /^\{"status":"error","code":"([a-z_]+)"/.exec(body ?? '')?.[1];

/** middy answers this long before the function's timeout (payload 2.0 needs a response, not a timeout). */
const EARLY_RESPONSE_MS = 250;
/** Every database call has ended this long before middy's early answer: time to build the response. */
const RESPONSE_MARGIN_MS = 250;

/** The moment by which every DynamoDB call of this invocation must have ended (docs/api.md "Ambiguous outcomes"). */
export function callDeadline(context: Context): number {
  return Date.now() + context.getRemainingTimeInMillis() - EARLY_RESPONSE_MS - RESPONSE_MARGIN_MS;
}

export function createApiHandler(route: RouteName, run: (request: ApiRequest) => Promise<HttpResponse>) {
  const handler = buildMiddyHandler(route, run);
  // The deadline scope wraps middy, so that its early-timeout answer can see whether a write was sent.
  return (event: APIGatewayProxyEventV2, context: Context): Promise<HttpResponse> =>
    typeof context?.getRemainingTimeInMillis === 'function'
      ? withCallDeadline(callDeadline(context), () => handler(event, context))
      : handler(event, context);
}

function buildMiddyHandler(route: RouteName, run: (request: ApiRequest) => Promise<HttpResponse>) {
  return middy<APIGatewayProxyEventV2, HttpResponse, Error, Context, Internal>({
    timeoutEarlyInMillis: EARLY_RESPONSE_MS,
    timeoutEarlyResponse: () => {
      // A transaction that was sent and not refused may have committed: never invite a plain retry then.
      if (writeMayHaveCommitted()) throw new OutcomeUnknownError();
      throw new ServiceUnavailableError('The request timed out. Retry shortly.');
    },
  })
    .use({
      before: (request: Request) => {
        request.internal = { startedAt: performance.now() } as Internal;
        logger.addContext(request.context);
        captureColdStart(request.context.functionName);
        // The trailing-slash twin of a route is a greedy route on API Gateway: only the empty child is this route.
        if (request.event.pathParameters?.[TRAILING_SLASH_VARIABLE]) {
          throw new ApiError('route_not_found', `No route for ${request.event.requestContext?.http?.method ?? ''} ${request.event.rawPath ?? ''}.`.trim());
        }
      },
      after: (request: Request) => {
        const status = request.response?.statusCode ?? 200;
        // Stored or replayed 403/404/409 outcomes (SPEC §7) leave as plain responses: take their code from the envelope.
        logOutcome(route, request, status, status >= 400 ? errorCodeOf(request.response?.body) : undefined);
      },
      onError: (request: Request) => {
        let error: ApiError;
        const raw = request.error;
        const status = (raw as { statusCode?: number } | null)?.statusCode;
        // @middy/http-json-body-parser reports malformed JSON as a 415; our body gate already decided the type.
        if (!(raw instanceof ApiError) && status === 415) {
          error = new ApiError('invalid_json', 'The request body is not valid JSON.');
        } else {
          error = toApiError(raw);
        }
        // A failure after a transaction that committed (or may have) must not invite a plain retry.
        if (error.status >= 500 && error.code !== 'outcome_unknown' && writeMayHaveCommitted()) error = new OutcomeUnknownError(raw);
        request.response = errorResponse(error, requestIdOf(request));
        logOutcome(route, request, error.status, error.code, raw);
      },
    })
    .use(httpHeaderNormalizer())
    .use({
      before: async (request: Request) => {
        (request.context as AuthenticatedContext).account = await authenticate(request.event.headers?.authorization);
        prepareBody(request.event);
      },
    })
    .use(httpJsonBodyParser({ disableContentTypeError: true }))
    .handler(async (event, context) => {
      const account = (context as AuthenticatedContext).account;
      if (!account) throw new ApiError('invalid_api_key', 'Invalid or missing API key.');
      return run({
        account,
        body: event.body,
        headers: event.headers ?? {},
        requestId: event.requestContext?.requestId ?? context.awsRequestId,
      });
    });
}
