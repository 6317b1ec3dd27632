/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses) of every response shape, each declared once: what
 * `shared/representation/views.ts` and `shared/http/envelope.ts` produce. The contract test (test/openapi/, and the
 * check in test/support/api.ts) holds them to every real response; `additionalProperties: false` makes an undocumented
 * new field fail it: document it here first (new fields are allowed by compatibility, undocumented ones are not).
 */
import { MAIL_STATUSES } from '../domain/invoice.ts';
import { DISPLAYED_PAYMENT_STATUSES } from '../domain/overdue.ts';
import { TOTALS_CHANNELS } from '../domain/payment-record.ts';
import { PERIODS } from '../domain/periods.ts';
import { ERROR_STATUS } from '../http/errors.ts';
import { CLIENT_TYPES, FEE_BEARERS, RECIPIENTS } from '../schemas/fields.ts';
import { BANK_TRANSFER_SCHEMAS, CLIENT_BANKING_FIELDS, TRANSFER_PAYMENT_FIELDS } from './bank-transfer-responses.ts';
import { CREDIT_NOTE_SCHEMAS } from './credit-note-responses.ts';
import {
  CLIENT_CARDS_FIELD,
  ONLINE_PAYMENT_FIELDS,
  ONLINE_PAYMENT_OPTIONAL,
  ONLINE_PAYMENT_SCHEMAS,
} from './online-payment-responses.ts';
import {
  constant,
  digits,
  money,
  nullValue,
  object,
  ref,
  type Schema,
  string,
  timestamp,
  unixDate,
} from './schema-builders.ts';
import {
  INVOICE_ITEM_TAX_FIELDS,
  INVOICE_TAX_FIELDS,
  INVOICE_TAX_OPTIONAL,
  PAYMENT_TAX_FIELDS,
  SUMMARY_TAX_FIELDS,
  TAX_RESPONSE_SCHEMAS,
} from './tax-responses.ts';

const Client = object(
  'A client of the account.',
  {
    id: { type: 'integer', description: 'Client identifier' },
    company_id: { type: 'integer', description: 'Owning account' },
    name: string('Company name of the client (`company_name` of the request), or ""'),
    company_name: string('Same as `name` (some clients read this key)'),
    first_name: string('First name'),
    last_name: string('Last name'),
    email: string('Email address'),
    phone: string('Telephone number with country prefix'),
    website: string('Website, "" when unset'),
    address: string('Postal address, "" when unset'),
    type: string('Client type', { enum: [...CLIENT_TYPES] }),
    settlement_bank: string('"" when unset'),
    account_name: string('"" when unset'),
    account_number: string('"" when unset'),
    status: constant('1', 'Value `1` appears'),
    created_at: timestamp('Creation time'),
    updated_at: timestamp('Last update'),
    deleted_at: nullValue('When the client was deleted (`DELETE /clients/{id}`), else null'),
    ...CLIENT_CARDS_FIELD,
    ...CLIENT_BANKING_FIELDS,
  },
  ['cards', ...Object.keys(CLIENT_BANKING_FIELDS)],
);

const InvoiceItem = object('A line item of an invoice.', {
  id: digits('Item identifier (a string of digits)'),
  company_id: digits('Owning account'),
  client_id: digits('Client of the invoice'),
  name: string('Taken from the `item` field of the request'),
  item: string('Same as `name` (some clients read this key)'),
  description: string('Item description'),
  quantity: string('Positive integer, as a string without decimals', { pattern: '^[1-9]\\d*$' }),
  unit_cost: money('Unit cost'),
  status: constant('0', 'Value `0` appears'),
  due_date: unixDate('Due date of the invoice'),
  created_at: timestamp('Creation time'),
  updated_at: timestamp('Last update'),
  deleted_at: nullValue('When its invoice was deleted, else null'),
  ...INVOICE_ITEM_TAX_FIELDS,
});

/** One reminder e-mail of an invoice (docs/receivables.md "Reminders"). */
const Reminder = object('One reminder e-mail of the invoice.', {
  offset: { type: 'integer', description: "The schedule's day it was for, relative to the due date (−3, 0, 7 …)" },
  sent_at: timestamp('When the sweep queued its e-mail (delivery: `mail:deliveries`)'),
});

