/** `POST /invoices/{reference_code}/credit-notes` (docs/tax.md "Credit notes"): a reason, and items or an amount. */
import * as z from 'zod/mini';
import type { CreditNoteRequest } from '../domain/credit-note-record.ts';
import { parsedField, positiveAmount, requiredText } from './fields.ts';
import { invoiceItemsField } from './invoice.ts';

const creditNoteFields = z.object({
  reason: requiredText('Why the invoice is credited (≤ 500 characters), shown on the credit note and the statement'),
  items: z.optional(invoiceItemsField),
  amount: z.optional(
    parsedField(
      positiveAmount,
      'invalid_amount',
      ['string', 'number'],
      'The amount credited, VAT included, > 0 (e.g. "5,000.00"); split over the invoice’s VAT categories',
    ),
  ),
});

export const creditNoteSchema = creditNoteFields.check(
  z.superRefine((input: z.output<typeof creditNoteFields>, ctx) => {
    const hasItems = input.items !== undefined;
    if (hasItems === (input.amount !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: [hasItems ? 'amount' : 'items'],
        message: hasItems ? 'send either items or amount, not both' : 'either items or amount is required',
        params: { code: hasItems ? 'conflict' : 'required' },
      });
  }),
);

export type CreditNoteInput = z.output<typeof creditNoteSchema>;
// The request maps onto the domain's own input type as is: a change on either side that breaks this fails tsc.
export const toCreditNoteRequest = (input: CreditNoteInput): CreditNoteRequest => input;
