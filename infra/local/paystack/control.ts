/**
 * The control endpoints under `/_local/` (not Paystack's; docs/paystack-local.md "Control endpoints"): an
 * integration's settings (webhook URL — Paystack's dashboard setting — and callback URL), its webhook knobs and API
 * mode, forced declines, listings for tests, and a bank transfer into a dedicated account (JSON, or the `/_local/`
 * page's form). The integration is named by its secret key, as on the API; the transfer and the page need none.
 */
import { matchRoute, type Route, secretKeyOf } from './api.ts';
import { receiveTransfer } from './charges.ts';
import { apiModeFrom, declineCount, integrationView, knobsFrom, settingsFrom } from './control-input.ts';
import type { Engine } from './engine.ts';
import { answer, type Exchange, PaystackRefusal, redirect, sendHtml } from './http.ts';
import { localPage } from './pages.ts';
import { refundView, transactionView } from './shapes.ts';
import type { Integration } from './state.ts';

type Handle = (engine: Engine, integration: Integration, ex: Exchange, params: string[]) => void;

const KEYED: Route<Handle>[] = [
  {
    method: 'GET',
    path: /^\/_local\/integration$/,
    handle: (_, integration, ex) => answer(ex.res, 'Integration retrieved', integrationView(integration)),
  },
  {
    method: 'POST',
    path: /^\/_local\/integration$/,
    handle: (engine, integration, ex) => {
      Object.assign(integration, settingsFrom(ex.fields));
      engine.store.save();
      answer(ex.res, 'Integration updated', integrationView(integration));
    },
  },
  {
    method: 'POST',
    path: /^\/_local\/webhook-knobs$/,
    handle: (engine, integration, ex) => {
      integration.knobs = knobsFrom(integration.knobs, ex.fields);
      // Events held for a reorder that is switched off go out at once.
      if (integration.knobs.reorder === null) engine.outbox.release(integration);
      engine.store.save();
      answer(ex.res, 'Webhook knobs set', integration.knobs);
    },
  },
  {
    method: 'POST',
    path: /^\/_local\/webhooks\/release$/,
    handle: (engine, integration, ex) =>
      answer(ex.res, 'Held events released', { released: engine.outbox.release(integration) }),
  },
  {
    method: 'POST',
    path: /^\/_local\/api-mode$/,
    handle: (engine, integration, ex) => {
      integration.api = apiModeFrom(ex.fields);
      engine.store.save();
      answer(ex.res, 'API mode set', integration.api);
    },
  },
  {
    method: 'POST',
    path: /^\/_local\/authorizations\/([^/]+)\/decline$/,
    handle: (engine, integration, ex, [code]) => {
      if (!integration.authorizations.some((a) => a.data.authorization_code === code))
        throw new PaystackRefusal(404, 'Authorization not found');
      integration.declines[code!] = declineCount(ex.fields);
      engine.store.save();
      answer(ex.res, 'Next charges will decline', { authorization_code: code, declines: integration.declines[code!] });
    },
  },
  {
    method: 'GET',
    path: /^\/_local\/transactions$/,
    handle: (_, integration, ex) =>
      answer(
        ex.res,
        'Transactions retrieved',
        integration.transactions.map((tx) => transactionView(integration, tx)),
      ),
  },
  {
    method: 'GET',
    path: /^\/_local\/refunds$/,
    handle: (_, integration, ex) =>
      answer(
        ex.res,
        'Refunds retrieved',
        integration.refunds.map((r) =>
          refundView(integration, r, integration.transactions.find((t) => t.id === r.transaction_id)!),
        ),
      ),
  },
  {
    method: 'GET',
    path: /^\/_local\/deliveries$/,
    handle: (_, integration, ex) =>
      answer(
        ex.res,
        'Deliveries retrieved',
        integration.deliveries.map(({ body, ...delivery }) => ({ ...delivery, body: JSON.parse(body) as unknown })),
      ),
  },
];

function transfer(engine: Engine, ex: Exchange): void {
  const fromForm = (ex.req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
  if (!fromForm) {
    const { integration, transaction } = receiveTransfer(engine, ex.fields);
    answer(ex.res, 'Transfer received', transactionView(integration, transaction));
    return;
  }
  let notice: string;
  try {
    notice = `Transfer received: ${receiveTransfer(engine, ex.fields).transaction.reference}`;
  } catch (error) {
    if (!(error instanceof PaystackRefusal)) throw error;
    notice = `Transfer refused: ${error.message}`;
  }
  redirect(ex.res, `/_local/?notice=${encodeURIComponent(notice)}`);
}

export function handleControl(engine: Engine, ex: Exchange): void {
  const path = ex.url.pathname.replace(/\/+$/, '');
  const method = ex.req.method ?? 'GET';
  if (method === 'GET' && path === '/_local') {
    sendHtml(ex.res, 200, localPage(engine.store.integrations(), ex.url.searchParams.get('notice')));
    return;
  }
  if (method === 'POST' && path === '/_local/transfers') {
    transfer(engine, ex);
    return;
  }
  const found = matchRoute(KEYED, method, path);
  if (!found) throw new PaystackRefusal(404, `No control endpoint ${method} ${ex.url.pathname}`);
  const integration = engine.store.integration(secretKeyOf(ex.req.headers.authorization));
  found.route.handle(engine, integration, ex, found.params);
}
