/**
 * The ways a transaction gets paid (docs/paystack-local.md "API", "Checkout", "Control endpoints"): charging a saved
 * authorization (`POST /transaction/charge_authorization`), a choice on the checkout page, and a bank transfer into a
 * dedicated account.
 */
import { checkoutTransfer, decliningCard, dedicatedNuban, type IncomingTransfer, successCard, ussd } from './cards.ts';
import { findAccountByNumber } from './customers.ts';
import type { Engine } from './engine.ts';
import { type Fields, invalid, metadataField, notFound, textField } from './http.ts';
import { BANKS, chargeView, customerOf } from './shapes.ts';
import type { Integration, Json, Transaction } from './state.ts';
import {
  amountOrRefuse,
  currencyField,
  emailField,
  markFailed,
  markPaid,
  newTransaction,
  referenceField,
} from './transactions.ts';

const WRONG_EMAIL =
  'Email does not match Authorization code. Authorization may be inactive or belong to a different email. Please confirm.';

/** Whether the control endpoint asked for this authorization's next charge to decline (and counts it off). */
function forcedDecline(integration: Integration, code: string): boolean {
  const remaining = integration.declines[code] ?? 0;
  if (remaining <= 0) return false;
  if (remaining === 1) delete integration.declines[code];
  else integration.declines[code] = remaining - 1;
  return true;
}

/** A reusable authorization is charged (success, `charge.success`); a forced or non-reusable one declines. */
export function chargeAuthorization(engine: Engine, integration: Integration, fields: Fields): Json {
  const code = textField(fields, 'authorization_code');
  const kept = integration.authorizations.find((a) => a.data.authorization_code === code);
  if (!kept)
    throw invalid(
      'Invalid Authorization Code',
      "Ensure your request doesn't contain an empty authorization. Also make sure you're using the right authorization code for the customer you're trying to charge",
    );
  const email = emailField(fields);
  const amount = amountOrRefuse(fields);
  const customer = customerOf(integration, kept.customer_id);
  if (customer.email !== email.toLowerCase()) throw invalid(WRONG_EMAIL);
  const currency = currencyField(fields);
  const reference = referenceField(integration, fields);
  const metadata = metadataField(fields);
  const tx = newTransaction(engine, integration, { reference, amount, currency, customer, channel: 'card', metadata });
  const payment = { channel: 'card', authorization: kept.data, gateway_response: 'Approved' };
  if (forcedDecline(integration, kept.data.authorization_code) || !kept.data.reusable) {
    markFailed(tx, { ...payment, gateway_response: 'Declined' });
    engine.store.save();
  } else markPaid(engine, integration, tx, payment);
  return chargeView(integration, tx);
}

export const CHECKOUT_CHOICES = ['success_card', 'declining_card', 'bank_transfer', 'ussd', 'abandon'] as const;
export type CheckoutChoice = (typeof CHECKOUT_CHOICES)[number];
export type CheckoutOutcome = 'paid' | 'declined' | 'abandoned' | 'closed';

/** What the customer chose on the checkout page, done to the transaction. A paid one stays as it is. */
export function payAtCheckout(
  engine: Engine,
  integration: Integration,
  tx: Transaction,
  choice: CheckoutChoice,
  ipAddress: string | null,
): CheckoutOutcome {
  if (tx.status === 'success' || tx.status === 'reversed') return 'closed';
  const customer = customerOf(integration, tx.customer_id);
  const at = { ip_address: ipAddress };
  if (choice === 'abandon') {
    // A declined attempt stays `failed`: verify tells what happened last.
    if (tx.status !== 'failed') tx.status = 'abandoned';
    engine.store.save();
    return 'abandoned';
  }
  if (choice === 'declining_card') {
    markFailed(tx, {
      channel: 'card',
      authorization: decliningCard(integration, customer),
      gateway_response: 'Declined',
      ...at,
    });
    engine.store.save();
    return 'declined';
  }
  const payment =
    choice === 'success_card'
      ? { channel: 'card', authorization: successCard(integration, customer), gateway_response: 'Successful' }
      : choice === 'bank_transfer'
        ? { channel: 'bank_transfer', authorization: checkoutTransfer(), gateway_response: 'Approved' }
        : { channel: 'ussd', authorization: ussd(), gateway_response: 'Payment successful', message: 'madePayment' };
  markPaid(engine, integration, tx, { ...payment, ...at });
  return 'paid';
}

function transferFields(fields: Fields): IncomingTransfer {
  const senderAccount = textField(fields, 'sender_account_number') ?? '0123456789';
  if (!/^\d{4,}$/.test(senderAccount)) throw invalid('sender_account_number must be digits');
  return {
    sender_name: textField(fields, 'sender_name') ?? 'LOCAL TEST SENDER',
    sender_bank: textField(fields, 'sender_bank') ?? 'Test Bank',
    sender_account_number: senderAccount,
    narration: textField(fields, 'narration') ?? '',
  };
}

/** A bank transfer arrives in a dedicated account: a `dedicated_nuban` success for the account's customer. */
export function receiveTransfer(
  engine: Engine,
  fields: Fields,
): { integration: Integration; transaction: Transaction } {
  const accountNumber = textField(fields, 'account_number') ?? '';
  const found = findAccountByNumber(engine.store, accountNumber);
  if (!found?.account.active) throw notFound('Dedicated account not found');
  const { integration, account } = found;
  const amount = amountOrRefuse(fields);
  const transfer = transferFields(fields);
  const tx = newTransaction(engine, integration, {
    reference: referenceField(integration, {}),
    amount,
    currency: 'NGN',
    customer: customerOf(integration, account.customer_id),
    channel: 'dedicated_nuban',
    metadata: '',
  });
  const receiver = { account_number: account.account_number, bank: BANKS[account.bank_slug]!.name };
  markPaid(engine, integration, tx, {
    channel: 'dedicated_nuban',
    authorization: dedicatedNuban(transfer, receiver),
    gateway_response: 'Approved',
  });
  return { integration, transaction: tx };
}
