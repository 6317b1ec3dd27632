/** The error codes operations share, by what a request has (a body, an Idempotency-Key): ./operations.ts and its parts. */
import type { ErrorCode } from '../http/errors.ts';

/** Errors of a request without a body: authentication and availability. */
export const READ_ERRORS: readonly ErrorCode[] = ['invalid_api_key', 'internal_error', 'service_unavailable'];

/** What reading a JSON (or form) body can answer. */
export const BODY_ERRORS: readonly ErrorCode[] = [
  'invalid_json',
  'validation_failed',
  'payload_too_large',
  'unsupported_media_type',
];

/** Errors every operation with a body can answer. */
export const COMMON_ERRORS: readonly ErrorCode[] = [...BODY_ERRORS, ...READ_ERRORS];

export const IDEMPOTENCY_ERRORS: readonly ErrorCode[] = [
  'invalid_idempotency_key',
  'idempotency_request_in_progress',
  'idempotency_key_reused',
  'outcome_unknown',
];
