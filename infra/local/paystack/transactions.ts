/**
 * Transactions (docs/paystack-local.md "API"): `POST /transaction/initialize`, `GET /transaction/verify/:reference`,
 * `GET /transaction/:id`, and what every way of paying shares — a new transaction, a success (fees, `charge.success`)
 * or a failure.
 */
import { newAccessCode, newReference, VALID_REFERENCE } from './codes.ts';
import { findOrCreateCustomer } from './customers.ts';
import type { Engine } from './engine.ts';
import { paystackFee } from './fees.ts';
import { amountField, type Fields, invalid, metadataField, notFound, PaystackRefusal, textField } from './http.ts';
import { transactionView } from './shapes.ts';
import type { Authorization, Customer, Integration, Json, Transaction } from './state.ts';

export const CURRENCIES = ['NGN', 'GHS', 'KES', 'ZAR', 'USD'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NOT_COMPLETED = 'The transaction was not completed';

export function findTransaction(integration: Integration, reference: string): Transaction | undefined {
  return integration.transactions.find((tx) => tx.reference === reference);
}

/** The email of a request, checked as Paystack checks it. */
export function emailField(fields: Fields): string {
  const email = textField(fields, 'email');
  if (email === undefined)
    throw invalid('Email is not allowed to be empty', 'Pass the email to the transaction initialize API');
  if (!EMAIL.test(email)) throw invalid('Invalid Email Address Passed');
  return email;
}

export function currencyField(fields: Fields): string {
  const currency = (textField(fields, 'currency') ?? 'NGN').toUpperCase();
  if (!CURRENCIES.includes(currency)) throw invalid('Currency not supported by merchant');
  return currency;
}

/** The reference given (checked: its characters, unused on this integration), or a new one. */
export function referenceField(integration: Integration, fields: Fields): string {
  const given = textField(fields, 'reference');
  if (given === undefined) {
    let reference = newReference();
    while (findTransaction(integration, reference)) reference = newReference();
    return reference;
  }
  if (!VALID_REFERENCE.test(given)) throw invalid('Invalid character in transaction reference');
  if (findTransaction(integration, given))
    throw invalid(
      'Duplicate Transaction Reference',
      'Try and create the Transaction or Charge with a new reference',
      'duplicate_reference',
    );
  return given;
}

function callbackUrlField(fields: Fields): string | null {
  const given = textField(fields, 'callback_url');
  if (given === undefined) return null;
  const parsed = URL.canParse(given) ? new URL(given) : undefined;
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') throw invalid('Invalid callback_url');
  return given;
}

function channelsField(fields: Fields): string[] | null {
  const value = fields.channels;
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  if (typeof value === 'string' && value !== '') return value.split(',').map((item) => item.trim());
  return null;
}

interface NewTransaction {
  reference: string;
  amount: number;
  currency: string;
  customer: Customer;
  channel: string;
  metadata: unknown;
  access_code?: string;
  callback_url?: string | null;
  channels?: string[] | null;
}

/** A transaction not yet paid: verify shows it `abandoned` ("not completed") until the customer pays. */
export function newTransaction(engine: Engine, integration: Integration, init: NewTransaction): Transaction {
  const tx: Transaction = {
    id: engine.store.next('transaction'),
    reference: init.reference,
    access_code: init.access_code ?? null,
    amount: init.amount,
    currency: init.currency,
    customer_id: init.customer.id,
    status: 'abandoned',
    gateway_response: NOT_COMPLETED,
    message: null,
    channel: init.channel,
    metadata: init.metadata,
    ip_address: null,
    callback_url: init.callback_url ?? null,
    channels: init.channels ?? null,
    authorization: null,
    fees: null,
    created_at: new Date().toISOString(),
    paid_at: null,
  };
  integration.transactions.push(tx);
  return tx;
}

interface Payment {
  channel: string;
  authorization: Authorization['data'];
  gateway_response: string;
  message?: string | null;
  ip_address?: string | null;
}

/** The transaction succeeds: Paystack's fee, the time paid, and `charge.success` to the webhook URL (saved). */
export function markPaid(engine: Engine, integration: Integration, tx: Transaction, payment: Payment): void {
  Object.assign(tx, {
    status: 'success',
    channel: payment.channel,
    authorization: payment.authorization,
    gateway_response: payment.gateway_response,
    message: payment.message ?? null,
    ip_address: payment.ip_address ?? tx.ip_address,
    fees: paystackFee(tx.amount),
    paid_at: new Date().toISOString(),
  });
  engine.outbox.emit(integration, 'charge.success', transactionView(integration, tx), tx.reference);
}

/** The attempt fails: no fee, no time paid, no event (Paystack sends none for a failure). */
export function markFailed(tx: Transaction, payment: Payment): void {
  Object.assign(tx, {
    status: 'failed',
    channel: payment.channel,
    authorization: payment.authorization,
    gateway_response: payment.gateway_response,
    message: payment.message ?? null,
    ip_address: payment.ip_address ?? tx.ip_address,
    fees: null,
    paid_at: null,
  });
}

export function initialize(engine: Engine, integration: Integration, fields: Fields): Json {
  const email = emailField(fields);
  const amount = amountOrRefuse(fields);
  const currency = currencyField(fields);
  const reference = referenceField(integration, fields);
  const callbackUrl = callbackUrlField(fields);
  let accessCode = newAccessCode();
  while (engine.store.integrations().some((i) => i.transactions.some((tx) => tx.access_code === accessCode)))
    accessCode = newAccessCode();
  newTransaction(engine, integration, {
    reference,
    amount,
    currency,
    customer: findOrCreateCustomer(engine, integration, email),
    channel: 'card',
    metadata: metadataField(fields),
    access_code: accessCode,
    callback_url: callbackUrl,
    channels: channelsField(fields),
  });
  engine.store.save();
  return { authorization_url: engine.checkoutUrl(accessCode), access_code: accessCode, reference };
}

export function amountOrRefuse(fields: Fields): number {
  const amount = amountField(fields);
  if (amount === undefined) throw invalid('Invalid Amount Sent');
  return amount;
}

export function verify(integration: Integration, reference: string): Json {
  const tx = findTransaction(integration, reference);
  if (!tx)
    throw invalid(
      'Transaction reference not found',
      "Ensure that you're passing the reference of a transaction that exists on this integration",
    );
  return transactionView(integration, tx);
}

export function fetchTransaction(integration: Integration, id: string): Json {
  if (!/^\d+$/.test(id)) throw new PaystackRefusal(400, 'Transaction ID should be numeric.');
  const tx = integration.transactions.find((t) => t.id === Number(id));
  if (!tx) throw notFound('Transaction not found');
  return transactionView(integration, tx);
}
