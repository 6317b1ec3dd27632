/**
 * Why a request is not done as asked, in the domain's own terms: a stable code, a sentence for people and the
 * fields at fault (docs/api.md "Errors"). A refusal carries no HTTP status: shared/http/errors.ts gives each code
 * its status, in one table. Decisions return refusals (`Decision`, below); the services throw one where a read
 * finds nothing to answer with, and a refused write commits one as its answer (with its Idempotency-Key record).
 */

/** The codes of the domain's and the services' refusals: a subset of the API's error codes. */
export type RefusalCode =
  | 'validation_failed'
  | 'invalid_period'
  | 'invalid_cursor'
  | 'statement_too_large'
  | 'tokenization_not_enabled'
  | 'client_not_found'
  | 'invoice_not_found'
  | 'payment_not_found'
  | 'amount_exceeds_balance'
  | 'invoice_already_paid'
  | 'duplicate_merchant_ref'
  | 'duplicate_client_email'
  | 'invoice_has_payments'
  | 'invoice_deleted'
  | 'payment_already_reversed'
  | 'payment_refunded'
  | 'invalid_card_token'
  | 'card_not_found'
  | 'hook_not_found'
  | 'invalid_signature'
  | 'credit_exceeds_invoice'
  | 'recipient_missing'
  | 'mail_not_configured'
  | 'recurring_not_found'
  | 'credit_note_not_found'
  | 'recurring_status_conflict'
  | 'payments_not_connected'
  | 'virtual_account_refused'
  | 'provider_unavailable'
  | 'amount_exceeds_credit'
  | 'einvoice_incomplete';

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

/** A refusal; an Error so that a service can throw it from a read (shared/http answers it with its status). */
export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'Refusal';
  }
}

/** Invalid fields (400): one field's problem is the message itself; several are counted. */
export function invalidFields(
  errors: FieldError[],
  code: 'validation_failed' | 'invalid_period' = 'validation_failed',
): Refusal {
  const first = errors[0];
  const message =
    errors.length === 1 && first
      ? `${first.field ?? 'request'}: ${first.message}`
      : `The request has ${errors.length} invalid fields.`;
  return new Refusal(code, message, errors);
}

export const invalidCursor = (): Refusal =>
  new Refusal('invalid_cursor', 'The cursor is invalid for this account and period. Start again without a cursor.');

/** The refusal of a reference to something absent (or another account's: indistinguishable, docs/api.md "Errors"). */
export type NotFoundCode =
  | 'invoice_not_found'
  | 'payment_not_found'
  | 'client_not_found'
  | 'card_not_found'
  | 'hook_not_found'
  | 'recurring_not_found'
  | 'credit_note_not_found';

const NOT_FOUND_MESSAGES: Record<NotFoundCode, string> = {
  invoice_not_found: 'Invoice not found',
  payment_not_found: 'Payment not found',
  client_not_found: 'Client not found',
  card_not_found: 'Card not found',
  hook_not_found: 'No account has this webhook URL',
  recurring_not_found: 'Recurring invoice not found',
  credit_note_not_found: 'Credit note not found',
};

export const notFound = (code: NotFoundCode): Refusal => new Refusal(code, NOT_FOUND_MESSAGES[code]);

/* A business decision: what to do, or the refusal to answer instead (a `Refusal`: a code, no HTTP status). */

export type Decision<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export const accept = <T>(value: T): Decision<T> => ({ ok: true, value });

export const refuse = <T = never>(refusal: Refusal): Decision<T> => ({ ok: false, refusal });
