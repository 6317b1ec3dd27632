/**
 * What an operation of the OpenAPI document says (./operations.ts, ./report-operations.ts), and the error codes
 * operations share.
 */
import type { z } from 'zod/mini';
import type { ErrorCode } from '../http/errors.ts';

/** Path and query parameters, declared once in components.parameters. */
export type ParameterName =
  | 'ReferenceCode'
  | 'ClientId'
  | 'PaymentId'
  | 'Limit'
  | 'Cursor'
  | 'HostedToken'
  | 'HookId'
  | 'CardToken'
  | 'CheckoutReference'
  | 'Trxref'
  | 'RecurringId'
  | 'CreditNoteNumber';

export interface SuccessSpec {
  status: number;
  /** The JSON response schema; none for an HTML page, a PDF or XML (`media`). */
  schema?: string;
  description: string;
  /** Not JSON: an HTML page or a PDF (page-responses.ts). */
  media?: 'text/html' | 'application/pdf' | 'application/xml' | 'redirect';
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** The JSON (or form) body; none for reads and deletes. */
  request?: { name: string; schema: z.ZodMiniType };
  parameters?: readonly ParameterName[];
  /** None for a route that only answers errors. */
  success?: SuccessSpec;
  /** Another success answer (`POST /clients` with a known email: 200). */
  alsoSuccess?: SuccessSpec;
  idempotent: boolean;
  errors: readonly ErrorCode[];
  /** Opened without an API key (a hosted page): `security: []`, and its errors are the HTML pages of page-responses.ts. */
  public?: boolean;
  /** Called by a payment provider (Paystack's webhook): `security: []`, its errors the JSON envelope. */
  provider?: boolean;
  /** A body the route reads as the exact bytes sent (a provider's webhook): JSON only, described by its sender. */
  rawRequest?: { description: string; schema: Record<string, unknown> };
}

// The error codes operations share, by what a request has (a body, an Idempotency-Key).

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

/** Codes that come from the local runtime's router, not from an operation (API Gateway answers those deployed). */
export const ROUTING_ERRORS: readonly ErrorCode[] = ['route_not_found', 'method_not_allowed'];

/**
 * What a send can answer besides success (both send routes): authentication and availability, the Idempotency-Key's
 * codes, and the send's own refusals.
 */
export const SEND_ERRORS: readonly ErrorCode[] = [
  ...READ_ERRORS,
  ...IDEMPOTENCY_ERRORS,
  'invoice_not_found',
  'invoice_deleted',
  'recipient_missing',
  'mail_not_configured',
];
