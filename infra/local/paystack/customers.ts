/**
 * Customers and dedicated virtual accounts (docs/paystack-local.md "API"): `POST /customer` (an email already known
 * gives the same customer), `GET /customer/:email_or_code`, `POST /dedicated_account` (one account per customer: a
 * second call answers the account it already has).
 */
import { newCustomerCode } from './codes.ts';
import type { Engine } from './engine.ts';
import { type Fields, invalid, metadataField, notFound, textField } from './http.ts';
import { BANKS, customerCreatedView, dedicatedAccountView } from './shapes.ts';
import type { Customer, DedicatedAccount, Integration, Json, StateFile } from './state.ts';

export function findCustomer(integration: Integration, emailCodeOrId: string): Customer | undefined {
  const wanted = emailCodeOrId.toLowerCase();
  return integration.customers.find(
    (c) => c.email === wanted || c.customer_code.toLowerCase() === wanted || String(c.id) === emailCodeOrId,
  );
}

export function findOrCreateCustomer(engine: Engine, integration: Integration, email: string): Customer {
  const known = findCustomer(integration, email);
  if (known) return known;
  const now = new Date().toISOString();
  const customer: Customer = {
    id: engine.store.next('customer'),
    customer_code: newCustomerCode(),
    email: email.toLowerCase(),
    first_name: null,
    last_name: null,
    phone: null,
    metadata: null,
    created_at: now,
    updated_at: now,
  };
  integration.customers.push(customer);
  return customer;
}

/** Names and phone given in a request replace the customer's (Paystack updates them the same way). */
function updateDetails(customer: Customer, fields: Fields): void {
  for (const name of ['first_name', 'last_name', 'phone'] as const) {
    const value = textField(fields, name);
    if (value !== undefined && value !== customer[name]) {
      customer[name] = value;
      customer.updated_at = new Date().toISOString();
    }
  }
}

export function createCustomer(engine: Engine, integration: Integration, fields: Fields): Json {
  const email = textField(fields, 'email');
  if (email === undefined) throw invalid('Email is required');
  const customer = findOrCreateCustomer(engine, integration, email);
  updateDetails(customer, fields);
  if (fields.metadata !== undefined) customer.metadata = metadataField(fields);
  engine.store.save();
  return customerCreatedView(integration, customer);
}

export function fetchCustomer(integration: Integration, emailOrCode: string): Json {
  const customer = findCustomer(integration, emailOrCode);
  if (!customer) throw notFound('Customer not found');
  const account = integration.dedicated_accounts.find((a) => a.customer_id === customer.id);
  return {
    ...customerCreatedView(integration, customer),
    transactions: [],
    subscriptions: [],
    authorizations: integration.authorizations.filter((a) => a.customer_id === customer.id).map((a) => a.data),
    risk_action: 'default',
    created_at: customer.created_at,
    updated_at: customer.updated_at,
    total_transactions: integration.transactions.filter((t) => t.customer_id === customer.id).length,
    total_transaction_value: [],
    dedicated_account: account ? dedicatedAccountView(integration, account) : null,
  };
}

/** The customer's dedicated account: the one it has, or a new 10-digit account at the preferred bank. */
export function createDedicatedAccount(
  engine: Engine,
  integration: Integration,
  fields: Fields,
): { message: string; data: Json } {
  const reference = textField(fields, 'customer');
  if (reference === undefined) throw invalid('Customer is required');
  const customer = findCustomer(integration, reference);
  if (!customer) throw notFound('Customer not found');
  const slug = textField(fields, 'preferred_bank') ?? 'wema-bank';
  if (!BANKS[slug]) throw invalid('Preferred bank is not supported', `Pass one of: ${Object.keys(BANKS).join(', ')}`);
  const existing = integration.dedicated_accounts.find((a) => a.customer_id === customer.id && a.active);
  if (existing) return { message: 'Managed account successfully retrieved', data: view(integration, existing) };
  updateDetails(customer, fields);
  if (!customer.first_name || !customer.last_name || !customer.phone)
    throw invalid(
      'Customer first_name, last_name and phone are required to create a dedicated account',
      "Set the customer's first_name, last_name and phone, or pass them with this request",
    );
  const now = new Date().toISOString();
  const account: DedicatedAccount = {
    id: engine.store.next('dedicated_account'),
    customer_id: customer.id,
    bank_slug: slug,
    account_name: `${integration.business_name}/${customer.first_name} ${customer.last_name}`,
    account_number: String(engine.store.next('account_number')),
    active: true,
    created_at: now,
    updated_at: now,
  };
  integration.dedicated_accounts.push(account);
  engine.store.save();
  return { message: 'NUBAN successfully created', data: view(integration, account) };
}

const view = dedicatedAccountView;

/** The dedicated account with this number, whichever integration it belongs to (account numbers are unique). */
export function findAccountByNumber(
  store: StateFile,
  accountNumber: string,
): { integration: Integration; account: DedicatedAccount } | undefined {
  for (const integration of store.integrations()) {
    const account = integration.dedicated_accounts.find((a) => a.account_number === accountNumber);
    if (account) return { integration, account };
  }
  return undefined;
}
