/** The payment request schemas: add payment, reverse a payment (docs/api.md "Add payment", "Reversing a payment"). */
import * as z from 'zod/mini';
import { parseMonthFirstDate } from '../domain/dates.ts';
import { MAX_WHT_REFERENCE_LENGTH } from '../domain/payment-acceptance.ts';
import { CHANNELS } from '../domain/payment-record.ts';
import type { ReversalRequest } from '../domain/payment-reversal.ts';
import { enumField, optionalAmount, optionalText, parsedField, positiveAmount, requiredText } from './fields.ts';

export const addPaymentSchema = z.object({
  reference_code: requiredText('Reference code of the invoice (20 characters)', 64),
  date: parsedField(
    parseMonthFirstDate,
    'invalid_date',
    ['string'],
    'Payment date, MM/DD/YYYY; not after today in the account time zone',
  ),
  amount: parsedField(
    positiveAmount,
    'invalid_amount',
    ['string', 'number'],
    'Payment amount > 0; a decimal with optional thousands separators, e.g. "50,000.00"',
  ),
  channel: enumField(CHANNELS, 'Payment channel'),
  wht_amount: optionalAmount(
    'Withholding tax the client deducted (docs/tax.md): the invoice is credited amount + wht_amount; default 0',
  ),
  wht_reference: optionalText(
    "The client's withholding tax receipt or certificate number (≤ 64 characters); only with a wht_amount above zero",
    MAX_WHT_REFERENCE_LENGTH,
  ),
});

export type AddPaymentInput = z.output<typeof addPaymentSchema>;

/** `POST /payments/{id}/reversal`: why the payment is reversed. */
export const reversePaymentSchema = z.object({
  reason: requiredText('Why the payment is reversed, 1–500 characters (kept on the payment)', 500),
});

export type ReversePaymentInput = z.output<typeof reversePaymentSchema>;

/** The reversal of the payment a path names (its id already checked: shared/http/middleware/path-parameters.ts). */
export const toReversalRequest = (input: ReversePaymentInput, paymentId: number): ReversalRequest => ({
  paymentId,
  reason: input.reason,
});
