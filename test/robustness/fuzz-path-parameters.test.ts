/**
 * Property-based fuzzing (fast-check) of every route's path parameters, the companion of fuzz.test.ts (bodies and
 * headers): values of any length up to several KB, percent-escapes (valid, double and broken), unicode, dot segments,
 * spaces, signs and leading zeros, the empty value. Every route with parameters comes from the route table, and each
 * value is sent twice: as API Gateway hands it to the function (decoded, through `call()`), and as raw bytes of a
 * request path through the local runtime's HTTP server (what `npm start` serves). Never a 5xx; every error is the
 * envelope (an empty value over HTTP names another route: `/clients/` lists clients); a value that names nothing is
 * answered exactly like an unknown one of its kind (docs/decisions.md "Path parameters"); nothing is written.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalServer, type LocalServer } from '../../infra/local/server.ts';
import type { PathParameterKind } from '../../shared/path-parameters.ts';
import { isPublicRoute, ROUTES, type RouteDefinition } from '../../shared/routes.ts';
import { call, newAccount } from '../support/api.ts';
import { VALID_BODIES } from '../support/route-bodies.ts';
import { accountState, expectErrorEnvelope, NOTHING, STRESS, scale } from './helpers.ts';

const RUNS = scale(100, 2000);
const TIMEOUT = STRESS ? 900_000 : 60_000;

const UNKNOWN: Record<PathParameterKind, string> = {
  referenceCode: 'ZZZZZZZZZZZZZZZZZZZZ',
  paymentId: '987654321098',
  clientId: '987654321098',
  hostedToken: 'AAAAAAAAAAAAAAAAAAAAAAAA',
  paystackHookId: 'AAAAAAAAAAAAAAAAAAAAAAAA',
  cardToken: 'ctok_AAAAAAAAAAAAAAAAAAAAAAAA',
  recurringId: 'rec_01JZ0000000000000000000000',
  creditNoteNumber: 'CN-999999',
};
const BODIES = VALID_BODIES;
/** Literal segments of the route table: a value equal to one of them may name another route (`/invoices/history`). */
const LITERALS = new Set(ROUTES.flatMap((route) => route.path.split('/').filter((s) => s && !s.startsWith('{'))));
/** Node's HTTP server refuses a request line over its 16 KiB header limit (431) before any route is matched. */
const LONGEST_PATH = 12_000;

const pieces = fc.constantFrom(
  '%',
  '%2',
  '%20',
  '%2F',
  '%2E',
  '%2e%2e',
  '%00',
  '%ZZ',
  '%E2%82%AC',
  '%C0%AF',
  '%25',
  '.',
  '..',
  '/',
  '\\',
  ' ',
  '\t',
  '+',
  '-',
  '0',
  '1',
  '9',
  'A',
  'z',
  'é',
  '€',
  '١',
  '１',
  '😀',
  '\u202E',
  '\uFEFF',
  '?',
  '#',
  ';',
  '&',
  '=',
);

const values: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '.',
    '..',
    './1',
    '../1',
    ' 1',
    '1 ',
    '01',
    '+1',
    '-1',
    '1.0',
    '0',
    '1e3',
    'null',
    '__proto__',
  ),
  fc.array(pieces, { maxLength: 40 }).map((parts) => parts.join('')),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.stringMatching(/^[0-9A-Za-z]{1,80}$/),
  fc
    .tuple(fc.constantFrom('a', '1', '€', '😀', '%20', 'A1'), fc.integer({ min: 100, max: 4000 }))
    .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length))),
);

/** How the value becomes bytes of a request path: escaped as a client library would, twice, or as typed. */
const spellings = fc.constantFrom('encoded', 'double', 'typed');

function spell(value: string, spelling: string): string {
  if (spelling === 'encoded') return encodeURIComponent(value);
  if (spelling === 'double') return encodeURIComponent(encodeURIComponent(value));
  // As typed: only what an HTTP request line cannot carry (controls, spaces, non-ASCII) is escaped.
  return [...value].map((c) => (/^[\u0021-\u007e]$/.test(c) ? c : encodeURIComponent(c))).join('');
}

