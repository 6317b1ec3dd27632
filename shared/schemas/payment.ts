/** The add-payment request schema (SPEC §6). */
import * as z from 'zod/mini';
import { parseMonthFirstDate } from '../domain/dates.ts';
import { CHANNELS, enumField, parsedField, positiveAmount, requiredText } from './fields.ts';

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
});

export type AddPaymentInput = z.output<typeof addPaymentSchema>;
