/**
 * A client of Paystack's REST API (docs/getting-paid-online.md "Paystack's API"): initialize, verify,
 * charge_authorization, refund, customer and dedicated_account, each with a hard timeout (5 s, less when the invocation
 * has less left) and a typed result. Paystack's JSON is mapped here onto the domain's own types
 * (domain/online-recording.ts), so nothing above this module knows Paystack's field names. Any Paystack-compatible
 * server can stand behind the base URL (PAYSTACK_BASE_URL). The services import it on first use only.
 */
import { remainingCallTime } from '../call-deadline.ts';
import type { VerifiedCharge } from '../domain/online-recording.ts';
import { isRecord } from '../guards.ts';
import {
  type Checkout,
  chargeFromPaystack,
  checkoutFromPaystack,
  customerFromPaystack,
  type DedicatedAccount,
  dedicatedAccountFromPaystack,
  type PaystackRefund,
  refundFromPaystack,
} from './paystack-shapes.ts';

export type { Checkout, DedicatedAccount, PaystackRefund };

export const PAYSTACK_TIMEOUT_MS = 5_000;
/** Time kept back from the invocation's deadline for the answer after a call to Paystack. */
const ANSWER_MARGIN_MS = 1_500;

/** Paystack could not be reached or did not answer in time (or answered 5xx): try again later. */
export interface PaystackUnavailable {
  kind: 'unavailable';
  detail: string;
}

/** Paystack answered and refused (4xx, or `status: false`): its message. */
export interface PaystackRefused {
  kind: 'refused';
  httpStatus: number;
  message: string;
}

export type PaystackResult<T> = { ok: true; value: T } | { ok: false; failure: PaystackUnavailable | PaystackRefused };

export interface InitializeRequest {
  email: string;
  amountKobo: number;
  reference: string;
  callbackUrl: string;
  metadata: Record<string, string | number>;
}

export interface RefundRequest {
  /** The transaction's reference or id. */
  transaction: string;
  amountKobo: number;
  merchantNote?: string;
}

export interface PaystackApiOptions {
  baseUrl: string;
  timeoutMs?: number;
}

/** The API with one account's secret key. */
export class PaystackApi {
  constructor(
    private readonly secretKey: string,
    private readonly options: PaystackApiOptions,
  ) {}

  /** `POST /transaction/initialize`: a checkout for `amountKobo` in NGN. */
  async initialize(request: InitializeRequest): Promise<PaystackResult<Checkout>> {
    const body = {
      email: request.email,
      amount: request.amountKobo,
      currency: 'NGN',
      reference: request.reference,
      callback_url: request.callbackUrl,
      metadata: request.metadata,
    };
    return mapped(await this.call('POST', '/transaction/initialize', body), checkoutFromPaystack);
  }

  /** `GET /transaction/verify/{reference}`: the transaction as Paystack has it. */
  async verify(reference: string): Promise<PaystackResult<VerifiedCharge>> {
    return mapped(await this.call('GET', `/transaction/verify/${encodeURIComponent(reference)}`), chargeFromPaystack);
  }

  /** `POST /transaction/charge_authorization`: charges a saved card again. */
  async chargeAuthorization(request: ChargeRequest): Promise<PaystackResult<VerifiedCharge>> {
    const body = {
      authorization_code: request.authorizationCode,
      email: request.email,
      amount: request.amountKobo,
      currency: 'NGN',
      reference: request.reference,
      metadata: request.metadata,
    };
    return mapped(await this.call('POST', '/transaction/charge_authorization', body), chargeFromPaystack);
  }

  /** `POST /refund`: gives back `amountKobo` of a transaction. */
  async refund(request: RefundRequest): Promise<PaystackResult<PaystackRefund>> {
    const body = {
      transaction: request.transaction,
      amount: request.amountKobo,
      ...(request.merchantNote ? { merchant_note: request.merchantNote } : {}),
    };
    return mapped(await this.call('POST', '/refund', body), refundFromPaystack);
  }

  /**
   * `GET /refund?transaction=…`: the refunds of a transaction (Paystack's "List Refunds"), to learn whether an attempt
   * that may have reached Paystack made one.
   */
  async listRefunds(transaction: string): Promise<PaystackResult<PaystackRefund[]>> {
    const raw = await this.call('GET', `/refund?transaction=${encodeURIComponent(transaction)}&perPage=100`);
    return mapped(raw, (data) => {
      const refunds = Array.isArray(data.items) ? data.items.filter(isRecord).map(refundFromPaystack) : undefined;
      return refunds?.every((refund) => refund !== undefined) ? (refunds as PaystackRefund[]) : undefined;
    });
  }

  /** `POST /customer`: the customer of an e-mail (the same one again for a known e-mail). */
  async createCustomer(customer: CustomerRequest): Promise<PaystackResult<{ customerCode: string }>> {
    const body = {
      email: customer.email,
      first_name: customer.firstName,
      last_name: customer.lastName,
      phone: customer.phone,
    };
    return mapped(await this.call('POST', '/customer', body), customerFromPaystack);
  }

  /** `POST /dedicated_account`: the customer's dedicated virtual account. */
  async createDedicatedAccount(request: {
    customerCode: string;
    preferredBank: string;
  }): Promise<PaystackResult<DedicatedAccount>> {
    const body = { customer: request.customerCode, preferred_bank: request.preferredBank };
    return mapped(await this.call('POST', '/dedicated_account', body), dedicatedAccountFromPaystack);
  }

  private call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<RawResult> {
    return paystackCall(this.secretKey, this.options, method, path, body);
  }
}

export interface ChargeRequest {
  authorizationCode: string;
  email: string;
  amountKobo: number;
  reference: string;
  metadata: Record<string, string | number>;
}

export interface CustomerRequest {
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
}

type RawResult =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; failure: PaystackUnavailable | PaystackRefused };

/** One request: JSON in and out, no redirects, the timeout over the whole exchange (headers and body). */
async function paystackCall(
  secretKey: string,
  options: PaystackApiOptions,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<RawResult> {
  const timeoutMs = Math.max(
    1,
    Math.min(options.timeoutMs ?? PAYSTACK_TIMEOUT_MS, remainingCallTime() - ANSWER_MARGIN_MS),
  );
  let status: number;
  let text: string;
  try {
    const response = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${secretKey}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    const name = (error as Error).name;
    const detail = name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `unreachable (${describe(error)})`;
    return { ok: false, failure: { kind: 'unavailable', detail } };
  }
  return interpret(status, text);
}

function interpret(status: number, text: string): RawResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const message = isRecord(parsed) && typeof parsed.message === 'string' ? parsed.message : `HTTP ${status}`;
  if (status >= 500 || status === 429 || parsed === undefined)
    return { ok: false, failure: { kind: 'unavailable', detail: `HTTP ${status}: ${message}` } };
  if (status >= 300 || !isRecord(parsed) || parsed.status !== true)
    return { ok: false, failure: { kind: 'refused', httpStatus: status, message } };
  // A listing's `data` is an array: handed on as `items`.
  if (Array.isArray(parsed.data)) return { ok: true, data: { items: parsed.data } };
  if (!isRecord(parsed.data)) return { ok: false, failure: { kind: 'refused', httpStatus: status, message } };
  return { ok: true, data: parsed.data };
}

function mapped<T>(raw: RawResult, map: (data: Record<string, unknown>) => T | undefined): PaystackResult<T> {
  if (!raw.ok) return raw;
  const value = map(raw.data);
  if (value === undefined)
    return { ok: false, failure: { kind: 'unavailable', detail: 'the answer does not have the documented shape' } };
  return { ok: true, value };
}

const describe = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
};