const Collection = object(
  "Automatic collection with the invoice's saved card (`card_token`), after its first decline.",
  {
    status: string('`retrying` while a retry is to come; `failed` after the last one was declined', {
      enum: ['retrying', 'failed'],
    }),
    attempts: { type: 'integer', minimum: 1, maximum: 4, description: 'Charges made, all declined' },
    last_error: string('What Paystack said of the last decline (its gateway response)'),
    next_attempt: {
      ...unixDate('The day of the next charge'),
      type: ['string', 'null'],
      description:
        'The day of the next charge (Unix timestamp in seconds of 00:00:00 UTC of that date, as a string); null once ' +
        '`failed` or when the invoice was paid or voided meanwhile',
    },
  },
);

const INVOICE_OPTIONAL = [
  'collection',
  'merchant_ref',
  'recipient',
  'recipient_id',
  'tokenize',
  'metadata',
  'card_token_last4',
  'client',
  'payments_count',
  'reminder_offset',
  'recurring_id',
  'period',
  ...INVOICE_TAX_OPTIONAL,
] as const;

const Invoice = object(
  'An invoice with its items. `total`, `amount_paid`, `amount_due`, `payment_status`, `paid_at`, `currency`, `sent_at` and `mail_error` are additive; ' +
    'the optional request fields appear only when they were given.',
  {
    id: { type: 'integer', description: 'Invoice identifier' },
    company_id: digits('Owning account'),
    client_id: digits('Client of the invoice'),
    reference_code: string('20-character alphanumeric code generated by the service; used to record payments', {
      pattern: '^[A-Za-z0-9]{20}$',
    }),
    payment_id: nullValue('Null in all shapes'),
    fee_bearer: string('Who bears the fees', { enum: [...FEE_BEARERS] }),
    mail_status: string('The latest e-mail: `unsent` on a new invoice', { enum: [...MAIL_STATUSES] }),
    status: constant('0', 'Legacy field: value `0`, also after payments (payment state is in `payment_status`)'),
    due_date: unixDate('Due date'),
    created_at: timestamp('Creation time'),
    updated_at: timestamp('Last update (a payment updates it)'),
    deleted_at: nullValue('When the invoice was deleted (voided), else null'),
    items: { type: 'array', description: 'Line items', minItems: 1, items: ref('InvoiceItem') },
    total: money('subtotal − discount_total + tax_total (Σ quantity × unit_cost with VAT off and no discounts)'),
    amount_paid: money('Sum of the recorded payments, their withholding tax included'),
    amount_due: money('total − amount_paid; 0.00 on a voided invoice'),
    payment_status: string('Payment state; `overdue` and `void` (a deleted invoice) are computed', {
      enum: [...DISPLAYED_PAYMENT_STATUSES],
    }),
    paid_at: {
      type: ['string', 'null'],
      description: 'When the invoice became fully paid (UTC, `YYYY-MM-DD HH:MM:SS`), else null',
    },
    currency: string('Three-letter currency code of the account', { pattern: '^[A-Z]{3}$' }),
    sent_at: nullValue('When SES accepted the latest e-mail of the invoice (UTC, `YYYY-MM-DD HH:MM:SS`), else null'),
    mail_error: nullValue('Why the latest e-mail failed or bounced (`mail_status` `failed`/`bounced`), else null'),
    hosted_url: { ...nullValue("Client's page, no key (`GET /i/{token}`); null on older invoices"), format: 'uri' },
    reminders: {
      type: 'array',
      description: 'The reminders sent, oldest first, at most one per offset of the schedule; `[]` when none',
      items: Reminder,
    },
    reminders_paused: {
      type: 'boolean',
      description: 'Whether its reminders are paused (`POST /invoices/{reference_code}/reminders`)',
    },
    reminder_offset: {
      type: 'integer',
      description: 'The offset of the reminder sent (in `invoice.reminder_sent` only)',
    },
    merchant_ref: string('Your reference, when given'),
    recipient: string('Payment recipient, when given', { enum: [...RECIPIENTS] }),
    recipient_id: string('Wallet reference, when the recipient is `wallet`'),
    tokenize: string('Echo of `tokenize`, when given', { enum: ['true', 'false'] }),
    metadata: {
      type: 'object',
      description: 'Key-value pairs, when given',
      additionalProperties: { type: ['string', 'number', 'boolean'] },
    },
    card_token_last4: string('Last 4 characters of the stored card token, when one was given', { maxLength: 4 }),
    recurring_id: string('The recurring invoice that issued it (docs/recurring-invoices.md), when one did', {
      pattern: '^rec_[0-9A-HJKMNP-TV-Z]{26}$',
    }),
    period: {
      type: 'integer',
      description: "Which of its series' periods it is (1 for the first), with `recurring_id`",
    },
    collection: {
      ...Collection,
      description:
        'Automatic collection with a saved card, once a charge was declined (docs: "Automatic collection"); absent ' +
        'before the first decline',
    },
    client: ref('Client'),
    payments_count: {
      type: 'integer',
      description: 'Payments recorded on the invoice (on `GET /payments/{reference_code}` only)',
    },
    ...INVOICE_TAX_FIELDS,
  },
  INVOICE_OPTIONAL,
);

