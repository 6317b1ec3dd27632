/**
 * Error codes and their HTTP statuses (docs/api.md "Errors"), and the errors shared/http answers itself. The domain
 * and the services refuse with a code and no status (`Refusal`, shared/domain/refusal.ts); the store fails with its
 * own errors (shared/store/write-executor.ts); `shared/http/envelope.ts` turns each into its answer, here.
 */
import type { FieldError, Refusal } from '../domain/refusal.ts';
import type { Failure } from '../outcome.ts';

/** Every top-level error code (docs/api.md "Errors") with its HTTP status. The single source of truth. */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  invalid_period: 400,
  invalid_cursor: 400,
  invalid_idempotency_key: 400,
  statement_too_large: 400,
  invalid_card_token: 400,
  invalid_api_key: 401,
  invalid_signature: 401,
  tokenization_not_enabled: 403,
  client_not_found: 404,
  invoice_not_found: 404,
  payment_not_found: 404,
  route_not_found: 404,
  card_not_found: 404,
  hook_not_found: 404,
  recurring_not_found: 404,
  credit_note_not_found: 404,
  method_not_allowed: 405,
  amount_exceeds_balance: 409,
  invoice_already_paid: 409,
  duplicate_merchant_ref: 409,
  duplicate_client_email: 409,
  invoice_has_payments: 409,
  invoice_deleted: 409,
  payment_already_reversed: 409,
  payment_refunded: 409,
  credit_exceeds_invoice: 409,
  recurring_status_conflict: 409,
  payments_not_connected: 409,
  amount_exceeds_credit: 409,
  idempotency_request_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  recipient_missing: 422,
  virtual_account_refused: 422,
  einvoice_incomplete: 422,
  internal_error: 500,
  mail_not_configured: 501,
  service_unavailable: 503,
  provider_unavailable: 503,
  outcome_unknown: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_STATUS, code);

/** A failure's status: its code's (a failure carries no status of its own: shared/outcome.ts). */
export const statusOf = (failure: Pick<Failure, 'code'>): number =>
  isErrorCode(failure.code) ? ERROR_STATUS[failure.code] : ERROR_STATUS.internal_error;

export class ApiError extends Error {
  readonly status: number;
  /** Seconds, sent as `Retry-After` (503 and the in-flight 409). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors: FieldError[] = [],
    options: { retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The domain's or a service's refusal, answered with its code's status (every refusal code is an `ErrorCode`). */
export const apiErrorOf = (refusal: Refusal): ApiError =>
  new ApiError(refusal.code, refusal.message, refusal.errors, { cause: refusal });

/** An error as the outcome to answer (and log): the request id names the request that produced it. */
export function failureOf(error: ApiError, requestId: string): Failure {
  const outcome: Failure = { code: error.code, message: error.message, errors: error.errors, requestId };
  if (error.retryAfterSeconds !== undefined) outcome.retryAfterSeconds = error.retryAfterSeconds;
  return outcome;
}

/** The database could not finish in time or was throttled; the client may retry (503 + Retry-After). */
export class ServiceUnavailableError extends ApiError {
  constructor(message = 'The service is temporarily unavailable. Retry shortly.', cause?: unknown) {
    super('service_unavailable', message, [], { retryAfterSeconds: 1, cause });
    this.name = 'ServiceUnavailableError';
  }
}

/**
 * A write was sent but its commit could not be confirmed in time: it may have been recorded. Never a
 * plain "retry" (docs/api.md "Ambiguous outcomes"); not stored for the Idempotency-Key, so a retry with
 * the same key learns the outcome (replay) or writes once.
 */
export class OutcomeUnknownError extends ApiError {
  constructor(cause?: unknown) {
    super(
      'outcome_unknown',
      'The request may have been recorded: its commit could not be confirmed in time. Retry only with the same Idempotency-Key, or check the payment history (or your invoices) first.',
      [],
      { cause },
    );
    this.name = 'OutcomeUnknownError';
  }
}

export const invalidApiKey = (): ApiError =>
  new ApiError('invalid_api_key', 'Invalid or missing API key. Send "Authorization: Bearer <secret key>".');
