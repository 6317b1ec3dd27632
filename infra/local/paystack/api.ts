/**
 * Paystack's API as the local server answers it (docs/paystack-local.md "API"): the secret key names the integration
 * (`sk_test_…` or `sk_live_…`, created on first use); the integration's API mode may make it answer 503, hang or
 * answer late ("provider down or slow"); then the route.
 */
import { chargeAuthorization } from './charges.ts';
import { createCustomer, createDedicatedAccount, fetchCustomer } from './customers.ts';
import type { Engine } from './engine.ts';
import { answer, type Exchange, PaystackRefusal, sendJson } from './http.ts';
import { createRefund, fetchRefund, listRefunds } from './refunds.ts';
import type { Integration } from './state.ts';
import { fetchTransaction, initialize, verify } from './transactions.ts';

const SECRET_KEY = /^sk_(test|live)_[A-Za-z0-9]+$/;

/** The secret key of a request, refused as Paystack refuses a missing, malformed or unknown one (401). */
export function secretKeyOf(authorization: string | undefined): string {
  if (!authorization) throw new PaystackRefusal(401, 'No Authorization Header was found');
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!bearer) throw new PaystackRefusal(401, 'Format is Authorization Bearer [secret key]');
  if (!SECRET_KEY.test(bearer[1]!)) throw new PaystackRefusal(401, 'Invalid key');
  return bearer[1]!;
}

type Handle = (engine: Engine, integration: Integration, ex: Exchange) => void;

export interface Route<H> {
  method: string;
  path: RegExp;
  handle: H;
}

const API_ROUTES: Route<Handle>[] = [
  {
    method: 'POST',
    path: /^\/transaction\/initialize$/,
    handle: (engine, integration, ex) =>
      answer(ex.res, 'Authorization URL created', initialize(engine, integration, ex.fields)),
  },
  {
    method: 'GET',
    path: /^\/transaction\/verify\/([^/]+)$/,
    handle: (_, integration, ex) => answer(ex.res, 'Verification successful', verify(integration, ex.params[0]!)),
  },
  {
    method: 'POST',
    path: /^\/transaction\/charge_authorization$/,
    handle: (engine, integration, ex) =>
      answer(ex.res, 'Charge attempted', chargeAuthorization(engine, integration, ex.fields)),
  },
  {
    method: 'GET',
    path: /^\/transaction\/([^/]+)$/,
    handle: (_, integration, ex) =>
      answer(ex.res, 'Transaction retrieved', fetchTransaction(integration, ex.params[0]!)),
  },
  {
    method: 'POST',
    path: /^\/refund$/,
    handle: (engine, integration, ex) =>
      answer(ex.res, 'Refund has been queued for processing', createRefund(engine, integration, ex.fields)),
  },
  {
    method: 'GET',
    path: /^\/refund$/,
    handle: (_, integration, ex) =>
      answer(ex.res, 'Refunds retrieved', listRefunds(integration, ex.url.searchParams.get('transaction'))),
  },
  {
    method: 'GET',
    path: /^\/refund\/([^/]+)$/,
    handle: (_, integration, ex) => answer(ex.res, 'Refund retrieved', fetchRefund(integration, ex.params[0]!)),
  },
  {
    method: 'POST',
    path: /^\/customer$/,
    handle: (engine, integration, ex) =>
      answer(ex.res, 'Customer created', createCustomer(engine, integration, ex.fields)),
  },
  {
    method: 'GET',
    path: /^\/customer\/([^/]+)$/,
    handle: (_, integration, ex) => answer(ex.res, 'Customer retrieved', fetchCustomer(integration, ex.params[0]!)),
  },
  {
    method: 'POST',
    path: /^\/dedicated_account$/,
    handle: (engine, integration, ex) => {
      const { message, data } = createDedicatedAccount(engine, integration, ex.fields);
      answer(ex.res, message, data);
    },
  },
];

/** The route of a method and path, with the path's captured parts decoded. */
export function matchRoute<H>(
  routes: Route<H>[],
  method: string,
  path: string,
): { route: Route<H>; params: string[] } | undefined {
  for (const route of routes) {
    const found = route.method === method ? route.path.exec(path) : null;
    if (found) return { route, params: found.slice(1).map(decoded) };
  }
  return undefined;
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Whether the request goes on, after the integration's API mode had its say (and counted it off). */
async function passesApiMode(engine: Engine, integration: Integration, ex: Exchange): Promise<boolean> {
  const { api } = integration;
  if (api.mode === 'up') return true;
  const mode = api.mode;
  if (api.remaining !== null) {
    api.remaining -= 1;
    if (api.remaining <= 0) integration.api = { mode: 'up', delay_ms: 0, remaining: null };
    engine.store.save();
  }
  if (mode === 'unavailable') {
    sendJson(ex.res, 503, { status: false, message: 'Service Unavailable' });
    return false;
  }
  // `hang`: no answer; the connection stays open until the client gives up or the server stops.
  if (mode === 'hang') return false;
  await new Promise((resolve) => setTimeout(resolve, api.delay_ms));
  return !ex.res.destroyed;
}

export async function handleApi(engine: Engine, ex: Exchange): Promise<void> {
  const integration = engine.store.integration(secretKeyOf(ex.req.headers.authorization));
  const found = matchRoute(API_ROUTES, ex.req.method ?? 'GET', ex.url.pathname.replace(/\/+$/, ''));
  if (!(await passesApiMode(engine, integration, ex))) return;
  if (!found) throw new PaystackRefusal(404, `Route not found: ${ex.req.method} ${ex.url.pathname}`);
  found.route.handle(engine, integration, { ...ex, params: found.params });
}
