/** The document's reusable parameters (path, query, Idempotency-Key) and response headers. */
import { PATH_PARAMETER_KINDS } from '../path-parameters.ts';
import type { ParameterName } from './operations.ts';

const header = (description: string, schema: Record<string, unknown>) => ({ description, schema });
export const HEADERS = {
  'Idempotent-Replayed': header(
    '`true` when this is the stored response of an earlier request with the same Idempotency-Key and body.',
    {
      type: 'string',
      enum: ['true'],
    },
  ),
  'WWW-Authenticate': header('Always `Bearer`.', { type: 'string', enum: ['Bearer'] }),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'string', pattern: '^\\d+$' }),
  Link: header(
    'CSV pages only: `<path?cursor=…>; rel="next"` while another page follows (the same request, with that cursor).',
    {
      type: 'string',
    },
  ),
  'X-Next-Cursor': header(
    "CSV pages only: the cursor of the next page (the JSON's `next_cursor`); absent on the last page.",
    {
      type: 'string',
    },
  ),
};

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk_ + 40 base62 characters',
    description:
      'The account secret key. Missing, malformed, unknown or revoked keys all get the same 401 `invalid_api_key`.',
  },
};

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
