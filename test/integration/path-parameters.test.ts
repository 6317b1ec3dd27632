/**
 * Path parameters are checked in one place (issue 26; docs/decisions.md "Path parameters"): every route of every
 * function answers a value that is not of its parameter's kind (shared/path-parameters.ts) exactly as it answers an
 * unknown one — same status, code, message and errors — before any database call. Trimming is not matching. The
 * routes and their parameters come from the route table, so a new route is covered as soon as it is declared.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as paymentsHandler } from '../../functions/payments/handler.ts';
import { createLocalServer, type LocalServer } from '../../infra/local/server.ts';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { apiGatewayRoutePath } from '../../shared/gateway-routes.ts';
import { PATH_PARAMETER_KINDS, type PathParameterKind } from '../../shared/path-parameters.ts';
import { isPublicRoute, ROUTES, type RouteDefinition } from '../../shared/routes.ts';
import {
  type CallResult,
  call,
  createInvoice,
  lambdaContext,
  makeEvent,
  newAccount,
  todayMonthFirst,
} from '../support/api.ts';
import { VALID_BODIES } from '../support/route-bodies.ts';

/** A well-formed value of each kind that names nothing. */
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

/** Values as API Gateway hands them over (decoded): what a client may put in a path segment, and then some. */
const MALFORMED = [
  ' 1',
  '1 ',
  '\t1',
  ' ',
  '%201',
  '+1',
  '-1',
  '1.0',
  '1e3',
  '１',
  '٣',
  '.',
  '..',
  'a b',
  'A/B',
  'ä',
  '😀',
  '\u0000',
  '<script>',
  '__proto__',
  'A'.repeat(65),
  'x'.repeat(2100),
  '€'.repeat(700),
  '9'.repeat(16),
];

const PARAMETERISED = ROUTES.filter((route) => Object.keys(route.parameters ?? {}).length > 0);

/**
 * What a client compares: everything but the request id — for a page people open (`access: 'public'`), the HTML page
 * itself, which carries no request id.
 */
const outcome = (r: { status: number; body: any; rawBody: string; headers: Record<string, string> }) =>
  String(r.headers['content-type']).startsWith('text/html')
    ? { status: r.status, page: r.rawBody }
    : { status: r.status, code: r.body?.code, message: r.body?.message, errors: r.body?.errors };

function sendTo(route: RouteDefinition, key: string, value: string): Promise<CallResult> {
  const [name, kind] = Object.entries(route.parameters!)[0]!;
  expect(kind).toBeDefined();
  if (route.takesBody) expect(BODIES[route.name], `${route.name} needs a valid body in BODIES`).toBeDefined();
  // The route's other parameters (a card token after a client id) name nothing either.
  const others = Object.fromEntries(Object.entries(route.parameters!).map(([other, k]) => [other, UNKNOWN[k]]));
  return call(route.name, { key, pathParameters: { ...others, [name]: value }, body: BODIES[route.name] });
}

/** DynamoDB calls made while `act` runs (this process). */
async function databaseCalls(act: () => Promise<unknown>): Promise<string[]> {
  const calls: string[] = [];
  const remove = dynamoHooks.add({ before: (c) => void calls.push(c.command) });
  try {
    await act();
  } finally {
    remove();
  }
  return calls;
}

describe('a path parameter that is not of its kind', () => {
  it.each(PARAMETERISED.map((route) => [route.name, route] as const))(
    '%s: answered exactly as an unknown value, without a database call',
    async (_name, route) => {
      const { key } = await newAccount();
      const kind = Object.values(route.parameters!)[0]!;
      const unknown = await sendTo(route, key, UNKNOWN[kind]);
      expect(unknown.status, unknown.rawBody).toBe(404);
      if (isPublicRoute(route)) expect(unknown.headers['content-type']).toMatch(/^text\/html/);
      else expect(unknown.body.code).toBe(PATH_PARAMETER_KINDS[kind].notFound);
      for (const value of MALFORMED) {
        let result: CallResult | undefined;
        const calls = await databaseCalls(async () => (result = await sendTo(route, key, value)));
        expect(outcome(result!), `${route.name} ${JSON.stringify(value).slice(0, 40)}`).toEqual(outcome(unknown));
        if (!PATH_PARAMETER_KINDS[kind].pattern.test(value))
          expect(calls, JSON.stringify(value).slice(0, 40)).toEqual([]);
      }
    },
    60_000,
  );

  it.each(['credit-note-ubl', 'credit-note-pdf'] as const)(
    '%s: a number not of its kind, on an invoice that exists, is answered as an unknown number, without a database call',
    async (route) => {
      const { key } = await newAccount();
      const invoice = await createInvoice(key);
      const send = (number: string) =>
        call(route, { key, pathParameters: { reference_code: invoice.reference_code, number } });
      const unknown = await send(UNKNOWN.creditNoteNumber);
      expect([unknown.status, unknown.body.code]).toEqual([404, 'credit_note_not_found']);
      for (const value of [...MALFORMED, 'cn-000001', 'CN-00001', 'CN000001', 'CN-0000001 ', 'INV-000001']) {
        let result: CallResult | undefined;
        const calls = await databaseCalls(async () => (result = await send(value)));
        expect(outcome(result!), JSON.stringify(value).slice(0, 40)).toEqual(outcome(unknown));
        expect(calls, JSON.stringify(value).slice(0, 40)).toEqual([]);
      }
    },
    60_000,
  );

  it('DELETE /invoices/{reference_code} with a reference of 2,100 characters or 700 × "€" is 404, not 500', async () => {
    const { key } = await newAccount();
    for (const reference_code of ['a'.repeat(2100), '€'.repeat(700)]) {
      const result = await call('delete-invoice', { key, pathParameters: { reference_code } });
      expect(outcome(result)).toEqual({
        status: 404,
        code: 'invoice_not_found',
        message: 'Invoice not found',
        errors: [],
      });
    }
  });

  it('an id with a space, a sign or a leading zero reaches no payment or client, even one that exists', async () => {
    // Prepare
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const body = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'Cash' };
    const paymentId = String((await call('add-payment', { key, body })).body.data.id);
    const clientId = String(invoice.client.id);
    // Act / Assess
    for (const id of [` ${paymentId}`, `${paymentId} `, `0${paymentId}`, `+${paymentId}`, `${paymentId}.0`]) {
      const reversal = await call('reverse-payment', { key, pathParameters: { id }, body: { reason: 'x' } });
      expect([reversal.status, reversal.body.code], JSON.stringify(id)).toEqual([404, 'payment_not_found']);
    }
    for (const id of [` ${clientId}`, `${clientId} `, `0${clientId}`]) {
      for (const route of ['get-client', 'update-client', 'delete-client'] as const) {
        const result = await call(route, { key, pathParameters: { id }, body: BODIES[route] });
        expect([result.status, result.body.code], `${route} ${JSON.stringify(id)}`).toEqual([404, 'client_not_found']);
      }
    }
    const read = await call('get-invoice', { key, pathParameters: { reference_code: invoice.reference_code } });
    expect(read.body.data.amount_paid).toBe('10.00');
    expect((await call('get-client', { key, pathParameters: { id: clientId } })).body.data.deleted_at).toBeNull();
  });
});

