/**
 * Response envelopes (docs/api.md "Envelopes"), and the one place where errors become HTTP responses; with them the
 * glue the route handlers share: the Idempotency-Key header in, a write's answer out.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { DeadlineReachedError } from '../call-deadline.ts';
import { Refusal } from '../domain/refusal.ts';
import { type Failure, isFailure, type Outcome } from '../outcome.ts';
import type { RequestContext } from '../services/context.ts';
import { isTransientDatabaseError } from '../store/database-errors.ts';
import {
  CommitUnconfirmedError,
  ConflictsOutlastedDeadlineError,
  IdempotencyKeyInFlightError,
  IdempotencyKeyReusedError,
  type WriteResult,
} from '../store/write-executor.ts';
import { ApiError, apiErrorOf, failureOf, OutcomeUnknownError, ServiceUnavailableError, statusOf } from './errors.ts';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export function successBody(data: unknown, message?: string) {
  return message === undefined ? { status: 'success', data } : { status: 'success', message, data };
}

export function errorBody(failure: Failure) {
  return {
    status: 'error',
    code: failure.code,
    message: failure.message,
    errors: failure.errors,
    request_id: failure.requestId,
  };
}

export function errorHeaders(failure: Failure): Record<string, string> {
  const headers: Record<string, string> = {};
  if (failure.code === 'invalid_api_key') headers['www-authenticate'] = 'Bearer';
  if (failure.retryAfterSeconds !== undefined) headers['retry-after'] = String(failure.retryAfterSeconds);
  return headers;
}

/**
 * The error code of each failure response, so the request log reads it without parsing the body. Only the code:
 * V8's young-generation collections keep a long-lived WeakMap's values alive whatever becomes of their keys, until
 * the next full collection, so a success's data kept here (a page of 100 client views) was promoted to the old
 * generation on every request and brought a full collection every second or so under load (CONTRIBUTING.md "Layers":
 * no side table of a request's objects).
 */
const errorCodes = new WeakMap<HttpResponse, string>();

export const errorCodeOf = (response: HttpResponse | undefined): string | undefined =>
  response ? errorCodes.get(response) : undefined;

function recordOutcome(response: HttpResponse, outcome: Outcome): HttpResponse {
  if (isFailure(outcome)) errorCodes.set(response, outcome.code);
  return response;
}

/** The one place an outcome becomes an HTTP response: status, headers and the JSON envelope. */
export function outcomeResponse(outcome: Outcome, headers: Record<string, string> = {}): HttpResponse {
  const response = isFailure(outcome)
    ? jsonResponse(statusOf(outcome), errorBody(outcome), { ...errorHeaders(outcome), ...headers })
    : jsonResponse(outcome.status, successBody(outcome.data, outcome.message), headers);
  return recordOutcome(response, outcome);
}

/** Records what a response not built by `outcomeResponse` (an HTML error page) came to, for the request log. */
export function withOutcome(response: HttpResponse, outcome: Outcome): HttpResponse {
  return recordOutcome(response, outcome);
}

/** What the Idempotency-Key header may hold (docs/api.md "Idempotency"). */
const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

/** The Idempotency-Key header, validated (docs/api.md "Idempotency": 1–255 printable ASCII characters). */
export function idempotencyKeyOf(headers: Record<string, string | undefined>): string | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_idempotency_key',
      'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
    );
  }
  return key;
}

/** The request's context with its Idempotency-Key, for the routes that take one (docs/api.md "Idempotency"). */
export const withIdempotencyKey = (
  context: RequestContext,
  headers: Record<string, string | undefined>,
): RequestContext => ({ ...context, idempotencyKey: idempotencyKeyOf(headers) });

/** A committed (or replayed) write as an HTTP response; replays carry `Idempotent-Replayed: true`. */
export function writeResponse(result: WriteResult): HttpResponse {
  return outcomeResponse(result.response, result.replayed ? { 'idempotent-replayed': 'true' } : {});
}

export function errorResponse(error: ApiError, requestId: string): HttpResponse {
  return outcomeResponse(failureOf(error, requestId));
}

/** The store's write failures (shared/store/write-executor.ts) and what the client is told of each. */
function writeFailureAnswer(error: unknown): ApiError | undefined {
  if (error instanceof IdempotencyKeyReusedError)
    return new ApiError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body.',
    );
  if (error instanceof IdempotencyKeyInFlightError)
    return new ApiError(
      'idempotency_request_in_progress',
      'A request with this Idempotency-Key is still being processed. Retry shortly.',
      [],
      { retryAfterSeconds: 1 },
    );
  if (error instanceof ConflictsOutlastedDeadlineError)
    return new ServiceUnavailableError(
      'The request conflicted with concurrent updates too many times. Retry shortly.',
      error,
    );
  if (error instanceof CommitUnconfirmedError) return new OutcomeUnknownError(error);
  return undefined;
}

/** Any thrown value → an ApiError. Internals (messages, stacks, AWS error text) never reach the client. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof Refusal) return apiErrorOf(error);
  const writeFailure = writeFailureAnswer(error);
  if (writeFailure) return writeFailure;
  // Reads only: a transaction's deadline is settled by the write executor (504 when its outcome is unknown).
  if (error instanceof DeadlineReachedError)
    return new ServiceUnavailableError('The request timed out. Retry shortly.', error);
  if (isTransientDatabaseError(error)) return new ServiceUnavailableError(undefined, error);
  return new ApiError('internal_error', 'An internal error occurred. It has been logged.', [], { cause: error });
}
