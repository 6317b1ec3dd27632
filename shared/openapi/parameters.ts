/** The OpenAPI document's parameters: the Idempotency-Key header, each path parameter's kind, and the query ones. */
import { PATH_PARAMETER_KINDS } from '../path-parameters.ts';
import type { ParameterName } from './operations.ts';

export const PARAMETERS: Record<ParameterName | 'IdempotencyKey', Record<string, unknown>> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Optional, 1–255 printable ASCII characters, scoped to account and route, kept 24 hours. Same key and same (normalised) body: ' +
      'the first response is replayed with `Idempotent-Replayed: true`. Same key, different body: 422. Same key while the first ' +
      'request is still running: 409 with `Retry-After`.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
  },

  ReferenceCode: {
    name: 'reference_code',
    in: 'path',
    required: true,
    description:
      "The invoice's 20-character reference code. A value that is not 1–64 letters and digits names no invoice: 404.",
    schema: { type: 'string', pattern: PATH_PARAMETER_KINDS.referenceCode.pattern.source },
  },
  ClientId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Client identifier: a positive integer, as issued (no sign, spaces or leading zeros; else 404).',
    schema: { type: 'string', pattern: PATH_PARAMETER_KINDS.clientId.pattern.source },
  },
  HostedToken: {
    name: 'token',
    in: 'path',
    required: true,
    description: "The token of the invoice's `hosted_url` (24 base64url characters; anything else: the 404 page).",
    schema: { type: 'string', pattern: PATH_PARAMETER_KINDS.hostedToken.pattern.source },
  },
  HookId: {
    name: 'hook_id',
    in: 'path',
    required: true,
    description: "The id of the account's `paystack_webhook_url` (24 base64url characters; else 404 `hook_not_found`).",
    schema: { type: 'string', pattern: PATH_PARAMETER_KINDS.paystackHookId.pattern.source },
  },
  CardToken: {
    name: 'card_token',
    in: 'path',
    required: true,
    description: "A saved card's `card_token` (`ctok_` and 24 base64url characters; else 404 `card_not_found`).",
    schema: { type: 'string', pattern: PATH_PARAMETER_KINDS.cardToken.pattern.source },
  },
  RecurringId: {
    name: 'id',
    in: 'path',
    required: true,
    description: "A recurring invoice's `id` (`rec_` + ULID; else 404 `recurring_not_found`).",
    schema: { type: 'string', pattern: PATH_PARAMETER_KINDS.recurringId.pattern.source },
  },
  CreditNoteNumber: {
    name: 'number',
    in: 'path',
    required: true,
    description: "A credit note's `number` (`CN-` and six or more digits; else 404 `credit_note_not_found`).",
    schema: { type: 'string', pattern: PATH_PARAMETER_KINDS.creditNoteNumber.pattern.source },
  },
  CheckoutReference: {
    name: 'reference',
    in: 'query',
    required: false,
    description: "The checkout's reference, as Paystack appends it to the `callback_url`.",
    schema: { type: 'string' },
  },
  Trxref: {
    name: 'trxref',
    in: 'query',
    required: false,
    description: 'The same reference under the other name Paystack appends (read when `reference` is absent).',
    schema: { type: 'string' },
  },
  PaymentId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'Payment identifier (the `id` of a Payment): a positive integer, as issued (else 404).',
    schema: { type: 'string', pattern: PATH_PARAMETER_KINDS.paymentId.pattern.source },
  },
  Limit: {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'Page size, 1–500 (default 100)',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  Cursor: {
    name: 'cursor',
    in: 'query',
    required: false,
    description: 'Opaque cursor from `data.next_cursor` of the previous page',
    schema: { type: 'string' },
  },
};
