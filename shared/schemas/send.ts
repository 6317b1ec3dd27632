/** Send request schema (docs/api.md "Send an invoice"): `POST /invoices/{reference_code}/send`, every field optional. */
import * as z from 'zod/mini';
import { isEmailAddress, MAX_EMAIL_LENGTH } from '../domain/email-address.ts';
import { MAX_CC_RECIPIENTS, MAX_MESSAGE_LENGTH, type SendRequest } from '../domain/invoice-mail.ts';
import { addIssue, fail, field, isBlank, meta, optionalText } from './fields.ts';

/** An optional recipient address (blank is absent). */
export const optionalRecipient = (description: string) =>
  z.optional(
    meta(
      field((value, ctx): string | undefined => {
        if (isBlank(value)) return undefined;
        if (typeof value !== 'string') return fail(ctx, 'invalid_type', 'must be a string');
        const text = value.trim();
        return isEmailAddress(text)
          ? text
          : fail(ctx, 'invalid_email', 'must be a valid email address, e.g. "ada@example.com"');
      }),
      {
        type: 'string',
        format: 'email',
        maxLength: MAX_EMAIL_LENGTH,
        description,
      },
    ),
  );

const optionalEmail = optionalRecipient("Recipient; default the invoice client's email");

const ccList = z.optional(
  meta(
    field((value, ctx): string[] | undefined => {
      if (isBlank(value)) return undefined;
      const list = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(list)) return fail(ctx, 'invalid_type', 'must be a list of email addresses');
      if (list.length > MAX_CC_RECIPIENTS)
        return fail(ctx, 'too_many', `must have at most ${MAX_CC_RECIPIENTS} addresses`);
      const addresses = list.map((entry) => (typeof entry === 'string' ? entry.trim() : ''));
      const invalid = addresses.flatMap((text, index) => (isEmailAddress(text) ? [] : [index]));
      for (const index of invalid) {
        const message = 'must be a valid email address, e.g. "ada@example.com"';
        addIssue(ctx, { code: 'custom', path: [index], message, params: { code: 'invalid_email' } });
      }
      return invalid.length > 0 ? z.NEVER : addresses;
    }),
    {
      type: 'array',
      items: { type: 'string', format: 'email' },
      maxItems: MAX_CC_RECIPIENTS,
      description: `Copies to, at most ${MAX_CC_RECIPIENTS} addresses (a single address may be given as a string)`,
    },
  ),
);

export const sendInvoiceSchema = z.object({
  to: optionalEmail,
  cc: ccList,
  message: optionalText(
    `A note to the client, shown above the invoice in the e-mail (at most ${MAX_MESSAGE_LENGTH} characters)`,
    MAX_MESSAGE_LENGTH,
  ),
});

export type SendInvoiceInput = z.output<typeof sendInvoiceSchema>;
// The request maps onto the domain's own input type as it is: a change on either side that breaks this fails tsc.
export const toSendRequest = (input: SendInvoiceInput): SendRequest => input;
