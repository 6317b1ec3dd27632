/**
 * How a webhook is signed: Standard Webhooks (https://www.standardwebhooks.com/, docs/webhooks.md "Verifying
 * in Node"). Pure; `node:crypto` only computes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
export const SECRET_BYTES = 32;

/** The HMAC key: the base64-decoded part after `whsec_`. */
export function secretKeyBytes(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_.');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

export const formatSecret = (keyBytes: Uint8Array): string =>
  `${SECRET_PREFIX}${Buffer.from(keyBytes).toString('base64')}`;

/** `v1,` + base64(HMAC-SHA256(key, `<id>.<timestamp>.<body>`)). */
export function signWebhook(keyBytes: Uint8Array, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', keyBytes).update(`${id}.${timestampSeconds}.${body}`, 'utf8').digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers plus the content type, for one attempt. */
export function webhookHeaders(
  keyBytes: Uint8Array,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signWebhook(keyBytes, id, timestampSeconds, body),
  };
}

/** Constant-time check of a `webhook-signature` header (space-separated `v1,<mac>` entries). */
export function verifySignature(
  keyBytes: Uint8Array,
  id: string,
  timestampSeconds: number,
  body: string,
  header: string,
): boolean {
  const expected = Buffer.from(signWebhook(keyBytes, id, timestampSeconds, body));
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