const InvoiceWithClient = {
  description: 'An invoice with its `client` (the create-invoice response).',
  allOf: [ref('Invoice'), { required: ['client'] }],
};

const Payment = object(
  'A recorded payment with its client and its invoice (current state, with items).',
  {
    id: { type: 'integer', description: 'Payment identifier' },
    company_id: digits('Owning account'),
    client_id: digits('Client who pays'),
    invoice_id: digits('Invoice paid'),
    expense_id: string('Empty when the payment is not for an expense'),
    amount: money('Amount paid'),
    currency: string('Three-letter currency code, e.g. NGN', { pattern: '^[A-Z]{3}$' }),
    transaction_date: unixDate('Payment date'),
    status: string('`success`; `reversed` once reversed; `refunded` for an online payment refunded whole', {
      enum: ['success', 'reversed', 'refunded'],
    }),
    reference_code: string('Reference code of the invoice paid'),
    payment_id: string("Empty for manually recorded payments; Paystack's transaction id for online ones"),
    referrer: string('Empty for manually recorded payments; the checkout reference for online ones'),
    gateway_response: string("Empty for manually recorded payments; Paystack's gateway response for online ones"),
    message: string("Empty for manually recorded payments; Paystack's message for online ones"),
    channel: string(
      'Payment channel: Cash, BankTransfer, POS or Cheque when recorded by hand; Card, BankTransfer, USSD, or the channel Paystack reports, when paid online',
    ),
    type: constant('Invoice', 'Value `Invoice` appears for invoice payments'),
    created_at: timestamp('When the payment was recorded'),
    updated_at: timestamp('Same as created_at; when reversed, the reversal time'),
    reversed_at: timestamp('When the payment was reversed; only on a reversed payment'),
    reversal_reason: string('Why it was reversed; only on a reversed payment'),
    ...ONLINE_PAYMENT_FIELDS,
    ...TRANSFER_PAYMENT_FIELDS,
    ...PAYMENT_TAX_FIELDS,
    client: ref('Client'),
    invoice: ref('Invoice'),
  },
  ['reversed_at', 'reversal_reason', ...ONLINE_PAYMENT_OPTIONAL, ...Object.keys(TRANSFER_PAYMENT_FIELDS)],
);

const amountByChannel = Object.fromEntries(
  TOTALS_CHANNELS.map((channel) => [
    channel,
    money(channel === 'Other' ? 'Collected online by any other channel Paystack reports' : `Collected by ${channel}`),
  ]),
);

const PaymentSummary = object('Totals of the whole effective range (not the page); the same on every page.', {
  count: { type: 'integer', description: 'Payments in the range, not counting reversed ones' },
  total: money('Sum of their amounts'),
  by_channel: object('The total by channel', amountByChannel),
  reversed_total: money('Sum of the reversed payments of the range'),
  ...SUMMARY_TAX_FIELDS,
  currency: string('The account currency', { pattern: '^[A-Z]{3}$' }),
});

/** The fields every history page echoes: the period and its effective range. */
const periodRange = {
  period: string('The requested period', { enum: [...PERIODS] }),
  start: string('Effective first day, DD/MM/YYYY', { pattern: '^\\d{2}/\\d{2}/\\d{4}$' }),
  end: string('Effective last day, DD/MM/YYYY', { pattern: '^\\d{2}/\\d{2}/\\d{4}$' }),
};

const nextCursor: Schema = {
  type: ['string', 'null'],
  description: 'Opaque cursor for the next page; null on the last page',
};

const PaymentHistory = object('One page of payment history.', {
  ...periodRange,
  payments: {
    type: 'array',
    description: 'Newest transaction_date first, then newest recorded first',
    items: ref('Payment'),
  },
  next_cursor: nextCursor,
  summary: ref('PaymentSummary'),
});