describe("as deployed: API Gateway names the reversal route's variable after /payments/{reference_code}", () => {
  // The gateway's route is /payments/{reference_code}/reversal (shared/routes.ts `apiGatewayRoutePath`): its event
  // carries `reference_code`, decoded, and the function's router reads `id` from the request path, which API Gateway
  // hands over decoded or as sent. Every spelling of a padded id is refused; the plain id reaches the payment.
  it.each([
    ['the path as sent', (id: string) => `/payments/%20${id}/reversal`],
    ['the path decoded', (id: string) => `/payments/ ${id}/reversal`],
  ])('with %s: " <id>" is 404 payment_not_found, "<id>" reverses', async (_label, pathOf) => {
    expect(apiGatewayRoutePath('/payments/{id}/reversal')).toBe('/payments/{reference_code}/reversal');
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const body = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'Cash' };
    const id = String((await call('add-payment', { key, body })).body.data.id);
    const deployed = (pathParameter: string, path: string) => {
      const event = makeEvent('reverse-payment', { key, body: { reason: 'Keyed twice' } });
      event.routeKey = 'POST /payments/{reference_code}/reversal';
      event.pathParameters = { reference_code: pathParameter };
      event.rawPath = path;
      event.requestContext.http.path = path;
      return paymentsHandler(event, lambdaContext()) as Promise<{ statusCode: number; body: string }>;
    };
    const padded = await deployed(` ${id}`, pathOf(id));
    expect([padded.statusCode, JSON.parse(padded.body).code]).toEqual([404, 'payment_not_found']);
    const plain = await deployed(id, `/payments/${id}/reversal`);
    expect(plain.statusCode, plain.body).toBe(200);
  });
});

describe('raw paths through the local runtime (npm start)', () => {
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

  /** Sends the path byte for byte (no URL normalisation: dot segments and percent-escapes arrive as written). */
  function raw(method: string, path: string, key: string, body?: unknown) {
    return new Promise<{ status: number; body: any; rawBody: string; headers: Record<string, string> }>(
      (resolve, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method,
            path,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body: JSON.parse(text),
                rawBody: text,
                headers: res.headers as Record<string, string>,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(payload);
      },
    );
  }

  it('answers malformed ids, over-long and dot-segment references as unknown ones; a payment is not reversed by " id"', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const body = { reference_code: invoice.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'Cash' };
    const id = String((await call('add-payment', { key, body })).body.data.id);
    const reason = { reason: 'Keyed twice' };
    const unknownPayment = outcome(await raw('POST', `/payments/${UNKNOWN.paymentId}/reversal`, key, reason));
    const unknownInvoice = outcome(await raw('DELETE', `/invoices/${UNKNOWN.referenceCode}`, key));
    const unknownClient = outcome(await raw('GET', `/clients/${UNKNOWN.clientId}`, key));
    for (const path of [`/payments/%20${id}/reversal`, `/payments/${id}%20/reversal`, `/payments/0${id}/reversal`])
      expect(outcome(await raw('POST', path, key, reason)), path).toEqual(unknownPayment);
    for (const path of [`/clients/%20${invoice.client.id}`, `/clients/%2B${invoice.client.id}`, '/clients/%ZZ'])
      expect(outcome(await raw('GET', path, key)), path).toEqual(unknownClient);
    const references = ['a'.repeat(2100), encodeURIComponent('€'.repeat(700)), '..', '%2E%2E', '.', '%00', '%E0%A4%A'];
    for (const reference of references)
      expect(outcome(await raw('DELETE', `/invoices/${reference}`, key)), reference.slice(0, 20)).toEqual(
        unknownInvoice,
      );
    // The payment the malformed ids came close to is untouched; the well-formed id reaches it.
    expect((await raw('POST', `/payments/${id}/reversal`, key, reason)).status).toBe(200);
  });
});
