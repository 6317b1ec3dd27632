/** The response shapes of credit notes (docs/tax.md "Credit notes"), spread into responses.ts's schemas. */
import { TAX_CATEGORIES, VAT_MODES } from '../domain/tax.ts';
import { digits, money, object, ref, type Schema, string, timestamp, unixDate } from './schema-builders.ts';

const CreditNoteItem = object('A line credited (credit notes by items only).', {
  name: string('As the request’s `item`'),
  item: string('Same as `name`'),
  description: string('Item description'),
  quantity: string('Positive integer, as a string', { pattern: '^[1-9]\\d*$' }),
  unit_cost: money('Unit cost'),
  discount: money('Discount on the line (0.00 when none)'),
  tax: string('VAT category of the line', { enum: [...TAX_CATEGORIES] }),
  net: money('quantity × unit_cost − discount, without VAT'),
});

const CreditNote = object(
  'A credit note: what it credits of its invoice, split as the invoice is, and where the credit went.',
  {
    id: string('Credit note identifier, `cn_` + ULID', { pattern: '^cn_[0-9A-HJKMNP-TV-Z]{26}$' }),
    number: string('Gapless per-account number (`CN-000001`)', { pattern: '^CN-\\d{6,}$' }),
    reference_code: string('The invoice credited', { pattern: '^[A-Za-z0-9]{20}$' }),
    invoice_number: {
      type: ['string', 'null'],
      description: 'The invoice’s number (`INV-000001`); null for invoices created before numbers',
    },
    client_id: digits('Client of the invoice'),
    reason: string('Why the invoice was credited'),
    currency: string('Three-letter currency code', { pattern: '^[A-Z]{3}$' }),
    issue_date: unixDate('Issue date (today in the account time zone when it was created)'),
    created_at: timestamp('Creation time'),
    vat_mode: string('The invoice’s VAT setting, by which the credit note is taxed', { enum: [...VAT_MODES] }),
    items: {
      type: 'array',
      description: 'The lines credited; `[]` for a credit note by amount',
      items: ref('CreditNoteItem'),
    },
    subtotal: money('Σ line amounts without VAT (by amount: the total less its VAT)'),
    discount_total: money('Σ of the lines’ discounts'),
    tax_total: money('Σ of `taxes[].amount`'),
    total: money('What is credited, VAT included: subtotal − discount_total + tax_total'),
    taxes: {
      type: 'array',
      description: 'VAT by category, as on the invoice; `[]` when VAT is off',
      items: ref('TaxEntry'),
    },
    applied_to_invoice: money('What it took off the invoice’s amount due'),
    credited_to_client: money('What it credited beyond the amount due: added to the client’s credit_balance'),
    invoice: ref('InvoiceWithClient'),
  },
  ['invoice'],
);

export const CREDIT_NOTE_SCHEMAS: Record<string, Schema> = {
  CreditNoteItem,
  CreditNote,
  CreditNoteCreatedResponse: object('Credit note created.', {
    status: { type: 'string', const: 'success' },
    message: { type: 'string', examples: ['Credit note created successfully.'] },
    data: {
      description: 'The credit note with its invoice after it.',
      allOf: [ref('CreditNote'), { required: ['invoice'] }],
    },
  }),
};
