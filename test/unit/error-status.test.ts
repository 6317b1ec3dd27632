import { describe, expect, it } from 'vitest';
import { invalidFields, Refusal, type RefusalCode } from '../../shared/domain/refusal.ts';
import { errorResponse, toApiError } from '../../shared/http/envelope.ts';
import { ApiError, apiErrorOf, ERROR_STATUS, statusOf } from '../../shared/http/errors.ts';

/** The statuses docs/api.md "Errors" gives the domain's refusals: the domain itself carries none. */
const REFUSAL_STATUSES: Record<RefusalCode, number> = {
  validation_failed: 400,
  invalid_period: 400,
  invalid_cursor: 400,
  statement_too_large: 400,
  tokenization_not_enabled: 403,
  client_not_found: 404,
  invoice_not_found: 404,
  credit_note_not_found: 404,
  payment_not_found: 404,
  amount_exceeds_balance: 409,
  invoice_already_paid: 409,
  duplicate_merchant_ref: 409,
  duplicate_client_email: 409,
  invoice_has_payments: 409,
  invoice_deleted: 409,
  payment_already_reversed: 409,
  payment_refunded: 409,
  invalid_card_token: 400,
  card_not_found: 404,
  hook_not_found: 404,
  invalid_signature: 401,
  credit_exceeds_invoice: 409,
  recipient_missing: 422,
  einvoice_incomplete: 422,
  mail_not_configured: 501,
  recurring_not_found: 404,
  recurring_status_conflict: 409,
  payments_not_connected: 409,
  virtual_account_refused: 422,
  provider_unavailable: 503,
  amount_exceeds_credit: 409,
};

describe('refusals and their HTTP status (shared/http/errors.ts)', () => {
  it.each(Object.entries(REFUSAL_STATUSES))('%s is answered with %i', (code, status) => {
    // Prepare
    const refusal = new Refusal(code as RefusalCode, 'Why.', [{ code: 'conflict', field: 'x', message: 'm' }]);
    // Act
    const error = apiErrorOf(refusal);
    // Assess
    expect([error.status, error.code, error.message, error.errors]).toEqual([status, code, 'Why.', refusal.errors]);
    expect(statusOf(refusal)).toBe(status);
  });

  it('a thrown refusal leaves as the error envelope with its status', () => {
    // Act
    const response = errorResponse(
      toApiError(invalidFields([{ code: 'required', field: 'amount', message: 'is required' }])),
      'r-1',
    );
    // Assess
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      status: 'error',
      code: 'validation_failed',
      message: 'amount: is required',
      errors: [{ code: 'required', field: 'amount', message: 'is required' }],
      request_id: 'r-1',
    });
  });

  it('every status comes from the one table, and an unknown code is a 500', () => {
    expect(new ApiError('payload_too_large', 'Too big.').status).toBe(ERROR_STATUS.payload_too_large);
    expect(statusOf({ code: 'no_such_code' })).toBe(500);
  });
});
