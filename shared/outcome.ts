/**
 * What a request came to, as a value: services return it, idempotency records store it, and only
 * `shared/http/` turns it into a status line, headers and a JSON envelope (docs/api.md "Envelopes").
 * A success carries the status its answer chose (201 created, 200 otherwise: shared/representation/views.ts);
 * a failure carries its code, and shared/http gives the code its status (shared/http/errors.ts), so that nothing
 * below shared/http knows the status table. A failure carries the id of the request that produced it, so a replay
 * answers with the first request's id.
 */
import type { FieldError } from './domain/refusal.ts';

export interface Success<T = unknown> {
  status: number;
  message?: string;
  data: T;
}

export interface Failure {
  /** An error code of shared/http/errors.ts (`ERROR_STATUS`): a refusal's, or one shared/http answers itself. */
  code: string;
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
