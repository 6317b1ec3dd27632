/**
 * The OpenAPI 3.1 `webhooks` of the document: the events a merchant's endpoint receives
 * (docs/webhooks.md). Examples are real deliveries captured by `npm run --silent openapi:webhook-examples`.
 */
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../domain/webhook-events.ts';
import captured from './webhook-examples.json' with { type: 'json' };

type Schema = Record<string, unknown>;

const DATA: Record<WebhookEventType, { schema: string; summary: string; description: string }> = {
  'client.credit_changed': {
    schema: 'ClientCreditChanged',
    summary: "A client's credit changed",
    description:
      'Credit received from a transfer into the client’s virtual account, applied to its invoices, or refunded ' +
      '(docs/bank-transfers.md "Client credit"): `data` is the client’s id, its `credit_balance` after the change, and ' +
      'the change (`kind`, `amount`, `reference`). One event per change, in the change’s own transaction.',
  },
  'invoice.created': {
    schema: 'InvoiceWithClient',
    summary: 'An invoice was created',
    description:
      '`data` is exactly the `data` of the add-invoice response (the invoice with its `client` and `items`).',
  },
  'payment.recorded': {
    schema: 'Payment',
    summary: 'A payment was recorded',
    description:
      '`data` is exactly the `data` of the add-payment response (the payment with its `client` and the updated `invoice`).',
  },
  'invoice.paid': {
    schema: 'InvoiceWithClient',
    summary: 'A payment brought the amount due to zero',
    description:
      "`data` is that payment's `data.invoice` with `client` added. It arrives as its own event, beside that payment's `payment.recorded`.",
  },
  'invoice.deleted': {
    schema: 'InvoiceWithClient',
    summary: 'An invoice was deleted (voided)',
    description:
      '`data` is exactly the `data` of the delete-invoice response (the invoice with its `client` and `items`, `deleted_at` set).',
  },
  'invoice.overdue': {
    schema: 'InvoiceWithClient',
    summary: 'An invoice became overdue',
    description:
      'Sent once per invoice, on its first overdue day (today in the account time zone is after `due_date` and ' +
      'something is still due; found by a sweep every few minutes, so it may arrive some minutes into that day). ' +
      '`data` is the invoice as `GET /invoices/{reference_code}` shows it then, with its `client` and `items` ' +
      '(`payment_status` `overdue`).',
  },
  'payment.reversed': {
    schema: 'Payment',
    summary: 'A payment was reversed',
    description:
      '`data` is exactly the `data` of the reversal response (the payment, `status` `reversed`, with its `client` and its ' +
      '`invoice` after the reversal).',
  },
  'invoice.sent': {
    schema: 'InvoiceWithClient',
    summary: 'SES accepted the e-mail of an invoice',
    description:
      'The latest send of the invoice was accepted by SES for delivery: `data` is the invoice with its `client` and ' +
      '`items`, `mail_status` `sent` and `sent_at` set. A bounce reported later follows as `invoice.delivery_failed`.',
  },
  'recurring.completed': {
    schema: 'RecurringInvoice',
    summary: 'A recurring invoice issued its last period',
    description:
      "The series' last period's invoice was created (its own `invoice.created` is written with it): `data` is the " +
      'series as `GET /recurring-invoices/{id}` shows it then, `status` `completed`.',
  },
  'invoice.delivery_failed': {
    schema: 'InvoiceWithClient',
    summary: 'The e-mail of an invoice failed or bounced',
    description:
      'The latest send of the invoice was rejected, could not be sent after every retry (`mail_status` `failed`), or ' +
      'SES reported a bounce or a complaint (`bounced`): `data` is the invoice with its `client` and `items`, ' +
      '`mail_error` saying why.',
  },
  'invoice.reminder_sent': {
    schema: 'InvoiceReminderSent',
    summary: 'A reminder of an invoice was queued',
    description:
      "The sweep queued a reminder of the account's schedule (`account:update --reminders`), at most one per invoice " +
      'and offset: `data` is the invoice with its `client` and `items` as shown that day (its `reminders` include this ' +
      'one) and `reminder_offset`, the days from the due date the reminder was for. The e-mail is sent asynchronously ' +
      '(`mail:deliveries`); it does not change `mail_status`, which describes the latest send.',
  },
  'credit_note.created': {
    schema: 'CreditNote',
    summary: 'A credit note was issued',
    description:
      '`data` is exactly the `data` of the credit-note response (`POST /invoices/{reference_code}/credit-notes`): the ' +
      "credit note, what it took off the amount due and what went to the client's credit, and its `invoice` after it.",
  },
  'payment.refund_issued': {
    schema: 'Payment',
    summary: 'Paystack accepted the refund of money an online payment could not credit',
    description:
      'Money an invoice could not take (more than it could take, or any payment for a voided or already paid invoice) ' +
      'was refunded through Paystack: `data` is the payment, as `payment.recorded`, with `refund` ' +
      "(`amount`, Paystack's `status` and `id`), its `client` and its `invoice`.",
  },
  'invoice.payment_failed': {
    schema: 'InvoiceWithClient',
    summary: "A charge of the invoice's saved card was declined",
    description:
      'Automatic collection (`card_token`) charged the saved card and Paystack declined it: one event per decline. ' +
      '`data` is the invoice with its `client` and `items` and its `collection` after the decline (`status` ' +
      '`retrying` with `next_attempt`, or `failed` after the last retry).',
  },
};

