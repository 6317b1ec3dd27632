/** The error answers' shapes (docs/api.md "Errors"): the envelope every non-2xx JSON answer has, and its field errors. */
import { ERROR_STATUS } from '../http/errors.ts';
import { object, ref, string } from './schema-builders.ts';

export const FieldError = {
  type: 'object',
  description:
    'One problem with one field. Some codes carry extra keys (e.g. `amount_due` with `amount_exceeds_balance`).',
  properties: {
    code: string('Stable per-field code, e.g. required, invalid_amount, invalid_date, invalid_enum'),
    field: { type: ['string', 'null'], description: 'Dotted path (`items.2.unit_cost`, `client.email`) or null' },
    message: string('For humans; names the expected format'),
  },
  required: ['code', 'field', 'message'],
  additionalProperties: true,
};

export const ErrorEnvelope = object('Every non-2xx response body.', {
  status: { type: 'string', const: 'error' },
  code: string('Stable error code for the whole response (see the table in the description of this API)', {
    enum: Object.keys(ERROR_STATUS),
  }),
  message: string('One line for humans'),
  errors: { type: 'array', description: 'Per-field problems; empty when none apply', items: ref('FieldError') },
  request_id: string('Request id; quote it when contacting support'),
});