const InvoiceHistory = object('One page of invoice history.', {
  ...periodRange,
  invoices: {
    type: 'array',
    description: 'Newest created first, each with its client and items (deleted ones with `deleted_at` set)',
    items: ref('InvoiceWithClient'),
  },
  next_cursor: nextCursor,
});

const ClientList = object('One page of clients.', {
  clients: { type: 'array', description: 'Newest first; deleted clients are not listed', items: ref('Client') },
  next_cursor: nextCursor,
});

const success = (description: string, data: Schema, message?: string): Schema =>
  object(
    description,
    {
      status: { type: 'string', const: 'success' },
      ...(message === undefined
        ? { message: string('Not sent by history') }
        : { message: { type: 'string', description: 'Human-readable outcome', examples: [message] } }),
      data,
    },
    message === undefined ? ['message'] : [],
  );

const FieldError = {
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

const ErrorEnvelope = object('Every non-2xx response body.', {
  status: { type: 'string', const: 'error' },
  code: string('Stable error code for the whole response (see the table in the description of this API)', {
    enum: Object.keys(ERROR_STATUS),
  }),
  message: string('One line for humans'),
  errors: { type: 'array', description: 'Per-field problems; empty when none apply', items: ref('FieldError') },
  request_id: string('Request id; quote it when contacting support'),
});

/** `components.schemas` for responses. */
export const RESPONSE_SCHEMAS = {
  Client,
  InvoiceItem,
  Invoice,
  InvoiceWithClient,
  Payment,
  PaymentSummary,
  PaymentHistory,
  InvoiceCreatedResponse: success('Invoice created.', ref('InvoiceWithClient'), 'Invoice created successfully.'),
  PaymentRecordedResponse: success(
    'Payment recorded; `data.invoice` is the updated invoice.',
    ref('Payment'),
    'Payment successful.',
  ),
  PaymentHistoryResponse: success('Payments of the period, one page.', ref('PaymentHistory')),
  InvoiceHistory,
  ClientList,
  InvoiceResponse: success('The invoice, current state.', ref('InvoiceWithClient')),
  InvoiceDeletedResponse: success(
    'Invoice deleted (also when repeated).',
    ref('InvoiceWithClient'),
    'Invoice deleted successfully.',
  ),
  PaymentResponse: success(
    'The most recent payment on the invoice; `data.invoice.payments_count` counts its payments.',
    ref('Payment'),
  ),
  PaymentReversedResponse: success(
    'The payment, now reversed, with its invoice after the reversal.',
    ref('Payment'),
    'Payment reversed successfully.',
  ),
  InvoiceHistoryResponse: success('Invoices of the period, one page.', ref('InvoiceHistory')),
  InvoiceQueuedResponse: success('Queued for sending.', ref('InvoiceWithClient'), 'Invoice queued for sending.'),
  InvoiceRemindersResponse: success(
    'Reminders paused or resumed.',
    ref('InvoiceWithClient'),
    'Invoice reminders updated.',
  ),
  ClientResponse: success('The client.', ref('Client')),
  ClientCreatedResponse: success('Client created.', ref('Client'), 'Client created successfully.'),
  ClientExistsResponse: success(
    'A live client already has this email: that client, unchanged.',
    ref('Client'),
    'Client already exist.',
  ),
  ClientUpdatedResponse: success('Client updated.', ref('Client'), 'Client updated successfully.'),
  ClientDeletedResponse: success('Client deleted (also when repeated).', ref('Client'), 'Client deleted successfully.'),
  ClientListResponse: success('Clients, one page.', ref('ClientList')),
  /** The `data` of `invoice.reminder_sent`: the invoice with its `client`, and `reminder_offset`. */
  InvoiceReminderSent: {
    description: 'The invoice with its `client` and `items` as shown that day, and the offset of the reminder sent.',
    allOf: [ref('InvoiceWithClient'), { required: ['reminder_offset'] }],
  },
  ...ONLINE_PAYMENT_SCHEMAS,
  ...BANK_TRANSFER_SCHEMAS,
  ...CREDIT_NOTE_SCHEMAS,
  ...TAX_RESPONSE_SCHEMAS,
  FieldError,
  ErrorEnvelope,
} satisfies Record<string, Schema>;