const schemaName = (type: WebhookEventType) =>
  `${type.replace(/(^|\.)([a-z])/g, (_m, _d, c: string) => c.toUpperCase())}Event`;

const event = (type: WebhookEventType): Schema => ({
  type: 'object',
  description: `The \`${type}\` event body.`,
  properties: {
    id: {
      type: 'string',
      description: 'Event id, `evt_` + ULID; equal to the `webhook-id` header and the same on every attempt',
      pattern: '^evt_[0-9A-HJKMNP-TV-Z]{26}$',
    },
    type: { type: 'string', const: type },
    created_at: {
      type: 'string',
      description: 'When the write happened (UTC, `YYYY-MM-DD HH:MM:SS`)',
      pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
    },
    company_id: { type: 'string', description: 'The account', pattern: '^\\d+$' },
    data: { $ref: `#/components/schemas/${DATA[type].schema}` },
  },
  required: ['id', 'type', 'created_at', 'company_id', 'data'],
  additionalProperties: false,
});

export const WEBHOOK_SCHEMAS: Record<string, Schema> = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [schemaName(type), event(type)]),
);

const header = (name: string, description: string, pattern: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', pattern },
});

const HEADERS = [
  header(
    'webhook-id',
    'The event id (`evt_` + ULID), the same on every attempt: deduplicate on it.',
    '^evt_[0-9A-HJKMNP-TV-Z]{26}$',
  ),
  header(
    'webhook-timestamp',
    'Unix seconds of this attempt. Reject timestamps far from now (the libraries allow 5 minutes).',
    '^\\d+$',
  ),
  header(
    'webhook-signature',
    '`v1,` + base64(HMAC-SHA256(key = base64-decoded secret after `whsec_`, message = `<webhook-id>.<webhook-timestamp>.<raw body>`)). ' +
      'Verify with a Standard Webhooks library before parsing the body.',
    '^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)*$',
  ),
];

const examples = captured.events as Record<string, { body: unknown }>;

/** `webhooks` of the OpenAPI document: one POST per event type, sent to the account's endpoint. */
export const WEBHOOKS = Object.fromEntries(
  WEBHOOK_EVENT_TYPES.map((type) => [
    type,
    {
      post: {
        operationId: `${schemaName(type).charAt(0).toLowerCase()}${schemaName(type).slice(1)}`,
        summary: DATA[type].summary,
        description: `${DATA[type].description} Signed per Standard Webhooks; delivered at least once, in no guaranteed order, retried for about 28 hours (docs/webhooks.md).`,
        tags: ['Events'],
        security: [],
        parameters: HEADERS,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${schemaName(type)}` },
              ...(examples[type]
                ? { examples: { delivered: { summary: `A real ${type} delivery`, value: examples[type]!.body } } }
                : {}),
            },
          },
        },
        responses: {
          '2XX': {
            description:
              'Any 2xx within 10 seconds acknowledges the delivery; the body is ignored (at most 4 KiB is read).',
          },
          default: {
            description: 'Anything else (or no answer within 10 s, or a redirect) is a failed attempt and is retried.',
          },
        },
      },
    },
  ]),
);