const PARAMETERISED = ROUTES.filter((route) => Object.keys(route.parameters ?? {}).length > 0);
const parameterOf = (route: RouteDefinition) => Object.entries(route.parameters!)[0]! as [string, PathParameterKind];
/** The route's other parameters (a card token after a client id), each a value that names nothing. */
const othersOf = (route: RouteDefinition): Record<string, string> =>
  Object.fromEntries(Object.entries(route.parameters!).map(([name, kind]) => [name, UNKNOWN[kind]]));
/** What a client compares: everything but the request id — for a page people open, the HTML page itself. */
const outcome = (r: { status: number; body: any; rawBody: string; headers: Record<string, string> }) =>
  isPage(r)
    ? { status: r.status, page: r.rawBody }
    : { status: r.status, code: r.body?.code, message: r.body?.message, errors: r.body?.errors };

const isPage = (r: { headers: Record<string, string> }) => String(r.headers['content-type']).startsWith('text/html');

/** A public route (docs/sending-invoices.md) answers its refusals with an HTML page; every other route the envelope. */
function expectRefusalAnswer(route: RouteDefinition, result: Parameters<typeof expectErrorEnvelope>[0]) {
  if (isPublicRoute(route) && isPage(result)) expect(result.status).toBeGreaterThanOrEqual(400);
  else expectErrorEnvelope(result);
}

let server: LocalServer;
let port: number;

beforeAll(async () => {
  server = createLocalServer({ logger: {} });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  const closing = new Promise<void>((r) => server.close(() => r()));
  server.closeAllConnections();
  await closing;
});

function overHttp(route: RouteDefinition, key: string, path: string) {
  return new Promise<{ status: number; body: any; rawBody: string; headers: Record<string, string> }>(
    (resolve, reject) => {
      const body = BODIES[route.name] === undefined ? undefined : JSON.stringify(BODIES[route.name]);
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const req = httpRequest({ host: '127.0.0.1', port, method: route.method, path, headers }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, rawBody: text, headers: res.headers as any });
        });
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

describe('fuzzing path parameters of every route', { timeout: TIMEOUT }, () => {
  it.each(PARAMETERISED.map((route) => [route.name, route] as const))(
    '%s: never 5xx, always the envelope, anything but a known value answered as an unknown one, nothing written',
    async (_name, route) => {
      const { key, account } = await newAccount();
      const [name, kind] = parameterOf(route);
      const body = BODIES[route.name];
      const others = othersOf(route);
      const unknown = outcome(
        await call(route.name, { key, pathParameters: { ...others, [name]: UNKNOWN[kind] }, body }),
      );
      expect(unknown.status).toBe(404);
      await fc.assert(
        fc.asyncProperty(values, spellings, async (value, spelling) => {
          // As API Gateway hands it over (decoded); it never invokes a function with an empty segment.
          if (value !== '') {
            const direct = await call(route.name, { key, pathParameters: { ...others, [name]: value }, body });
            const context = `${route.name} ${JSON.stringify(value).slice(0, 80)}: ${direct.status} ${direct.rawBody.slice(0, 200)}`;
            expect(direct.status, context).toBeLessThan(500);
            expectRefusalAnswer(route, direct);
            expect(outcome(direct), context).toEqual(unknown);
          }

          // As bytes of a request path through the local runtime.
          const path = Object.entries(others)
            .filter(([other]) => other !== name)
            .reduce((at, [other, fill]) => at.replace(`{${other}}`, fill), route.path)
            .replace(`{${name}}`, spell(value, spelling));
          const served = await overHttp(route, key, path);
          const served404 = `${route.name} ${path.slice(0, 120)}: ${served.status} ${served.rawBody.slice(0, 200)}`;
          expect(served.status, served404).toBeLessThan(500);
          // Over Node's header limit the local runtime answers 431 itself (docs/api.md "Request handling").
          if (served.status === 431) expect(served.body.code, served404).toBe('validation_failed');
          else if (served.status >= 400) expectRefusalAnswer(route, served as any);
          const oneSegment = !/[/?#]/.test(value) && value !== '' && !LITERALS.has(value);
          if (spelling !== 'typed' && oneSegment && path.length < LONGEST_PATH)
            expect(outcome(served), served404).toEqual(unknown);
        }),
        { numRuns: RUNS, endOnFailure: true, ...(process.env.SEED ? { seed: Number(process.env.SEED) } : {}) },
      );
      expect(await accountState(account.companyId)).toEqual(NOTHING);
    },
  );
});
