/** Glue between routes and services, shared by the handlers: the Idempotency-Key header in, a write's answer out. */
import type { RequestContext } from '../services/context.ts';
import type { WriteResult } from '../store/write-executor.ts';
import { type HttpResponse, outcomeResponse } from './envelope.ts';
import { ApiError } from './errors.ts';

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
