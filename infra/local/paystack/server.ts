/**
 * The local Paystack-compatible server of `npm start` and the tests (docs/paystack-local.md): Paystack's API with its
 * shapes (transactions, charge_authorization, refunds, customers, dedicated accounts), a checkout page, signed
 * webhooks with retries and knobs, and control endpoints under `/_local/`, on loopback. Its state is one JSON file
 * under `dataDir` and survives a restart. Any Paystack-compatible server can stand in for it: the service knows only
 * its base URL.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleApi } from './api.ts';
import { CHECKOUT_PATH, handleCheckout } from './checkout.ts';
import { handleControl } from './control.ts';
import type { Engine } from './engine.ts';
import { PaystackRefusal, parseFields, readBody, refuse, sendJson } from './http.ts';
import { RefundClock } from './refunds.ts';
import { StateFile } from './state.ts';
import { WebhookOutbox } from './webhooks.ts';

export interface LocalPaystackOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Where the state file (`paystack-state.json`) is kept. */
  dataDir: string;
  log?: (message: string, error?: unknown) => void;
  /** The base URL checkout links are given on (`authorization_url`); default: the server's own URL. */
  publicBaseUrl?: string;
  /** The pause after a webhook's first failed attempt, doubling after each (default: env LOCAL_PAYSTACK_RETRY_BASE_MS, else 5 s). */
  retryBaseMs?: number;
  /** How long a webhook is retried (default 72 hours, as Paystack). */
  retryWindowMs?: number;
  /** How long one webhook attempt may take (default 10 s). */
  webhookTimeoutMs?: number;
  /** How long a refund stays pending before it is processed (default: env LOCAL_PAYSTACK_REFUND_DELAY_MS, else 2 s). */
  refundDelayMs?: number;
}

export interface LocalPaystack {
  /** The API base URL (what the service's `PAYSTACK_BASE_URL` is set to). */
  url: string;
  port: number;
  stop(): Promise<void>;
}

const HOUR_MS = 60 * 60 * 1000;

function fromEnv(name: string): number | undefined {
  const value = process.env[name];
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

export async function startLocalPaystack(options: LocalPaystackOptions): Promise<LocalPaystack> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? ((message, error) => console.error(message, error ?? ''));
  const store = new StateFile(options.dataDir);
  const outbox = new WebhookOutbox(store, {
    retryBaseMs: options.retryBaseMs ?? fromEnv('LOCAL_PAYSTACK_RETRY_BASE_MS') ?? 5000,
    retryWindowMs: options.retryWindowMs ?? 72 * HOUR_MS,
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    log,
  });
  const refunds = new RefundClock(
    store,
    outbox,
    options.refundDelayMs ?? fromEnv('LOCAL_PAYSTACK_REFUND_DELAY_MS') ?? 2000,
  );
  let publicBase = '';
  const engine: Engine = { store, outbox, refunds, checkoutUrl: (code) => `${publicBase}/checkout/${code}`, log };
  const server = createServer((req, res) => void serve(engine, req, res));
  await listenOn(server, options.port, host);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  publicBase = (options.publicBaseUrl ?? url).replace(/\/+$/, '');
  outbox.start();
  refunds.start();
  return {
    url,
    port,
    async stop() {
      outbox.stop();
      refunds.stop();
      store.close();
      await close(server);
    },
  };
}

async function serve(engine: Engine, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://local');
    const fields = parseFields(await readBody(req), req.headers['content-type']);
    const ex = { req, res, url, params: [], fields };
    if (url.pathname === '/_local' || url.pathname.startsWith('/_local/')) return handleControl(engine, ex);
    if (CHECKOUT_PATH.test(url.pathname)) return handleCheckout(engine, ex);
    await handleApi(engine, ex);
  } catch (error) {
    if (error instanceof PaystackRefusal) return refuse(res, error);
    engine.log('Local Paystack: a request failed.', error);
    if (!res.headersSent)
      sendJson(res, 500, { status: false, message: 'An error occurred on the local Paystack server' });
  }
}

function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
