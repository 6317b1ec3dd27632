/**
 * Paystack's JSON (docs/paystack-local.md "Shapes" lists where each shape is documented) mapped onto the domain's own
 * types and this client's results: a malformed answer maps to undefined, never to a half-filled value.
 */
import type { CardAuthorization, TransferDetails, VerifiedCharge } from '../domain/online-recording.ts';
import { isRecord } from '../guards.ts';

export interface Checkout {
  authorizationUrl: string;
  accessCode: string;
  reference: string;
}

export interface PaystackRefund {
  id: string;
  status: string;
  amountKobo: number;
  /** What the refund was asked with (the refund job names itself in it). */
  merchantNote: string;
}

export interface DedicatedAccount {
  bankName: string;
  accountName: string;
  accountNumber: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const integer = (value: unknown): number | undefined => {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
};

export function checkoutFromPaystack(data: Record<string, unknown>): Checkout | undefined {
  const { authorization_url: url, access_code: code, reference } = data;
  if (typeof url !== 'string' || typeof reference !== 'string') return undefined;
  return { authorizationUrl: url, accessCode: text(code), reference };
}

/** A transaction as verify (or charge_authorization, or `charge.success`'s `data`) shows it; undefined if malformed. */
export function chargeFromPaystack(data: Record<string, unknown>): VerifiedCharge | undefined {
  const amount = integer(data.amount);
  const id = integer(data.id) ?? (typeof data.id === 'string' && data.id !== '' ? data.id : undefined);
  if (typeof data.reference !== 'string' || typeof data.status !== 'string' || amount === undefined) return undefined;
  const paidAt = text(data.paid_at) || text(data.paidAt);
  const authorization = cardFromPaystack(data.authorization);
  return {
    reference: data.reference,
    status: data.status,
    amountKobo: amount,
    currency: text(data.currency),
    transactionId: id === undefined ? '' : String(id),
    channel: text(data.channel),
    gatewayResponse: text(data.gateway_response),
    message: text(data.message),
    paidAt: paidAt === '' ? null : paidAt,
    feesKobo: integer(data.fees) ?? 0,
    ...(authorization ? { authorization } : {}),
    ...transferOf(data),
  };
}

/** A dedicated-account transfer's customer and sender (Paystack's dedicated virtual account `charge.success`). */
function transferOf(data: Record<string, unknown>): { transfer?: TransferDetails } {
  if (data.channel !== 'dedicated_nuban') return {};
  const customer = isRecord(data.customer) ? data.customer : {};
  const authorization = isRecord(data.authorization) ? data.authorization : {};
  return {
    transfer: {
      customerCode: text(customer.customer_code),
      receiverAccountNumber: text(authorization.receiver_bank_account_number),
      senderName: text(authorization.sender_name),
      senderBank: text(authorization.sender_bank),
      senderAccountNumber: text(authorization.sender_bank_account_number),
      narration: text(authorization.narration),
    },
  };
}

function cardFromPaystack(value: unknown): CardAuthorization | undefined {
  if (!isRecord(value) || typeof value.authorization_code !== 'string') return undefined;
  return {
    code: value.authorization_code,
    reusable: value.reusable === true,
    brand: text(value.brand).trim() || text(value.card_type).trim(),
    last4: text(value.last4),
    expMonth: text(value.exp_month) || String(integer(value.exp_month) ?? ''),
    expYear: text(value.exp_year) || String(integer(value.exp_year) ?? ''),
    signature: typeof value.signature === 'string' && value.signature !== '' ? value.signature : null,
  };
}

export function refundFromPaystack(data: Record<string, unknown>): PaystackRefund | undefined {
  const id = integer(data.id) ?? (typeof data.id === 'string' ? data.id : undefined);
  const amount = integer(data.amount);
  if (id === undefined || amount === undefined) return undefined;
  return { id: String(id), status: text(data.status), amountKobo: amount, merchantNote: text(data.merchant_note) };
}

export function dedicatedAccountFromPaystack(data: Record<string, unknown>): DedicatedAccount | undefined {
  const bank = isRecord(data.bank) ? text(data.bank.name) : '';
  if (typeof data.account_number !== 'string') return undefined;
  return { bankName: bank, accountName: text(data.account_name), accountNumber: data.account_number };
}

export function customerFromPaystack(data: Record<string, unknown>): { customerCode: string } | undefined {
  return typeof data.customer_code === 'string' ? { customerCode: data.customer_code } : undefined;
}
