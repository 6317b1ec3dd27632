/**
 * Whether a webhook really comes from Paystack (docs/getting-paid-online.md "Webhooks"): `x-paystack-signature` is the
 * hex HMAC-SHA512 of the exact body bytes, keyed with the account's secret key. Pure; `node:crypto` only computes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** SHA-512 is 64 bytes: 128 hex digits. */
const SIGNATURE_PATTERN = /^[0-9a-f]{128}$/i;

/** The signature Paystack sends with `body` for the account whose secret key is `secretKey`. */
export function paystackSignature(body: Uint8Array, secretKey: string): string {
  return createHmac('sha512', secretKey).update(body).digest('hex');
}

/**
 * True when `signature` is the body's signature under `secretKey`, compared in constant time; false for a missing,
 * malformed or wrong one. Hex case is ignored (the digits are what is signed).
 */
export function isPaystackSignatureValid(body: Uint8Array, signature: string | undefined, secretKey: string): boolean {
  if (signature === undefined || !SIGNATURE_PATTERN.test(signature.trim())) return false;
  const given = Buffer.from(signature.trim().toLowerCase(), 'hex');
  const expected = createHmac('sha512', secretKey).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}
