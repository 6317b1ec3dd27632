/**
 * The response shapes of bank transfers (docs/bank-transfers.md): what a transfer's payments add to the Payment schema,
 * the two fields a client gains, and the answers of the virtual-account and credit-refund routes.
 */
import { money, object, type Schema, string } from './schema-builders.ts';

const Sender = object('Who sent the transfer, as Paystack reports it.', {
  name: string("The sender's account name"),
  bank: string("The sender's bank"),
  account_number: string('The last 4 digits of the sender’s account'),
});

/** Spread into the Payment schema; only payments from a transfer into a virtual account carry them. */
export const TRANSFER_PAYMENT_FIELDS: Record<string, Schema> = {
  sender: Sender,
  allocation: {
    type: 'string',
    enum: ['narration', 'exact_amount', 'oldest_due'],
    description: 'Transfers only: how the transfer was matched to this invoice (docs/bank-transfers.md "Matching")',
  },
};

const VirtualAccount = object("The client's dedicated virtual account at Paystack.", {
  bank_name: string('The bank, e.g. Wema Bank'),
  account_name: string('The account name Paystack gave it'),
  account_number: string('The 10-digit account number', { pattern: '^\\d{10}$' }),
});

/** Spread into the Client schema: every client answer carries them (the nested client of an invoice does not). */
export const CLIENT_BANKING_FIELDS: Record<string, Schema> = {
  virtual_account: {
    description: 'Its virtual account (`POST /clients/{id}/virtual-account`), or null',
    oneOf: [{ $ref: '#/components/schemas/VirtualAccount' }, { type: 'null' }],
  },
  credit_balance: money('Money the client paid that no open invoice took, applied to its next invoices'),
};

const ClientWithBanking = {
  description: 'A client with its virtual account and its credit.',
  allOf: [{ $ref: '#/components/schemas/Client' }, { required: ['virtual_account', 'credit_balance'] }],
} satisfies Schema;

const CreditRefund = object('How the credit went back.', {
  amount: money('The amount refunded'),
  through_paystack: {
    type: 'array',
    description: 'The parts refunded through Paystack, one per transfer the credit came from (queued refunds)',
    items: object('A refund of part of one transfer.', {
      reference: string("The transfer's Paystack reference"),
      amount: money('The amount'),
    }),
  },
  by_hand: money('The part no transfer covers: recorded as paid back by hand'),
});

const answer = (description: string, message: string, data: Schema): Schema =>
  object(description, {
    status: { type: 'string', const: 'success' },
    message: { type: 'string', examples: [message] },
    data,
  });

const ClientCreditChanged = object("A change of a client's credit: `client.credit_changed`'s data.", {
  client_id: string("The client's id"),
  credit_balance: money('The credit after the change'),
  change: object('What changed.', {
    kind: {
      type: 'string',
      enum: ['received', 'applied', 'refunded', 'refund_failed', 'application_reversed'],
      description:
        'Received (from a transfer or a credit note), applied to an invoice (a payment with channel Credit, or taken ' +
        'back when the invoice its credit notes credited is voided), refunded, or given back (`refund_failed`: a ' +
        'refund through Paystack failed for good; `application_reversed`: a payment from credit was reversed)',
    },
    amount: money('How much'),
    reference: {
      description: "The transfer's Paystack reference, for credit received or given back; else null",
      oneOf: [{ type: 'string' }, { type: 'null' }],
    },
  }),
});

export const BANK_TRANSFER_SCHEMAS: Record<string, Schema> = {
  VirtualAccount,
  ClientCreditChanged,
  ClientWithBanking,
  VirtualAccountResponse: answer('The client with its virtual account.', 'Virtual account ready.', {
    $ref: '#/components/schemas/ClientWithBanking',
  }),
  CreditRefundResponse: answer(
    'The client after the refund, and the refund.',
    'Credit refunded.',
    object('The client with its credit after the refund, and how it went back.', {
      client: { $ref: '#/components/schemas/ClientWithBanking' },
      refund: CreditRefund,
    }),
  ),
};
