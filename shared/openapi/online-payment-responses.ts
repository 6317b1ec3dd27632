/**
 * The response shapes of getting paid online (docs/getting-paid-online.md): the fields an online payment adds to the
 * Payment schema (./responses.ts), a client's saved cards, and the answers of the card routes.
 */
import { money, object, type Schema, string } from './schema-builders.ts';

const Refund = object('What of the payment is given back through Paystack (docs/getting-paid-online.md "Refunds").', {
  amount: money('Amount refunded'),
  status: string("`pending` until Paystack has it, then Paystack's refund status (`processing`, `processed`…)"),
  id: { type: ['string', 'null'], description: "Paystack's refund id, once it has one" },
});

const PaymentCard = object('The card the payment was made with, when it was saved (`tokenize`).', {
  brand: string('Card brand, e.g. visa'),
  last4: string('Last 4 digits', { pattern: '^\\d{4}$' }),
  exp_month: string('Expiry month, e.g. "12"'),
  exp_year: string('Expiry year, e.g. "2030"'),
});

/** Spread into the Payment schema; all of them optional (only online payments carry them). */
export const ONLINE_PAYMENT_FIELDS: Record<string, Schema> = {
  amount_charged: money('Online payments only: what Paystack charged (`amount` is what the invoice was credited)'),
  fees: money("Online payments only: Paystack's processing fee on the charge, as it reported it"),
  refund: Refund,
  card_token: string('Online card payments with `tokenize`: the saved card, for `card_token` of a later invoice', {
    pattern: '^ctok_[A-Za-z0-9_-]{24}$',
  }),
  card: PaymentCard,
};

export const ONLINE_PAYMENT_OPTIONAL = Object.keys(ONLINE_PAYMENT_FIELDS);

const SavedCard = object('One of the client\'s saved cards (docs/getting-paid-online.md "Saved cards").', {
  card_token_last4: string('The last 4 characters of its `card_token`'),
  brand: string('Card brand, e.g. visa'),
  last4: string('Last 4 digits of the card', { pattern: '^\\d{4}$' }),
  exp_month: string('Expiry month'),
  exp_year: string('Expiry year'),
});

/** Spread into the Client schema: only `GET /clients/{id}` and the card routes answer it. */
export const CLIENT_CARDS_FIELD: Record<string, Schema> = {
  cards: {
    type: 'array',
    description: 'Its saved cards, oldest first (`GET /clients/{id}` and the card routes only)',
    items: { $ref: '#/components/schemas/SavedCard' },
  },
};

const ClientWithCards = {
  description: 'A client with its saved cards.',
  allOf: [{ $ref: '#/components/schemas/Client' }, { required: ['cards'] }],
} satisfies Schema;

const clientAnswer = (description: string, message?: string): Schema =>
  object(
    description,
    {
      status: { type: 'string', const: 'success' },
      ...(message === undefined ? {} : { message: { type: 'string', examples: [message] } }),
      data: { $ref: '#/components/schemas/ClientWithCards' },
    },
    [],
  );

const PaystackEventReceivedResponse = object('The event is stored for processing.', {
  status: { type: 'string', const: 'success' },
  message: { type: 'string', examples: ['Event received.'] },
  data: object('The stored event.', { event_id: string('Its id (`pse_` + ULID)', { pattern: '^pse_[0-9A-Z]{26}$' }) }),
});

export const ONLINE_PAYMENT_SCHEMAS: Record<string, Schema> = {
  PaystackEventReceivedResponse,
  SavedCard,
  ClientWithCards,
  ClientWithCardsResponse: clientAnswer('The client, with its saved cards.'),
  CardForgottenResponse: clientAnswer('The card is forgotten; the client with the cards left.', 'Card removed.'),
};
