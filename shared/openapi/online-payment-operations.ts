/**
 * The operations of getting paid online (docs/getting-paid-online.md), spread into OPERATIONS (./operations.ts): the
 * pay button and the return (HTML, for people), Paystack's webhook (JSON, for Paystack) and forgetting a saved card.
 */
import type { RouteName } from '../routes.ts';
import { READ_ERRORS } from './error-sets.ts';
import type { OperationSpec } from './operations.ts';

type OnlineRoute = Extract<
  RouteName,
  'hosted-invoice-pay' | 'hosted-invoice-paid' | 'paystack-event' | 'forget-client-card'
>;

export const ONLINE_PAYMENT_OPERATIONS: Record<OnlineRoute, OperationSpec> = {
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
};

/** The request body of a route that reads the exact bytes sent (Paystack's webhook): JSON only. */
export const rawRequestBody = (request: NonNullable<OperationSpec['rawRequest']>) => ({
  required: true,
  description: request.description,
  content: { 'application/json': { schema: request.schema } },
});
