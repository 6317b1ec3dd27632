/**
 * Errors are values with stable codes (docs/api.md "Errors"). Domain and store code throw `ApiError`s;
 * the HTTP layer maps them to the error envelope in exactly one place (`shared/http/envelope.ts`).
 */

/** Every top-level error code (docs/api.md "Errors") with its HTTP status. The single source of truth. */
export const ERROR_STATUS = {
  invalid_json: 400,
  validation_failed: 400,
  invalid_period: 400,
  invalid_cursor: 400,
  invalid_idempotency_key: 400,
  statement_too_large: 400,
  invalid_api_key: 401,
  tokenization_not_enabled: 403,
  client_not_found: 404,
  invoice_not_found: 404,
  payment_not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  amount_exceeds_balance: 409,
  invoice_already_paid: 409,
  duplicate_merchant_ref: 409,
  duplicate_client_email: 409,
  invoice_has_payments: 409,
  invoice_deleted: 409,
  payment_already_reversed: 409,
  idempotency_request_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
  outcome_unknown: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Per-field problem codes used inside `errors[]`. */
export type FieldErrorCode =
  | 'required'
  | 'invalid_type'
  | 'invalid_amount'
  | 'invalid_date'
  | 'invalid_enum'
  | 'invalid_email'
  | 'invalid_phone'
  | 'invalid_quantity'
  | 'invalid_integer'
  | 'invalid_value'
  | 'invalid_range'
  | 'too_long'
  | 'too_short'
  | 'too_many'
  | 'too_few'
  | 'conflict'
  | 'amount_exceeds_balance'
  | 'not_found';

export interface FieldError {
  code: FieldErrorCode | string;
  field: string | null;
  message: string;
  [extra: string]: unknown;
}

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

export class ValidationError extends ApiError {
  constructor(errors: FieldError[], code: 'validation_failed' | 'invalid_period' = 'validation_failed') {
    const first = errors[0];
    const message =
      errors.length === 1 && first
        ? `${first.field ?? 'request'}: ${first.message}`
        : `The request has ${errors.length} invalid fields.`;
    super(code, message, errors);
    this.name = 'ValidationError';
  }
}

export class NotFoundError extends ApiError {
  constructor(
    code: 'client_not_found' | 'invoice_not_found' | 'payment_not_found' | 'route_not_found',
    message: string,
  ) {
    super(code, message);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends ApiError {
  constructor(
    code:
      | 'amount_exceeds_balance'
      | 'invoice_already_paid'
      | 'duplicate_merchant_ref'
      | 'duplicate_client_email'
      | 'invoice_has_payments'
      | 'invoice_deleted'
      | 'payment_already_reversed'
      | 'idempotency_request_in_progress',
    message: string,
    errors: FieldError[] = [],
    retryAfterSeconds?: number,
  ) {
    super(code, message, errors, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
    this.name = 'ConflictError';
  }
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

export const invalidCursor = (): ApiError =>
  new ApiError('invalid_cursor', 'The cursor is invalid for this account and period. Start again without a cursor.');
