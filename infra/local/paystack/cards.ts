/**
 * The authorizations each way of paying produces, with the values Paystack's test card and its examples show
 * (docs/paystack-local.md "Shapes"): the success card (Visa 4081, reusable), the declining card, a transfer at the
 * checkout, USSD, and a transfer to a dedicated account (its sender and receiver).
 */
import { cardSignature, newAuthorizationCode } from './codes.ts';
import type { Authorization, Customer, Integration } from './state.ts';

type AuthorizationData = Authorization['data'];

const TEST_CARD = { bin: '408408', exp_month: '12', exp_year: '2030', card_type: 'visa ', bank: 'TEST BANK' };

function card(customer: Customer, last4: string, reusable: boolean): AuthorizationData {
  return {
    authorization_code: newAuthorizationCode(),
    bin: TEST_CARD.bin,
    last4,
    exp_month: TEST_CARD.exp_month,
    exp_year: TEST_CARD.exp_year,
    channel: 'card',
    card_type: TEST_CARD.card_type,
    bank: TEST_CARD.bank,
    country_code: 'NG',
    brand: 'visa',
    reusable,
    signature: cardSignature(customer.customer_code, `${TEST_CARD.bin}${last4}`),
    account_name: null,
  };
}

/**
 * The customer's authorization for a card: the one already kept for it (same signature), or a new one, kept so that
 * `charge_authorization` finds it.
 */
function keptCard(integration: Integration, customer: Customer, last4: string, reusable: boolean): AuthorizationData {
  const fresh = card(customer, last4, reusable);
  const known = integration.authorizations.find(
    (a) => a.customer_id === customer.id && a.data.signature === fresh.signature,
  );
  if (known) return known.data;
  integration.authorizations.push({ customer_id: customer.id, data: fresh });
  return fresh;
}

export const successCard = (integration: Integration, customer: Customer) =>
  keptCard(integration, customer, '4081', true);

export const decliningCard = (integration: Integration, customer: Customer) =>
  keptCard(integration, customer, '5408', false);

function monthAndYear(): { exp_month: string; exp_year: string } {
  const now = new Date();
  return { exp_month: String(now.getUTCMonth() + 1).padStart(2, '0'), exp_year: String(now.getUTCFullYear()) };
}

/** "Pay with transfer" at the checkout (a one-off account; the channel `bank_transfer`). */
export function checkoutTransfer(): AuthorizationData {
  return {
    authorization_code: newAuthorizationCode(),
    bin: '008XXX',
    last4: 'X553',
    ...monthAndYear(),
    channel: 'bank_transfer',
    card_type: 'transfer',
    bank: null,
    country_code: 'NG',
    brand: 'Managed Account',
    reusable: false,
    signature: null,
    account_name: null,
    sender_country: 'NG',
    sender_bank: null,
    sender_bank_account_number: 'XXXXXXX553',
    sender_name: 'Local Checkout Sender',
    narration: 'Local checkout transfer',
  };
}

export function ussd(): AuthorizationData {
  return {
    authorization_code: newAuthorizationCode(),
    bin: 'XXXXXX',
    last4: 'XXXX',
    ...monthAndYear(),
    channel: 'ussd',
    card_type: 'offline',
    bank: 'Guaranty Trust Bank',
    country_code: 'NG',
    brand: 'offline',
    reusable: false,
    signature: null,
    account_name: null,
  };
}

export interface IncomingTransfer {
  sender_name: string;
  sender_bank: string;
  sender_account_number: string;
  narration: string;
}

/** A transfer into a dedicated account: the sender's account masked but its last 4, the receiving account. */
export function dedicatedNuban(
  transfer: IncomingTransfer,
  receiver: { account_number: string; bank: string },
): AuthorizationData {
  const digits = transfer.sender_account_number;
  return {
    authorization_code: newAuthorizationCode(),
    bin: `${digits.slice(0, 3)}XXX`,
    last4: `X${digits.slice(-3)}`,
    ...monthAndYear(),
    channel: 'dedicated_nuban',
    card_type: 'transfer',
    bank: transfer.sender_bank,
    country_code: 'NG',
    brand: 'Managed Account',
    reusable: false,
    signature: null,
    account_name: null,
    sender_bank: transfer.sender_bank,
    sender_bank_account_number: `${'X'.repeat(Math.max(digits.length - 4, 0))}${digits.slice(-4)}`,
    sender_country: 'NG',
    sender_name: transfer.sender_name,
    narration: transfer.narration,
    receiver_bank_account_number: receiver.account_number,
    receiver_bank: receiver.bank,
  };
}
