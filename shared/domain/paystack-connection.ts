/**
 * An account's connection to Paystack (docs/getting-paid-online.md "Connecting Paystack"), pure: the secret key's
 * shape and what may be shown of it, the webhook's hook id, and the fee settings `account:update` takes.
 */
import { randomBytes } from 'node:crypto';
import { formatKobo, parseAmount } from './money.ts';
import { DEFAULT_PAYSTACK_FEES, type PaystackFees, parseFeePercent } from './online-payment.ts';
import { formatPercent } from './percent.ts';
import { fail, ok, type ParseResult } from './result.ts';

/** A Paystack secret key: `sk_test_…` or `sk_live_…`, then letters and digits (Paystack's are 40 hex digits). */
export const PAYSTACK_SECRET_KEY_PATTERN = /^sk_(test|live)_[A-Za-z0-9]{8,200}$/;

export function parsePaystackSecretKey(input: string): ParseResult<string> {
  const key = input.trim();
  return PAYSTACK_SECRET_KEY_PATTERN.test(key)
    ? ok(key)
    : fail('must be a Paystack secret key: sk_test_… or sk_live_… followed by letters and digits');
}

/** All that is ever shown of a connected key: its last 4 characters. */
export const keyLast4 = (secretKey: string): string => secretKey.slice(-4);

/** `test` or `live`, from the key's prefix. */
export const keyMode = (secretKey: string): 'test' | 'live' => (secretKey.startsWith('sk_live_') ? 'live' : 'test');

/**
 * The id in an account's `paystack_webhook_url`: 18 bytes from the cryptographic RNG (144 bits), base64url, not derived
 * from any id. Made at the first connect and kept across key changes, so the URL pasted into Paystack stays valid.
 */
export const HOOK_ID_BYTES = 18;
export const HOOK_ID_PATTERN = /^[A-Za-z0-9_-]{24}$/;
export const generateHookId = (): string => randomBytes(HOOK_ID_BYTES).toString('base64url');

/** Where Paystack sends an account's events: `{base}/paystack/events/{hook_id}`. */
export const paystackWebhookUrl = (publicBaseUrl: string, hookId: string): string =>
  `${publicBaseUrl}/paystack/events/${hookId}`;

/** The four fee figures as `account:update` takes them: the percent, and naira amounts. */
export interface FeeSettingsInput {
  percent?: string | undefined;
  flat?: string | undefined;
  flatFrom?: string | undefined;
  cap?: string | undefined;
}

export type FeeSettingsResult =
  | { ok: true; value: PaystackFees }
  | { ok: false; message: string; field: keyof FeeSettingsInput };

/** `fees` with the figures given replaced, or the first one that is not a valid setting, named by its field. */
export function applyFeeSettings(fees: PaystackFees, input: FeeSettingsInput): FeeSettingsResult {
  const next = { ...fees };
  if (input.percent !== undefined) {
    const parsed = parseFeePercent(input.percent);
    if (!parsed.ok) return { ok: false, message: parsed.message, field: 'percent' };
    next.percentBasisPoints = parsed.value;
  }
  const amounts = [
    ['flat', 'flatKobo'],
    ['flatFrom', 'flatFromKobo'],
    ['cap', 'capKobo'],
  ] as const;
  for (const [field, figure] of amounts) {
    const text = input[field];
    if (text === undefined) continue;
    const parsed = parseAmount(text);
    if (!parsed.ok) return { ok: false, message: parsed.message, field };
    next[figure] = parsed.value;
  }
  return { ok: true, value: next };
}

/** The fee settings as `account:list` prints them: the percent, and naira amounts with two decimals. */
export function feeSettingsView(fees: PaystackFees = DEFAULT_PAYSTACK_FEES) {
  return {
    percent: formatPercent(fees.percentBasisPoints, 2),
    flat: formatKobo(fees.flatKobo),
    flat_from: formatKobo(fees.flatFromKobo),
    cap: formatKobo(fees.capKobo),
  };
}
