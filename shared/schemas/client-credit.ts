/** `POST /clients/{id}/credit/refund` (docs/bank-transfers.md "Refunding credit"). */
import * as z from 'zod/mini';
import { parsedField, positiveAmount } from './fields.ts';

export const refundCreditSchema = z.object({
  amount: parsedField(
    positiveAmount,
    'invalid_amount',
    ['string', 'number'],
    'How much of the credit to give back, > 0 and at most the credit_balance, e.g. "5,000.00"',
  ),
});

export type RefundCreditInput = z.output<typeof refundCreditSchema>;
