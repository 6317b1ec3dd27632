import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createLocalServer,
  type LambdaHandler,
  type LocalServer,
  type LocalServerOptions,
} from '../../infra/local/server.ts';
import { ROUTES, type RouteDefinition } from '../../shared/routes.ts';

let server: LocalServer | undefined;

afterEach(async () => {
  if (server) {
    const closing = new Promise<void>((r) => server!.close(() => r()));
    server.closeAllConnections();
    await closing;
  }
  server = undefined;
});

async function start(options: LocalServerOptions): Promise<string> {
  server = createLocalServer({ logger: {}, ...options });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function handlers(map: Partial<Record<RouteDefinition['name'], LambdaHandler>>) {
  return async (route: RouteDefinition) => {
    const handler = map[route.name];
    if (!handler) throw new Error(`no fake for ${route.name}`);
    return handler;
  };
}

async function expectEnvelope(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toEqual({
    status: 'error',
    code,
    message: expect.any(String),
    errors: [],
    request_id: expect.any(String),
  });
  expect(response.headers.get('apigw-requestid')).toBe(body.request_id);
  return body;
}

describe('local server routing', () => {
  it('answers an unknown path with 404 route_not_found', async () => {
    const base = await start({ loadHandler: handlers({}) });
    await expectEnvelope(await fetch(`${base}/nope?x=1`), 404, 'route_not_found');
    await expectEnvelope(await fetch(`${base}/invoices//`, { method: 'POST' }), 404, 'route_not_found');
  });

  it('ignores a trailing slash and answers GET /payments/history (with a JSON body) like POST', async () => {
    const base = await start({
      loadHandler: async () => async (event) => ({ statusCode: 200, body: `${event.routeKey} ${event.body ?? ''}` }),
    });
    expect(await (await fetch(`${base}/invoices/`, { method: 'POST', body: '{}' })).text()).toBe('POST /invoices/ {}');
    expect(await (await fetch(`${base}/payments/`, { method: 'POST', body: '{}' })).text()).toBe('POST /payments/ {}');
    // fetch refuses a GET body; node:http does not (pypayant sends one).
    const { request } = await import('node:http');
    const text = await new Promise<string>((resolveText, reject) => {
      const req = request(
        `${base}/payments/history/`,
        { method: 'GET', headers: { 'content-type': 'application/json', 'content-length': '18' } },
        (res) => {
          let data = '';
          res.on('data', (c) => (data += c));
          res.on('end', () => resolveText(data));
        },
      );
      req.on('error', reject);
      req.end('{"period":"today"}');
    });
    expect(text).toBe('GET /payments/history/ {"period":"today"}');
  });

  it('answers a known path with another method with 405 and Allow', async () => {
    const base = await start({ loadHandler: handlers({}) });
    const response = await fetch(`${base}/payments/history`, { method: 'DELETE' });
    await expectEnvelope(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('POST, GET');
    expect((await fetch(`${base}/payments`)).headers.get('allow')).toBe('POST');
    const head = await fetch(`${base}/invoices`, { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(await head.text()).toBe('');
  });

  it('answers 503 with Retry-After while not ready, 404 still first', async () => {
    const handler = vi.fn<LambdaHandler>(async () => ({ statusCode: 200, body: '{}' }));
    const base = await start({ ready: false, loadHandler: handlers({ 'add-invoice': handler }) });
    const response = await fetch(`${base}/invoices`, { method: 'POST', body: '{}' });
    await expectEnvelope(response, 503, 'service_unavailable');
    expect(response.headers.get('retry-after')).toBe('1');
    await expectEnvelope(await fetch(`${base}/elsewhere`), 404, 'route_not_found');
    expect(handler).not.toHaveBeenCalled();
    server!.ready = true;
    expect((await fetch(`${base}/invoices`, { method: 'POST', body: '{}' })).status).toBe(200);
  });

  it('serves static routes before the route table', async () => {
    const base = await start({
      loadHandler: handlers({}),
      staticRoutes: {
        'GET /openapi.json': (_req, res) =>
          void res.writeHead(200, { 'content-type': 'application/json' }).end('{"openapi":"3.1.0"}'),
      },
    });
    const response = await fetch(`${base}/openapi.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ openapi: '3.1.0' });
  });
});

describe('local server invocation', () => {
  it('passes the v2 event to the handler and the response back unchanged', async () => {
    let seen: { event: APIGatewayProxyEventV2; context: Context } | undefined;
    const base = await start({
      loadHandler: handlers({
        'add-payment': async (event, context) => {
          seen = { event, context };
          return {
            statusCode: 201,
            headers: {
              'Content-Type': 'application/json',
              'Idempotent-Replayed': 'true',
              'X-Number': 5 as unknown as string,
            },
            body: '{"status":"success"}',
          };
        },
      }),
    });
    const response = await fetch(`${base}/payments?trace=1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk_test', 'Idempotency-Key': 'k1' },
      body: '{"amount":"1,500.00"}',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('idempotent-replayed')).toBe('true');
    expect(response.headers.get('x-number')).toBe('5');
    expect(await response.text()).toBe('{"status":"success"}');

    expect(seen!.event.routeKey).toBe('POST /payments');
    expect(seen!.event.rawQueryString).toBe('trace=1');
    expect(seen!.event.headers.authorization).toBe('Bearer sk_test');
    expect(seen!.event.headers['idempotency-key']).toBe('k1');
    expect(seen!.event.body).toBe('{"amount":"1,500.00"}');
    expect(seen!.event.isBase64Encoded).toBe(false);
    expect(response.headers.get('apigw-requestid')).toBe(seen!.event.requestContext.requestId);
    expect(seen!.context.functionName).toBe('payments');
    expect(seen!.context.getRemainingTimeInMillis()).toBeGreaterThan(0);
  });

  it('base64-encodes a form body and decodes a base64 response', async () => {
    let body: string | undefined;
    const base = await start({
      loadHandler: handlers({
        'add-invoice': async (event) => {
          body = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8').toString();
          return {
            statusCode: 200,
            headers: { 'content-type': 'text/plain' },
            body: Buffer.from('héllo').toString('base64'),
            isBase64Encoded: true,
          };
        },
      }),
    });
    const response = await fetch(`${base}/invoices`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'items[0][item]=A&client[email]=a%40b.co',
    });
    expect(body).toBe('items[0][item]=A&client[email]=a%40b.co');
    expect(await response.text()).toBe('héllo');
  });

  it('treats a bare result as a 200 JSON body, as API Gateway does', async () => {
    const base = await start({ loadHandler: handlers({ 'payment-history': async () => ({ ok: true }) as never }) });
    const response = await fetch(`${base}/payments/history`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('imports each handler once and keeps serving after a handler throws', async () => {
    const loadHandler = vi.fn(
      handlers({
        'add-invoice': async (event) => {
          if (event.body === 'boom') throw new Error('secret internals');
          return { statusCode: 201, body: '{}' };
        },
      }),
    );
    const errors: string[] = [];
    const base = await start({ loadHandler, logger: { error: (message) => errors.push(message) } });
    const failed = await fetch(`${base}/invoices`, { method: 'POST', body: 'boom' });
    const body = await expectEnvelope(failed, 500, 'internal_error');
    expect(JSON.stringify(body)).not.toContain('secret internals');
    expect((await fetch(`${base}/invoices`, { method: 'POST', body: '{}' })).status).toBe(201);
    expect(loadHandler).toHaveBeenCalledTimes(1);
    expect(errors).toHaveLength(1);
  });

  it('answers 500 when a handler module cannot be loaded, and retries the import later', async () => {
    let attempts = 0;
    const base = await start({
      loadHandler: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('Cannot find module');
        return async () => ({ statusCode: 200, body: '{}' });
      },
    });
    await expectEnvelope(await fetch(`${base}/invoices`, { method: 'POST', body: '{}' }), 500, 'internal_error');
    expect((await fetch(`${base}/invoices`, { method: 'POST', body: '{}' })).status).toBe(200);
  });

  it('answers 500 for a malformed handler result', async () => {
    const base = await start({ loadHandler: handlers({ 'add-invoice': async () => ({ statusCode: 42, body: '' }) }) });
    await expectEnvelope(await fetch(`${base}/invoices`, { method: 'POST', body: '{}' }), 500, 'internal_error');
  });

  it('when the handler outlives its time budget: 504 outcome_unknown on a write route (it may still commit), 503 on history', async () => {
    const slow = () =>
      new Promise<{ statusCode: number; body: string }>((r) => setTimeout(() => r({ statusCode: 200, body: '' }), 500));
    const base = await start({
      timeoutMs: 50,
      loadHandler: handlers({ 'add-invoice': slow, 'add-payment': slow, 'payment-history': slow }),
    });
    await expectEnvelope(await fetch(`${base}/invoices`, { method: 'POST', body: '{}' }), 504, 'outcome_unknown');
    await expectEnvelope(await fetch(`${base}/payments`, { method: 'POST', body: '{}' }), 504, 'outcome_unknown');
    await expectEnvelope(
      await fetch(`${base}/payments/history`, { method: 'POST', body: '{}' }),
      503,
      'service_unavailable',
    );
  });

  it("counts down from the functions' own timeout by default", async () => {
    const { FUNCTION_TIMEOUT_MS } = await import('../../infra/function-timeout.ts');
    let remaining = 0;
    const base = await start({
      loadHandler: handlers({
        'add-invoice': async (_e, context) => {
          remaining = context.getRemainingTimeInMillis();
          return { statusCode: 200, body: '' };
        },
      }),
    });
    await fetch(`${base}/invoices`, { method: 'POST', body: '{}' });
    expect(remaining).toBeLessThanOrEqual(FUNCTION_TIMEOUT_MS);
    expect(remaining).toBeGreaterThan(FUNCTION_TIMEOUT_MS - 2_000);
  });

  it('refuses to buffer a body over the limit with 413 (401 first without a valid key), leaving smaller ones to the handler', async () => {
    const handler = vi.fn<LambdaHandler>(async (event) => ({ statusCode: 413, body: String(event.body?.length) }));
    const base = await start({
      maxBodyBytes: 1024,
      isAuthenticated: async (authorization) => authorization === 'Bearer good',
      loadHandler: handlers({ 'add-invoice': handler }),
    });
    const unauthenticated = await fetch(`${base}/invoices`, { method: 'POST', body: 'x'.repeat(2048) });
    await expectEnvelope(unauthenticated, 401, 'invalid_api_key');
    expect(unauthenticated.headers.get('www-authenticate')).toBe('Bearer');
    await expectEnvelope(
      await fetch(`${base}/invoices`, {
        method: 'POST',
        headers: { authorization: 'Bearer good' },
        body: 'x'.repeat(2048),
      }),
      413,
      'payload_too_large',
    );
    expect(handler).not.toHaveBeenCalled();
    const small = await fetch(`${base}/invoices`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x'.repeat(1000),
    });
    expect(small.status).toBe(413);
    expect(await small.text()).toBe('1000');
  });

  it('answers raw HTTP failures (malformed request line, oversized headers) with the JSON envelope', async () => {
    const base = await start({ loadHandler: handlers({}) });
    const { connect } = await import('node:net');
    const port = Number(new URL(base).port);
    const raw = (text: string) =>
      new Promise<string>((resolveText) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(text));
        let data = '';
        socket.on('data', (c) => (data += c));
        socket.on('close', () => resolveText(data));
        socket.on('error', () => resolveText(data));
      });
    for (const [request, status] of [
      ['GARBAGE\r\n\r\n', 400],
      [`GET /invoices HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ] as const) {
      const response = await raw(request);
      expect(response.split('\r\n')[0]).toBe(
        `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
      );
      expect(response).toMatch(/content-type: application\/json/);
      const body = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
      expect(body).toEqual({
        status: 'error',
        code: 'validation_failed',
        message: expect.any(String),
        errors: [],
        request_id: expect.any(String),
      });
    }
  });

  it('serves the real route table by default', async () => {
    const base = await start({ loadHandler: async () => async (event) => ({ statusCode: 200, body: event.routeKey }) });
    for (const route of ROUTES) {
      const path = route.path.replace(/\{[^}]+\}/g, 'X1');
      const response = await fetch(`${base}${path}`, {
        method: route.method,
        ...(route.method === 'GET' ? {} : { body: '{}' }),
      });
      expect(await response.text()).toBe(`${route.method} ${route.path}`);
    }
  });

  it('matches path parameters (decoded, one segment each) and prefers a literal path to a parameter, as API Gateway does', async () => {
    const base = await start({
      loadHandler: async () => async (event) => ({
        statusCode: 200,
        body: JSON.stringify({ routeKey: event.routeKey, parameters: event.pathParameters ?? null }),
      }),
    });
    const get = async (path: string, method = 'GET') => (await fetch(`${base}${path}`, { method })).json();
    expect(await get('/invoices/Abc%2012')).toEqual({
      routeKey: 'GET /invoices/{reference_code}',
      parameters: { reference_code: 'Abc 12' },
    });
    expect(await get('/invoices/history')).toEqual({ routeKey: 'GET /invoices/history', parameters: null });
    expect(await get('/invoices/send/R1/')).toEqual({
      routeKey: 'GET /invoices/send/{reference_code}/',
      parameters: { reference_code: 'R1' },
    });
    expect(await get('/clients/7', 'DELETE')).toEqual({ routeKey: 'DELETE /clients/{id}', parameters: { id: '7' } });
    await expectEnvelope(await fetch(`${base}/invoices/a/b/c`), 404, 'route_not_found');
    const wrongMethod = await fetch(`${base}/invoices/R1`, { method: 'PUT' });
    await expectEnvelope(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.headers.get('allow')).toBe('GET, DELETE');
  });
});
