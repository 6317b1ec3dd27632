/**
 * The operations of the OpenAPI document, one per route of the route table (shared/routes.ts): what each does,
 * its request, its answers and the error codes it can give (recurring invoices': recurring-operations.ts).
 */
import type { RecurringRouteName, RouteName } from '../routes.ts';
import { addClientSchema, updateClientSchema } from '../schemas/client.ts';
import { invoiceHistorySchema, paymentHistorySchema } from '../schemas/history.ts';
import { addInvoiceSchema } from '../schemas/invoice.ts';
import { addPaymentSchema, reversePaymentSchema } from '../schemas/payment.ts';
import { remindersSchema } from '../schemas/reminders.ts';
import { sendInvoiceSchema } from '../schemas/send.ts';
import { BANK_TRANSFER_OPERATIONS } from './bank-transfer-operations.ts';
import { CREDIT_NOTE_DOCUMENT_OPERATIONS } from './credit-note-document-operations.ts';
import { CREDIT_NOTE_OPERATIONS } from './credit-note-operations.ts';
import {
  BODY_ERRORS,
  COMMON_ERRORS,
  IDEMPOTENCY_ERRORS,
  type OperationSpec,
  READ_ERRORS,
  SEND_ERRORS,
} from './operation-spec.ts';
import { REPORT_OPERATIONS } from './report-operations.ts';

export type { OperationSpec, ParameterName, SuccessSpec } from './operation-spec.ts';
export { ROUTING_ERRORS } from './operation-spec.ts';

