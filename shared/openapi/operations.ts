/**
 * The operations of the OpenAPI document, one per route of the route table (shared/routes.ts): what each does,
 * its request, its answers and the error codes it can give. document.ts builds the document from these.
 */
import type { z } from 'zod/mini';
import type { ErrorCode } from '../http/errors.ts';
import type { RouteName } from '../routes.ts';
import { addClientSchema, updateClientSchema } from '../schemas/client.ts';
import { invoiceHistorySchema, paymentHistorySchema } from '../schemas/history.ts';
import { addInvoiceSchema } from '../schemas/invoice.ts';
import { addPaymentSchema, reversePaymentSchema } from '../schemas/payment.ts';
import { DOCUMENT_OPERATIONS } from './document-operations.ts';
import { COMMON_ERRORS, IDEMPOTENCY_ERRORS, READ_ERRORS } from './error-sets.ts';
import { ONLINE_PAYMENT_OPERATIONS } from './online-payment-operations.ts';
import { REMINDER_OPERATIONS } from './reminder-operations.ts';
import { REPORT_OPERATIONS } from './report-operations.ts';
import { SEND_OPERATIONS } from './send-operations.ts';

export { COMMON_ERRORS, IDEMPOTENCY_ERRORS, READ_ERRORS, ROUTING_ERRORS } from './error-sets.ts';

/** Path and query parameters, declared once in components.parameters. */
export type ParameterName =
  | 'ReferenceCode'
  | 'ClientId'
  | 'PaymentId'
  | 'Limit'
  | 'Cursor'
  | 'HostedToken'
  | 'HookId'
  | 'CardToken'
  | 'CheckoutReference'
  | 'Trxref';

export interface SuccessSpec {
  status: number;
  /** The JSON response schema; none for an HTML page or a PDF (`media`). */
  schema?: string;
  description: string;
  /** Not JSON: an HTML page, a PDF or a redirect (page-responses.ts). */
  media?: 'text/html' | 'application/pdf' | 'redirect';
}

export interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tag: string;
  /** The JSON (or form) body; none for reads and deletes. */
  request?: { name: string; schema: z.ZodMiniType };
  /** A body the route reads as the exact bytes sent (a provider's webhook): JSON only, described by its sender. */
  rawRequest?: { description: string; schema: Record<string, unknown> };
  parameters?: readonly ParameterName[];
  /** None for a route that only answers errors. */
  success?: SuccessSpec;
  /** Another success answer (`POST /clients` with a known email: 200). */
  alsoSuccess?: SuccessSpec;
  idempotent: boolean;
  errors: readonly ErrorCode[];
  /** Opened without an API key (a hosted page): `security: []`, and its errors are the HTML pages of page-responses.ts. */
  public?: boolean;
  /** Called by a payment provider (Paystack's webhook): `security: []`, its errors the JSON envelope. */
  provider?: boolean;
}

export const OPERATIONS: Record<RouteName, OperationSpec> = {
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
      'recorded: 409 `invoice_has_payments`. A concurrent payment and delete never both succeed. Event `invoice.deleted`.',
    tag: 'Invoices',
    parameters: ['ReferenceCode'],
    success: { status: 200, schema: 'InvoiceDeletedResponse', description: 'Invoice deleted.' },
    idempotent: false,
    errors: [...READ_ERRORS, 'invoice_not_found', 'invoice_has_payments', 'outcome_unknown'],
  },
  ...SEND_OPERATIONS,
  ...REMINDER_OPERATIONS,
  ...DOCUMENT_OPERATIONS,
  ...ONLINE_PAYMENT_OPERATIONS,
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
};
