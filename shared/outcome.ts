/**
 * What a request came to, as a value: services return it, idempotency records store it, and only
 * `shared/http/` turns it into a status line, headers and a JSON envelope (docs/api.md "Envelopes").
 * A failure carries the id of the request that produced it, so a replay answers with the first request's id.
 */
import type { ApiError, ErrorCode, FieldError } from './errors.ts';

export interface Success<T = unknown> {
  status: number;
  message?: string;
  data: T;
}

export interface Failure {
  status: number;
  code: ErrorCode;
  message: string;
  errors: FieldError[];
  requestId: string;
  /** Seconds, sent as `Retry-After`. */
  retryAfterSeconds?: number;
}

export type Outcome<T = unknown> = Success<T> | Failure;

export const isFailure = (outcome: Outcome): outcome is Failure => 'code' in outcome;

export function success<T>(status: number, data: T, message?: string): Success<T> {
  return message === undefined ? { status, data } : { status, message, data };
}

export function failure(error: ApiError, requestId: string): Failure {
  const outcome: Failure = {
    status: error.status,
    code: error.code,
    message: error.message,
    errors: error.errors,
    requestId,
  };
  if (error.retryAfterSeconds !== undefined) outcome.retryAfterSeconds = error.retryAfterSeconds;
  return outcome;
}