export const OPERATIONS: Record<Exclude<RouteName, RecurringRouteName>, OperationSpec> = {
  'add-invoice': {
    operationId: 'addInvoice',
    summary: 'Add invoice',
    description:
      'Creates an invoice for an existing client (`client_id`) or for a client created in the same call (`client`; ' +
      'an existing client with the same email is reused unchanged). Exactly one of `client` or `client_id`. ' +
      'Flat client (what the node-payant SDK sends): when neither is sent, top-level `first_name`, `last_name`, `email`, ' +
      '`phone` (with `company_name`, `address`, `type`, `settlement_bank`, `account_number`) are the `client`; their errors name `client.<field>`.',
    tag: 'Invoices',
    request: { name: 'AddInvoiceRequest', schema: addInvoiceSchema },
    success: {
      status: 201,
      schema: 'InvoiceCreatedResponse',
      description: 'Invoice created; `data` is the invoice with its `client` and `items`.',
    },
    idempotent: true,
    errors: [
      ...COMMON_ERRORS,
      ...IDEMPOTENCY_ERRORS,
      'tokenization_not_enabled',
      'invalid_card_token',
      'client_not_found',
      'duplicate_merchant_ref',
    ],
  },
  'add-payment': {
    operationId: 'addPayment',
    summary: 'Add payment',
    description:
      'Records a payment against an invoice of your account, by its `reference_code`. Partial payments accumulate; ' +
      'a payment above `amount_due` is refused (409). Retries are made safe by the `Idempotency-Key` header.',
    tag: 'Payments',
    request: { name: 'AddPaymentRequest', schema: addPaymentSchema },
    success: {
      status: 201,
      schema: 'PaymentRecordedResponse',
      description: 'Payment recorded; `data.invoice` is the updated invoice.',
    },
    idempotent: true,
    errors: [
      ...COMMON_ERRORS,
      ...IDEMPOTENCY_ERRORS,
      'invoice_not_found',
      'amount_exceeds_balance',
      'invoice_already_paid',
      'invoice_deleted',
    ],
  },
  'payment-history': {
    operationId: 'getPayments',
    summary: 'Get payments (history)',
    description:
      'Lists the payments of a period, newest `transaction_date` first, each with its invoice (current state, with items) ' +
      'and client. Paginated with `limit` and the opaque `cursor` of `data.next_cursor`; a page also ends early, with a ' +
      '`next_cursor`, before its body would reach 5,000,000 bytes (always at least one payment). Note the DD/MM/YYYY date format. ' +
      '`GET` with the same JSON body is answered the same way (the pypayant SDK sends that).',
    tag: 'Payments',
    request: { name: 'PaymentHistoryRequest', schema: paymentHistorySchema },
    success: { status: 200, schema: 'PaymentHistoryResponse', description: 'One page of payments.' },
    idempotent: false,
    errors: [...COMMON_ERRORS, 'invalid_period', 'invalid_cursor'],
  },
  'get-invoice': {
    operationId: 'getInvoice',
    summary: 'Get an invoice',
    description:
      'The invoice with its `client` and `items`, in its current state (the shape add invoice answers). A deleted ' +
      'invoice is still returned, with `deleted_at` set.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    success: { status: 200, schema: 'InvoiceResponse', description: 'The invoice.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'invoice_not_found'],
  },
  'delete-invoice': {
    operationId: 'deleteInvoice',
    summary: 'Delete (void) an invoice',
    description:
      'Voids an invoice that has no payment recorded: sets `deleted_at` on it and its items; it then accepts no payment ' +
      '(409 `invoice_deleted`) and its `merchant_ref` stays taken. Repeating the call answers the same 200. With payments ' +
      'recorded: 409 `invoice_has_payments`. A concurrent payment and delete never both succeed. Event `invoice.deleted`. ' +
      "What its credit notes gave the client's credit (they credited it while paid, and its payments were reversed " +
      'since) is taken back, event `client.credit_changed`; when the client no longer holds that much credit: 409 ' +
      '`amount_exceeds_credit`, nothing written.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    success: { status: 200, schema: 'InvoiceDeletedResponse', description: 'Invoice deleted.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'invoice_not_found', 'invoice_has_payments', 'amount_exceeds_credit', 'outcome_unknown'],
  },
  // Sending (docs/api.md "Sending an invoice").
  'send-invoice': {
    operationId: 'sendInvoice',
    summary: "Send an invoice by e-mail (the SDKs' call)",
    description:
      "Queues an e-mail of the invoice to its client's address (`client.email`): 200 with the invoice, `mail_status` " +
      '`queued`. The e-mail (HTML and text with the hosted link, the PDF attached) is sent asynchronously; `mail_status` ' +
      'then becomes `sent` (SES accepted it; `sent_at`), `failed` or `bounced` (`mail_error`), with the webhook events ' +
      '`invoice.sent` and `invoice.delivery_failed`. Sending again queues a new e-mail. Voided: 409 `invoice_deleted`; ' +
      'no client e-mail: 422 `recipient_missing`; a stage without a sender: 501 `mail_not_configured`.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    success: { status: 200, schema: 'InvoiceQueuedResponse', description: 'The e-mail is queued.' },
    idempotent: true,
    errors: [...SEND_ERRORS],
  },
  'email-invoice': {
    operationId: 'emailInvoice',
    summary: 'Send an invoice by e-mail, with recipients and a note',
    description:
      "As `GET /invoices/send/{reference_code}`, with an optional body: `to` (default the client's e-mail), `cc` (at " +
      'most 10 addresses) and `message` (a note to the client, at most 1,000 characters, shown in the e-mail). An empty ' +
      'body sends to the client. Retries are made safe by the `Idempotency-Key` header (a replay sends nothing new).',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    request: { name: 'SendInvoiceRequest', schema: sendInvoiceSchema },
    success: { status: 200, schema: 'InvoiceQueuedResponse', description: 'The e-mail is queued.' },
    idempotent: true,
    errors: [...BODY_ERRORS, ...SEND_ERRORS],
  },
  // Reminders (docs/api.md "Reminders").
  'invoice-reminders': {
    operationId: 'changeInvoiceReminders',
    summary: "Pause or resume an invoice's reminders",
    description:
      '`{"paused":true}` stops the reminders of the account\'s schedule (`account:update --reminders`) for this ' +
      'invoice; `{"paused":false}` resumes them: the next sweep sends the reminder of the latest offset whose day has ' +
      'come, if it was not sent (resumed on its day, it goes that day); earlier ones missed during the pause are ' +
      'skipped, never sent in a burst. 200 with the invoice ' +
      '(`reminders_paused`, `reminders`). Repeating it changes nothing. Voided: 409 `invoice_deleted`. Retries are made ' +
      'safe by the `Idempotency-Key` header.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    request: { name: 'RemindersRequest', schema: remindersSchema },
    success: { status: 200, schema: 'InvoiceRemindersResponse', description: 'The reminders are paused or resumed.' },
    idempotent: true,
    errors: [...COMMON_ERRORS, ...IDEMPOTENCY_ERRORS, 'invoice_not_found', 'invoice_deleted'],
  },
  // The invoice's page and PDFs (docs/sending-invoices.md); the hosted ones are opened without an API key.
  'invoice-pdf': {
    operationId: 'getInvoicePdf',
    summary: 'Get the invoice as a PDF',
    description:
      'The invoice on A4, with the same content as its hosted page (the merchant profile, the client, number and reference ' +
      'code, dates, items, totals, payment status and payment instructions), text selectable. A voided invoice answers ' +
      '200 with a PDF marked VOID. `Content-Disposition: inline; filename="invoice-<reference_code>.pdf"`.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    success: { status: 200, media: 'application/pdf', description: 'The PDF.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'invoice_not_found'],
  },
  'invoice-ubl': {
    operationId: 'getInvoiceUbl',
    summary: 'Get the invoice as an e-invoice (UBL 2.1)',
    description:
      'The invoice as a UBL 2.1 `Invoice` meeting EN 16931 and Peppol BIS Billing 3.0 (docs/e-invoice.md): `cbc:ID` is its ' +
      '`number`; the parties with their names, `NG` + TIN and addresses; its lines, one tax subtotal per VAT category ' +
      'and rate, and totals that add up to its `total`; what was paid as the prepaid amount; and its IRN when the account ' +
      'has an e-invoicing service id. The account needs an e-mail and a tax id, and the client an e-mail (422 ' +
      '`einvoice_incomplete` names what is missing); a voided invoice is 409 `invoice_deleted`. ' +
      '`Content-Disposition: attachment; filename="invoice-<reference_code>.xml"`.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    success: { status: 200, media: 'application/xml', description: 'The UBL XML.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'invoice_not_found', 'invoice_deleted', 'einvoice_incomplete'],
  },
  'hosted-invoice-page': {
    operationId: 'getHostedInvoicePage',
    summary: 'The hosted invoice page (for the client, no API key)',
    description:
      "The page an invoice's `hosted_url` opens: the invoice as the client should read it, on a phone or printed. No API " +
      'key: the 144-bit random token in the path is the credential. No script, nothing from another origin, everything ' +
      'escaped; `Content-Security-Policy`, `Cache-Control: no-store`, `X-Robots-Tag: noindex`, `Referrer-Policy: ' +
      'no-referrer`. Every answer is an HTML page, errors included (docs/sending-invoices.md).',
    tag: 'Hosted pages',
    parameters: ['HostedToken'],
    success: { status: 200, media: 'text/html', description: 'The invoice page.' },
    idempotent: false,
    errors: [],
    public: true,
  },
  'hosted-invoice-pdf': {
    operationId: 'getHostedInvoicePdf',
    summary: 'The hosted invoice as a PDF (for the client, no API key)',
    description:
      'The PDF of the hosted page (`hosted_url` + `/pdf`), the same as the keyed PDF route. A voided invoice answers 410 ' +
      'with the "voided" page, as the page does. Errors are HTML pages.',
    tag: 'Hosted pages',
    parameters: ['HostedToken'],
    success: { status: 200, media: 'application/pdf', description: 'The PDF.' },
    idempotent: false,
    errors: [],
    public: true,
  },
  'invoice-history': {
    operationId: 'getInvoices',
    summary: 'Get invoices (history)',
    description:
      'Lists the invoices created in a period (by `created_at`, in the account time zone), newest first, each with its ' +
      'client and items; deleted invoices are listed with `deleted_at` set. The period, `limit`, `cursor` and page-size ' +
      'rules of payment history apply. Optional `payment_status` filter on the status each invoice is shown with, ' +
      '`overdue` included (`unpaid` and `partially_paid` then match only invoices not shown as overdue; a filtered ' +
      'page may hold fewer than `limit` invoices and still have a `next_cursor`). `GET` with the same JSON body is answered the same way (pypayant).',
    tag: 'Invoices',
    request: { name: 'InvoiceHistoryRequest', schema: invoiceHistorySchema },
    success: { status: 200, schema: 'InvoiceHistoryResponse', description: 'One page of invoices.' },
    idempotent: false,
    errors: [...COMMON_ERRORS, 'invalid_period', 'invalid_cursor'],
  },
  'get-payment': {
    operationId: 'getPayment',
    summary: "Get an invoice's latest payment",
    description:
      'By the **invoice** `reference_code` (as the original service did): the most recent payment recorded on it, with ' +
      'its `client` and `invoice` (current state; `invoice.payments_count` counts its payments). 404 `payment_not_found` ' +
      'when the invoice has none yet.',
    tag: 'Payments',
    parameters: ['ReferenceCode'],
    success: { status: 200, schema: 'PaymentResponse', description: 'The latest payment.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'invoice_not_found', 'payment_not_found'],
  },
  'reverse-payment': {
    operationId: 'reversePayment',
    summary: 'Reverse a payment',
    description:
      'Reverses a payment recorded by mistake; it is never deleted. In one transaction the payment becomes `status` ' +
      '`reversed` (with `reversed_at` and `reversal_reason`), its invoice gets `amount_paid`, `amount_due`, ' +
      '`payment_status` and `paid_at` back as if it had not been recorded (it can be paid again up to its total), and ' +
      "the day's totals move it to `reversed_total`. Payment history still lists it. A second reversal: 409 " +
      '`payment_already_reversed`. Retries are made safe by the `Idempotency-Key` header. Event `payment.reversed`.',
    tag: 'Payments',
    parameters: ['PaymentId'],
    request: { name: 'ReversePaymentRequest', schema: reversePaymentSchema },
    success: { status: 200, schema: 'PaymentReversedResponse', description: 'Payment reversed.' },
    idempotent: true,
    errors: [
      ...COMMON_ERRORS,
      ...IDEMPOTENCY_ERRORS,
      'payment_not_found',
      'payment_already_reversed',
      'payment_refunded',
    ],
  },
  'add-client': {
    operationId: 'addClient',
    summary: 'Add a client',
    description:
      'Creates a client from the `client` fields of add invoice, sent flat. Clients are unique per account by email ' +
      '(case-insensitive): a live client with the same email is answered with 200 and that client, unchanged ' +
      '(message "Client already exist.", the original service\'s words). `Idempotency-Key` makes retries safe.',
    tag: 'Clients',
    request: { name: 'AddClientRequest', schema: addClientSchema },
    success: { status: 201, schema: 'ClientCreatedResponse', description: 'Client created.' },
    alsoSuccess: { status: 200, schema: 'ClientExistsResponse', description: 'A client with this email exists.' },
    idempotent: true,
    errors: [...COMMON_ERRORS, ...IDEMPOTENCY_ERRORS],
  },
  'list-clients': {
    operationId: 'listClients',
    summary: 'List clients',
    description:
      'The live clients of the account, newest first. `limit` (1–500, default 100) and `cursor` (from `data.next_cursor`) ' +
      'are query parameters. Deleted clients are not listed.',
    tag: 'Clients',
    parameters: ['Limit', 'Cursor'],
    success: { status: 200, schema: 'ClientListResponse', description: 'One page of clients.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'validation_failed', 'invalid_cursor'],
  },
  'get-client': {
    operationId: 'getClient',
    summary: 'Get a client',
    description:
      'The client, with its saved cards (`cards`: docs/getting-paid-online.md "Saved cards"); a deleted one is returned ' +
      'with `deleted_at` set.',
    tag: 'Clients',
    parameters: ['ClientId'],
    success: { status: 200, schema: 'ClientWithCardsResponse', description: 'The client, with its saved cards.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'client_not_found'],
  },
  'update-client': {
    operationId: 'updateClient',
    summary: 'Update a client',
    description:
      'Changes the fields given (validated as for a new client); others stay. An email another live client has: 409 ' +
      '`duplicate_client_email`. A deleted client: 404. Invoices keep the client as it was when they were created.',
    tag: 'Clients',
    parameters: ['ClientId'],
    request: { name: 'UpdateClientRequest', schema: updateClientSchema },
    success: { status: 200, schema: 'ClientUpdatedResponse', description: 'Client updated.' },
    idempotent: false,
    errors: [...COMMON_ERRORS, 'client_not_found', 'duplicate_client_email', 'outcome_unknown'],
  },
  'delete-client': {
    operationId: 'deleteClient',
    summary: 'Delete a client',
    description:
      'Soft delete: the client gets `deleted_at`, leaves the list, can no longer be invoiced by `client_id` (404), and ' +
      'its email is free (a new invoice or client with it creates a new client). Repeating the call answers the same 200.',
    tag: 'Clients',
    parameters: ['ClientId'],
    success: { status: 200, schema: 'ClientDeletedResponse', description: 'Client deleted.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'client_not_found', 'outcome_unknown'],
  },
  ...REPORT_OPERATIONS,
  // Getting paid online (docs/getting-paid-online.md): the pay button, the return, Paystack's webhook, saved cards.
  'hosted-invoice-pay': {
    operationId: 'payHostedInvoice',
    summary: "The hosted page's pay button (for the client, no API key)",
    description:
      'What the "Pay ₦…" button of an open invoice of an account connected to Paystack posts (a plain HTML form; its ' +
      'form-encoded body is empty). It keeps a checkout attempt with a new reference (`<reference_code>-<ULID>`), asks ' +
      "Paystack's `transaction/initialize` for the checkout amount in kobo, NGN, with `callback_url` " +
      '`<hosted_url>/paid` and `metadata` `reference_code` and `company_id`, and answers `303` to its ' +
      '`authorization_url`. A paid invoice, one of an unconnected account, or Paystack down or slower than 5 s: the page ' +
      'again (200) with a sentence why; a voided one: the voided page (410). Nothing is recorded from this route.',
    tag: 'Hosted pages',
    parameters: ['HostedToken'],
    success: { status: 303, media: 'redirect', description: "To Paystack's checkout (`Location`)." },
    alsoSuccess: { status: 200, media: 'text/html', description: 'The page again, saying why it cannot be paid now.' },
    idempotent: false,
    errors: [],
    public: true,
  },
  'hosted-invoice-paid': {
    operationId: 'hostedInvoicePaid',
    summary: 'The return from Paystack’s checkout (for the client, no API key)',
    description:
      "Paystack's `callback_url`: `?reference=…` (and `trxref`). For a reference issued for this invoice, it asks " +
      "Paystack's `transaction/verify` and records what Paystack confirms (exactly once per reference, whatever " +
      'else records it), then shows the page with "Payment received" (amount, date, channel, what is still due), or ' +
      '"being confirmed" while Paystack has not confirmed or cannot be reached. The redirect alone records nothing. A ' +
      'voided invoice answers its voided page (410), with what became of the payment (refunded) on top.',
    tag: 'Hosted pages',
    parameters: ['HostedToken', 'CheckoutReference', 'Trxref'],
    success: { status: 200, media: 'text/html', description: 'The invoice page with the payment’s receipt on top.' },
    idempotent: false,
    errors: [],
    public: true,
  },
  'paystack-event': {
    operationId: 'receivePaystackEvent',
    summary: "Paystack's webhook (the account's paystack_webhook_url)",
    description:
      'Called by Paystack, not by you: no API key. The body is Paystack\'s event (`{"event":"charge.success","data":' +
      "{…}}`), as sent; `x-paystack-signature` must be the hex HMAC-SHA512 of its exact bytes keyed with the account's " +
      'Paystack secret key, else 401 and nothing is read or stored. A signed event is stored whole, then answered 200 ' +
      '(also for a duplicate, an unknown reference or an event type that is ignored); it is processed afterwards — ' +
      "verified with Paystack's `transaction/verify` and recorded once per reference. 5xx only when nothing was stored, " +
      'so that Paystack retries.',
    tag: 'Paystack',
    parameters: ['HookId'],
    rawRequest: {
      description: "Paystack's event, exactly as Paystack sends it (its signature covers these bytes).",
      schema: {
        type: 'object',
        properties: {
          event: { type: 'string', examples: ['charge.success'] },
          data: { type: 'object', description: 'The transaction, as `transaction/verify` shows it' },
        },
        required: ['event'],
      },
    },
    success: { status: 200, schema: 'PaystackEventReceivedResponse', description: 'The event is stored.' },
    idempotent: false,
    errors: ['invalid_signature', 'hook_not_found', 'payload_too_large', 'internal_error', 'service_unavailable'],
    provider: true,
  },
  'forget-client-card': {
    operationId: 'forgetClientCard',
    summary: "Forget one of a client's saved cards",
    description:
      'Removes the saved card (its sealed Paystack authorization too): no invoice can name it any more. The answer is ' +
      "the client with the cards it has left. A token that is not one of this client's cards: 404 `card_not_found`.",
    tag: 'Clients',
    parameters: ['ClientId', 'CardToken'],
    success: { status: 200, schema: 'CardForgottenResponse', description: 'Forgotten; the client with its cards.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'client_not_found', 'card_not_found', 'outcome_unknown'],
  },
  ...BANK_TRANSFER_OPERATIONS,
  ...CREDIT_NOTE_OPERATIONS,
  ...CREDIT_NOTE_DOCUMENT_OPERATIONS,
};
