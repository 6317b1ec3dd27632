/**
 * Webhook events (docs/webhooks.md), pure: event types and bodies, the Standard Webhooks signature,
 * the retry schedule and the endpoint URL policy. No I/O here; `node:crypto` only computes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { fail, ok, type ParseResult } from './result.ts';

export const WEBHOOK_EVENT_TYPES = ['invoice.created', 'payment.recorded', 'invoice.paid'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The JSON body POSTed to the endpoint; `data` is exactly the matching API response's `data`. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  /** YYYY-MM-DD HH:MM:SS (UTC), the same instant as the write's `created_at`. */
  created_at: string;
  company_id: string;
  data: Record<string, unknown>;
}

export const EVENT_ID_PREFIX = 'evt_';
/** `evt_` + a ULID (26 Crockford base32 characters). */
export const EVENT_ID_PATTERN = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;

export const eventId = (ulid: string): string => `${EVENT_ID_PREFIX}${ulid}`;

interface EventContext {
  companyId: number;
  /** YYYY-MM-DD HH:MM:SS of the write. */
  createdAt: string;
  /** Returns a fresh ULID for each call (monotonic within the write, so ids sort by creation). */
  newUlid: () => string;
}

const event = (type: WebhookEventType, data: Record<string, unknown>, context: EventContext): WebhookEvent => ({
  id: eventId(context.newUlid()),
  type,
  created_at: context.createdAt,
  company_id: String(context.companyId),
  data,
});

/** `invoice.created`, from add invoice's response `data`. */
export function invoiceCreatedEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  return [event('invoice.created', data, context)];
}

/**
 * `payment.recorded`, from add payment's response `data`; plus `invoice.paid` (that payment's
 * `data.invoice` with `client` added) when the payment left nothing due. A payment on an invoice
 * that was already paid is refused (409), so a paid invoice here is always this payment's doing.
 */
export function paymentEvents(data: Record<string, unknown>, context: EventContext): WebhookEvent[] {
  const events = [event('payment.recorded', data, context)];
  const invoice = data.invoice as Record<string, unknown> | undefined;
  if (invoice && invoice.payment_status === 'paid') {
    events.push(event('invoice.paid', { ...invoice, client: data.client }, context));
  }
  return events;
}

// ---------------------------------------------------------------------------------------------
// Standard Webhooks signature (https://www.standardwebhooks.com/)

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

// ---------------------------------------------------------------------------------------------
// Retry schedule: about 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then failed (8 attempts, ~28 h).

export const DEFAULT_RETRY_BASE_MS = 60_000;
/** Multiples of the first delay; with the default base these are the minutes of the schedule. */
export const RETRY_FACTORS = [1, 5, 30, 120, 300, 600, 600] as const;
export const MAX_ATTEMPTS = RETRY_FACTORS.length + 1;

/** Delay before the next attempt after `attemptsMade` failed attempts, or undefined when there is none left. */
export function retryDelayMs(attemptsMade: number, baseMs: number = DEFAULT_RETRY_BASE_MS): number | undefined {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1) throw new RangeError('attemptsMade is a positive integer');
  const factor = RETRY_FACTORS[attemptsMade - 1];
  return factor === undefined ? undefined : factor * baseMs;
}

// ---------------------------------------------------------------------------------------------
// Endpoint URL policy. Deployed: https only, and the host never a private, loopback, link-local,
// unspecified, multicast or reserved address (checked on the URL here and on every DNS answer at
// delivery). The local runtime may also allow loopback (http://127.0.0.1:PORT, http://localhost:PORT).

export interface UrlPolicy {
  /** Set only by `npm start` and the tests (WEBHOOK_ALLOW_LOOPBACK=true). */
  allowLoopback: boolean;
}

export const MAX_URL_LENGTH = 2048;

type Ipv4 = [number, number, number, number];

function parseIpv4(text: string): Ipv4 | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.map(Number) as Ipv4;
}

