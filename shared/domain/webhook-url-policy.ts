/**
 * Which URLs may receive webhooks (docs/webhooks.md "Setting an endpoint"). Deployed: https only, and the host never a private, loopback, link-local,
 * unspecified, multicast or reserved address (checked on the URL here and on every DNS answer at
 * delivery). The local runtime may also allow loopback (http://127.0.0.1:PORT, http://localhost:PORT).
 */
import { isIP } from 'node:net';
import { fail, ok, type ParseResult } from './result.ts';

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
