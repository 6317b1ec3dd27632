/**
 * What the local Paystack server answers, in Paystack's shapes (docs/paystack-local.md "Shapes" says where each is
 * taken from): a transaction as verify and `charge.success` show it, a charge's answer, a customer, a dedicated
 * account, a refund and a refund event's `data`.
 */
import type { Customer, DedicatedAccount, Integration, Json, Refund, Transaction } from './state.ts';

export const BANKS: Record<string, { name: string; id: number; slug: string }> = {
  'wema-bank': { name: 'Wema Bank', id: 20, slug: 'wema-bank' },
  'titan-paystack': { name: 'Titan Paystack', id: 1, slug: 'titan-paystack' },
  'test-bank': { name: 'Test Bank', id: 999, slug: 'test-bank' },
};

export function customerOf(integration: Integration, id: number): Customer {
  const customer = integration.customers.find((c) => c.id === id);
  if (!customer) throw new Error(`local Paystack: customer ${id} is missing from the state`);
  return customer;
}

/** A customer as a transaction carries it. */
export function customerView(customer: Customer): Json {
  return {
    id: customer.id,
    first_name: customer.first_name,
    last_name: customer.last_name,
    email: customer.email,
    customer_code: customer.customer_code,
    phone: customer.phone,
    metadata: customer.metadata,
    risk_action: 'default',
    international_format_phone: null,
  };
}

/** A transaction as `GET /transaction/verify/:reference` shows it, and as `charge.success` carries it. */
export function transactionView(integration: Integration, tx: Transaction): Json {
  return {
    id: tx.id,
    domain: integration.domain,
    status: tx.status,
    reference: tx.reference,
    receipt_number: null,
    amount: tx.amount,
    message: tx.message,
    gateway_response: tx.gateway_response,
    paid_at: tx.paid_at,
    created_at: tx.created_at,
    channel: tx.channel,
    currency: tx.currency,
    ip_address: tx.ip_address,
    metadata: tx.metadata,
    log: null,
    fees: tx.fees,
    fees_split: null,
    authorization: tx.authorization ?? {},
    customer: customerView(customerOf(integration, tx.customer_id)),
    plan: null,
    split: {},
    order_id: null,
    paidAt: tx.paid_at,
    createdAt: tx.created_at,
    requested_amount: tx.amount,
    pos_transaction_data: null,
    source: null,
    fees_breakdown: null,
    connect: null,
    transaction_date: tx.created_at,
    plan_object: {},
    subaccount: {},
  };
}

const CHARGE_FIELDS = [
  'amount',
  'currency',
  'transaction_date',
  'status',
  'reference',
  'domain',
  'metadata',
  'gateway_response',
  'message',
  'channel',
  'ip_address',
  'log',
  'fees',
  'authorization',
  'customer',
  'plan',
  'id',
];

/** `POST /transaction/charge_authorization`'s `data`: the transaction's fields that answer carries. */
export function chargeView(integration: Integration, tx: Transaction): Json {
  const full = transactionView(integration, tx);
  return Object.fromEntries(CHARGE_FIELDS.map((field) => [field, full[field]]));
}

/** `POST /customer`'s `data`. */
export function customerCreatedView(integration: Integration, customer: Customer): Json {
  return {
    email: customer.email,
    first_name: customer.first_name,
    last_name: customer.last_name,
    phone: customer.phone,
    metadata: customer.metadata,
    integration: integration.id,
    domain: integration.domain,
    customer_code: customer.customer_code,
    id: customer.id,
    identified: false,
    identifications: null,
    createdAt: customer.created_at,
    updatedAt: customer.updated_at,
  };
}

/** A dedicated account as `POST /dedicated_account` answers it. */
export function dedicatedAccountView(integration: Integration, account: DedicatedAccount): Json {
  const customer = customerOf(integration, account.customer_id);
  return {
    bank: BANKS[account.bank_slug],
    account_name: account.account_name,
    account_number: account.account_number,
    assigned: true,
    currency: 'NGN',
    metadata: null,
    active: account.active,
    id: account.id,
    created_at: account.created_at,
    updated_at: account.updated_at,
    assignment: {
      integration: integration.id,
      assignee_id: customer.id,
      assignee_type: 'Customer',
      expired: false,
      account_type: 'PAY-WITH-TRANSFER-RECURRING',
      assigned_at: account.created_at,
    },
    customer: {
      id: customer.id,
      first_name: customer.first_name,
      last_name: customer.last_name,
      email: customer.email,
      customer_code: customer.customer_code,
      phone: customer.phone,
      risk_action: 'default',
    },
  };
}

export const REFUNDED_BY = 'merchant@paystack.local';

/** A refund as `GET /refund/:id` shows it (`transaction` is the transaction's id). */
export function refundView(integration: Integration, refund: Refund, tx: Transaction): Json {
  return {
    integration: integration.id,
    transaction: tx.id,
    dispute: null,
    settlement: null,
    id: refund.id,
    domain: integration.domain,
    currency: refund.currency,
    amount: refund.amount,
    status: refund.status,
    refunded_at: refund.refunded_at,
    refunded_by: REFUNDED_BY,
    customer_note: refund.customer_note,
    merchant_note: refund.merchant_note,
    deducted_amount: refund.status === 'processed' ? refund.amount : 0,
    fully_deducted: refund.status === 'processed',
    expected_at: refund.expected_at,
    createdAt: refund.created_at,
    updatedAt: refund.updated_at,
    bank_reference: null,
    transaction_reference: tx.reference,
    reason: refund.customer_note,
    customer: customerView(customerOf(integration, tx.customer_id)),
    refund_type: refund.amount === tx.amount ? 'full' : 'partial',
    transaction_amount: tx.amount,
    initiated_by: 'api',
    refund_channel: tx.channel,
    session_id: null,
    collect_account_number: false,
  };
}

/** `POST /refund`'s `data`: the refund with a short form of its transaction. */
export function refundCreatedView(integration: Integration, refund: Refund, tx: Transaction): Json {
  const { transaction: _id, ...rest } = refundView(integration, refund, tx);
  const full = transactionView(integration, tx);
  const picked = ['id', 'domain', 'reference', 'amount', 'paid_at', 'channel', 'currency', 'authorization', 'customer'];
  const transaction = Object.fromEntries(picked.map((field) => [field, full[field]]));
  const extra = { plan: {}, subaccount: {}, split: {}, order_id: null, paidAt: tx.paid_at, pos_transaction_data: null };
  return { ...rest, transaction: { ...transaction, ...extra, source: null, fees_breakdown: null }, channel: null };
}

/** A refund event's `data` (`refund.pending`, `refund.processing`, `refund.processed`): the amount is a string. */
export function refundEventData(integration: Integration, refund: Refund, tx: Transaction): Json {
  const customer = customerOf(integration, tx.customer_id);
  return {
    status: refund.status,
    transaction_reference: tx.reference,
    refund_reference: refund.refund_reference,
    amount: String(refund.amount),
    currency: refund.currency,
    processor: 'local',
    customer: { first_name: customer.first_name, last_name: customer.last_name, email: customer.email },
    integration: integration.id,
    domain: integration.domain,
    id: String(refund.id),
    customer_note: refund.customer_note,
    merchant_note: refund.merchant_note,
  };
}
