/**
 * One outbound webhook POST (docs/webhooks.md "Delivery"), with Node's own http/https:
 * - the host name is resolved here and every answer checked against the URL policy (no private,
 *   loopback, link-local … address), and the socket connects to the checked address, so a DNS
 *   answer that changes between check and connect (DNS rebinding) cannot redirect the request;
 * - 10 s for the whole attempt (connect, TLS, request, response), then the socket is destroyed;
 * - redirects are never followed (a 3xx is a failed attempt);
 * - at most 4 KiB of the response body is read, then the socket is closed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { addressProblem, type UrlPolicy } from '../domain/webhook-url-policy.ts';

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const MAX_RESPONSE_BYTES = 4096;

export type PostResult = { status: number } | { error: string };

export class ForbiddenAddressError extends Error {
  override name = 'ForbiddenAddressError';
  constructor(readonly problem: string) {
    super(`resolves to a ${problem} address`);
  }
}

/** A `lookup` for http(s).request that only ever hands the socket addresses the policy allows. */
export function checkedLookup(policy: UrlPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 } as never, (error, answers: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      // Every answer must be allowed: a name that also resolves to an internal address is refused outright.
      for (const answer of answers) {
        const problem = addressProblem(answer.address, policy);
        if (problem) return callback(new ForbiddenAddressError(problem), '', 0);
      }
      if (answers.length === 0) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, answers);
      return callback(null, answers[0]!.address, answers[0]!.family);
    });
  };
}

/** Resolves a host name and returns the policy's objection to any of its addresses (webhook:set). */
export function checkHostAddresses(hostname: string, policy: UrlPolicy): Promise<string | undefined> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return Promise.resolve(addressProblem(host, policy));
  return new Promise((resolve) => {
    checkedLookup(policy)(host, { all: true } as never, (error: NodeJS.ErrnoException | null) => {
      if (!error) return resolve(undefined);
      resolve(
        error instanceof ForbiddenAddressError
          ? `resolves to a ${error.problem} address`
          : `does not resolve (${error.code ?? error.message})`,
      );
    });
  });
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error instanceof ForbiddenAddressError) return `forbidden address (${error.problem})`;
  if (error.code) return error.code === 'ABORT_ERR' ? 'timeout' : error.code;
  return error.message.slice(0, 100);
}

/** POSTs `body` to `url` once; resolves with the HTTP status or a short error (never throws). */
/** The URL to post to, or why not: unparseable, or a literal address the policy forbids (names are checked at lookup). */
function checkedTarget(url: string, policy: UrlPolicy): URL | { error: string } {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { error: 'invalid URL' };
  }
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  const problem = isIP(literal) ? addressProblem(literal, policy) : undefined;
  return problem ? { error: `forbidden address (${problem})` } : target;
}

export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  policy: UrlPolicy,
): Promise<PostResult> {
  return new Promise((resolve) => {
    const target = checkedTarget(url, policy);
    if ('error' in target) return resolve(target);
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let request: ReturnType<typeof httpRequest> | undefined;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      request?.destroy();
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const payload = Buffer.from(body, 'utf8');
    request = send(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(payload.length), 'user-agent': 'invoicing-webhooks/1' },
      lookup: checkedLookup(policy),
      agent: false,
    });
    timer = setTimeout(() => finish({ error: 'timeout' }), ATTEMPT_TIMEOUT_MS);
    request.on('error', (error) => finish({ error: describeError(error) }));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= MAX_RESPONSE_BYTES) finish({ status });
      });
      response.on('end', () => finish({ status }));
      response.on('error', () => finish({ status }));
    });
    request.end(payload);
  });
}

export const isSuccess = (result: PostResult): boolean =>
  'status' in result && result.status >= 200 && result.status < 300;
