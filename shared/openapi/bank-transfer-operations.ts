/** The operations of bank transfers (docs/bank-transfers.md), spread into ./operations.ts's table. */
import type { ErrorCode } from '../http/errors.ts';
import { refundCreditSchema } from '../schemas/client-credit.ts';
import { BODY_ERRORS, READ_ERRORS } from './operation-spec.ts';

export const BANK_TRANSFER_OPERATIONS = {
  'create-virtual-account': {
    operationId: 'createVirtualAccount',
    summary: "Open the client's virtual account",
    description:
      "Creates the client's dedicated virtual account through Paystack (`POST /customer`, then `POST /dedicated_account` " +
      "at the account's preferred bank, `account:update --paystack-preferred-bank`, default `wema-bank`), or returns " +
      'the one it has: one account per client, however often or concurrently asked. Transfers into it are matched to ' +
      "the client's invoices by themselves (docs/bank-transfers.md). Not connected to Paystack: 409 " +
      '`payments_not_connected`; Paystack refusing (the client lacks a phone, say): 422 `virtual_account_refused`; ' +
      'Paystack unreachable: 503 `provider_unavailable`.',
    tag: 'Clients',
    parameters: ['ClientId'] as const,
    success: { status: 200, schema: 'VirtualAccountResponse', description: 'The client with its virtual account.' },
    idempotent: false,
    errors: [
      ...READ_ERRORS,
      'client_not_found',
      'payments_not_connected',
      'virtual_account_refused',
      'provider_unavailable',
    ] as readonly ErrorCode[],
  },
  'refund-client-credit': {
    operationId: 'refundClientCredit',
    summary: "Refund a client's credit",
    description:
      '`{"amount":"5,000.00"}` gives back that much of the client\'s `credit_balance`: the part that came from transfers ' +
      'goes back through Paystack (a refund of each transfer, newest first, queued with the debit), the rest is recorded ' +
      'as paid back by hand. More than the credit: 409 `amount_exceeds_credit`, nothing written. Also for a deleted client.',
    tag: 'Clients',
    request: { name: 'RefundCreditRequest', schema: refundCreditSchema },
    parameters: ['ClientId'] as const,
    success: { status: 200, schema: 'CreditRefundResponse', description: 'Refunded; the client and the refund.' },
    idempotent: false,
    errors: [
      ...BODY_ERRORS,
      ...READ_ERRORS,
      'client_not_found',
      'amount_exceeds_credit',
      'outcome_unknown',
    ] as readonly ErrorCode[],
  },
};