/** 16 bytes of an IPv6 address (with an optional trailing dotted IPv4 part), or undefined. */
export function parseIpv6(text: string): number[] | undefined {
  let address = text
    .replace(/^\[|\]$/g, '')
    .split('%')[0]!
    .toLowerCase();
  if (isIP(address) !== 6) return undefined;
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v4 = parseIpv4(dotted[2]!);
    if (!v4) return undefined;
    address = `${dotted[1]}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((x) => parseInt(x, 16)));
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = 8 - left.length - right.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return undefined;
  return [...left, ...Array<number>(fill).fill(0), ...right].flatMap((g) => [g >> 8, g & 0xff]);
}

/** Why an IPv4 address may not receive webhooks, or undefined when it is a public address. */
function ipv4Problem([a, b, c]: Ipv4, policy: UrlPolicy): string | undefined {
  if (a === 127) return policy.allowLoopback ? undefined : 'loopback';
  if (a === 0) return 'unspecified';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 100 && b >= 64 && b <= 127) return 'private'; // carrier-grade NAT
  if (a === 169 && b === 254) return 'link-local';
  if (a === 192 && b === 0 && c === 0) return 'reserved'; // IETF protocol assignments
  if (a === 198 && (b === 18 || b === 19)) return 'reserved'; // benchmarking
  if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113))
    return 'reserved';
  if (a >= 224) return 'multicast or reserved';
  return undefined;
}

function ipv6Problem(bytes: number[], policy: UrlPolicy): string | undefined {
  const zeroUpTo = (n: number) => bytes.slice(0, n).every((x) => x === 0);
  const v4At = (i: number): Ipv4 => [bytes[i]!, bytes[i + 1]!, bytes[i + 2]!, bytes[i + 3]!];
  if (zeroUpTo(16)) return 'unspecified';
  if (zeroUpTo(15) && bytes[15] === 1) return policy.allowLoopback ? undefined : 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judged as the IPv4 address.
  if (zeroUpTo(10) && bytes[10] === 0xff && bytes[11] === 0xff) return ipv4Problem(v4At(12), policy);
  if (zeroUpTo(12)) return ipv4Problem(v4At(12), policy);
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) embed an IPv4 address that a gateway would reach.
  if (
    bytes[0] === 0x00 &&
    bytes[1] === 0x64 &&
    bytes[2] === 0xff &&
    bytes[3] === 0x9b &&
    bytes.slice(4, 12).every((x) => x === 0)
  ) {
    return ipv4Problem(v4At(12), policy);
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return ipv4Problem(v4At(2), policy);
  if ((bytes[0]! & 0xfe) === 0xfc) return 'private'; // unique local fc00::/7
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return 'link-local'; // fe80::/10
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return 'private'; // deprecated site-local fec0::/10
  if (bytes[0] === 0xff) return 'multicast';
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8) return 'reserved'; // documentation
  return undefined;
}

/** Why an IP address (v4 or v6 text) may not receive webhooks, or undefined when it may. */
export function addressProblem(address: string, policy: UrlPolicy): string | undefined {
  const v4 = isIP(address) === 4 ? parseIpv4(address) : undefined;
  if (v4) return ipv4Problem(v4, policy);
  const v6 = parseIpv6(address);
  if (v6) return ipv6Problem(v6, policy);
  return 'not an IP address';
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Checks an endpoint URL and returns it normalised (the WHATWG URL serialisation). Host names are
 * judged here by their form only; their DNS answers are checked at `webhook:set` and at every delivery.
 */
export function parseWebhookUrl(text: string, policy: UrlPolicy): ParseResult<string> {
  if (text.length > MAX_URL_LENGTH) return fail(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return fail('must be an absolute URL such as https://example.com/webhooks');
  }
  if (url.username || url.password) return fail('must not contain a user name or password');
  if (url.hash) return fail('must not contain a #fragment');
  const host = url.hostname.toLowerCase();
  const loopbackName = LOOPBACK_NAMES.has(host);
  if (url.protocol === 'http:') {
    if (!(policy.allowLoopback && loopbackName)) {
      return fail(policy.allowLoopback ? 'must use https (http only for 127.0.0.1 or localhost)' : 'must use https');
    }
    return ok(url.toString());
  }
  if (url.protocol !== 'https:') return fail('must use https');
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return policy.allowLoopback && host === 'localhost'
      ? ok(url.toString())
      : fail('must not point at this machine (localhost)');
  }
  const literal = host.startsWith('[') ? host.slice(1, -1) : isIP(host) === 4 ? host : undefined;
  if (literal !== undefined) {
    const problem = addressProblem(literal, policy);
    if (problem) return fail(`must not point at a ${problem} address`);
  } else if (!host.includes('.')) {
    return fail('must name a public host (a fully qualified domain name)');
  }
  return ok(url.toString());
}
