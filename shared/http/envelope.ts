/**
 * Response envelopes (SPEC §1), and the one place where errors become HTTP responses.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ApiError, ServiceUnavailableError } from '../errors';
import { DeadlineReachedError } from '../store/deadline';

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

export function errorBody(error: ApiError, requestId: string) {
  return {
    status: 'error',
    code: error.code,
    message: error.message,
    errors: error.errors,
    request_id: requestId,
  };
}

export function errorHeaders(error: ApiError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.code === 'invalid_api_key') headers['www-authenticate'] = 'Bearer';
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return headers;
}

export function errorResponse(error: ApiError, requestId: string): HttpResponse {
  return jsonResponse(error.status, errorBody(error, requestId), errorHeaders(error));
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

/** Any thrown value → an ApiError. Internals (messages, stacks, AWS error text) never reach the client. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  // Reads only: a transaction's deadline is settled by the write executor (504 when its outcome is unknown).
  if (error instanceof DeadlineReachedError) return new ServiceUnavailableError('The request timed out. Retry shortly.', error);
  const name = (error as { name?: string } | null)?.name ?? '';
  const code = (error as { code?: string } | null)?.code ?? '';
  if (RETRYABLE_AWS_ERRORS.has(name) || code === 'ETIMEDOUT' || code === 'ECONNRESET' || code === 'ECONNREFUSED') {
    return new ServiceUnavailableError(undefined, error);
  }
  if (name === 'TransactionCanceledException') {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    if (reasons.some((r) => r.Code === 'ThrottlingError' || r.Code === 'TransactionConflict' || r.Code === 'ProvisionedThroughputExceeded')) {
      return new ServiceUnavailableError(undefined, error);
    }
  }
  return new ApiError('internal_error', 'An internal error occurred. It has been logged.', [], { cause: error });
}
