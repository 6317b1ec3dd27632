/**
 * Response envelopes (docs/api.md "Envelopes"), and the one place where errors become HTTP responses.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { DeadlineReachedError } from '../call-deadline.ts';
import { ApiError, ConflictError, OutcomeUnknownError, ServiceUnavailableError } from '../errors.ts';
import { propertyOf } from '../guards.ts';
import { type Failure, failure, isFailure, type Outcome } from '../outcome.ts';
import {
  CommitUnconfirmedError,
  ConflictsOutlastedDeadlineError,
  IdempotencyKeyInFlightError,
  IdempotencyKeyReusedError,
} from '../store/write-failures.ts';

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

/** The outcome each response was serialised from, so the request log reads its error code without parsing the body. */
const outcomes = new WeakMap<HttpResponse, Outcome>();

export const outcomeOf = (response: HttpResponse | undefined): Outcome | undefined =>
  response ? outcomes.get(response) : undefined;

/** The one place an outcome becomes an HTTP response: status, headers and the JSON envelope. */
export function outcomeResponse(outcome: Outcome, headers: Record<string, string> = {}): HttpResponse {
  const response = isFailure(outcome)
    ? jsonResponse(outcome.status, errorBody(outcome), { ...errorHeaders(outcome), ...headers })
    : jsonResponse(outcome.status, successBody(outcome.data, outcome.message), headers);
  outcomes.set(response, outcome);
  return response;
}

/** Records what a response not built by `outcomeResponse` (an HTML error page) came to, for the request log. */
export function withOutcome(response: HttpResponse, outcome: Outcome): HttpResponse {
  outcomes.set(response, outcome);
  return response;
}

export function errorResponse(error: ApiError, requestId: string): HttpResponse {
  return outcomeResponse(failure(error, requestId));
}

const RETRYABLE_AWS_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'TransactionConflictException',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
]);

/** The store's write failures (shared/store/write-failures.ts) and what the client is told of each. */
function writeFailureAnswer(error: unknown): ApiError | undefined {
  if (error instanceof IdempotencyKeyReusedError)
    return new ApiError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body.',
    );
  if (error instanceof IdempotencyKeyInFlightError)
    return new ConflictError(
      'idempotency_request_in_progress',
      'A request with this Idempotency-Key is still being processed. Retry shortly.',
      [],
      1,
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
  const writeFailure = writeFailureAnswer(error);
  if (writeFailure) return writeFailure;
  // Reads only: a transaction's deadline is settled by the write executor (504 when its outcome is unknown).
  if (error instanceof DeadlineReachedError)
    return new ServiceUnavailableError('The request timed out. Retry shortly.', error);
  const name = propertyOf(error, 'name');
  const code = propertyOf(error, 'code');
  if (
    (typeof name === 'string' && RETRYABLE_AWS_ERRORS.has(name)) ||
    code === 'ETIMEDOUT' ||
    code === 'ECONNRESET' ||
    code === 'ECONNREFUSED'
  ) {
    return new ServiceUnavailableError(undefined, error);
  }
  if (name === 'TransactionCanceledException') {
    const reasons = propertyOf(error, 'CancellationReasons');
    const codes = Array.isArray(reasons) ? reasons.map((reason) => propertyOf(reason, 'Code')) : [];
    if (
      codes.some((c) => c === 'ThrottlingError' || c === 'TransactionConflict' || c === 'ProvisionedThroughputExceeded')
    ) {
      return new ServiceUnavailableError(undefined, error);
    }
  }
  return new ApiError('internal_error', 'An internal error occurred. It has been logged.', [], { cause: error });
}
