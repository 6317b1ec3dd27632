/**
 * The online-payments phase's Paystack (bench/phases/online-payments.ts): the project's local Paystack-compatible
 * server (infra/local/paystack/, docs/paystack-local.md) started in the bench process on a temporary data directory,
 * the time it takes to answer each API call, its checkout paid as a client pays it, and the signed `charge.success`
 * Paystack would send for a paid checkout.
 */
import { createHmac } from 'node:crypto';
import diagnostics from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LocalPaystack, startLocalPaystack } from '../infra/local/paystack/server.ts';

export interface BenchPaystack {
  paystack: LocalPaystack;
  /** The DATA_DIR of the phase: the local sealing key of the account's secret key, and the server's state. */
  dataDir: string;
  /** The server's time (request in → answer written) of each call to a path starting with `prefix` since the last take. */
  take(prefix: string): number[];
  stop(): Promise<void>;
}

const REQUEST_START = 'http.server.request.start';
const RESPONSE_FINISH = 'http.server.response.finish';

/**
 * Starts the server on a free loopback port. Its answers are timed through Node's HTTP diagnostics channels: the
 * bench process serves no other HTTP (the runtime and the floor are processes of their own), so every request seen is
 * the local Paystack's, timed without a hop in front of it.
 */
export async function startBenchPaystack(): Promise<BenchPaystack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-paystack-'));
  const started = new Map<IncomingMessage, number>();
  const answered: { path: string; ms: number }[] = [];
  const onStart = (message: unknown) =>
    started.set((message as { request: IncomingMessage }).request, performance.now());
  const onFinish = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    const at = started.get(request);
    started.delete(request);
    if (at !== undefined) answered.push({ path: request.url ?? '', ms: performance.now() - at });
  };
  diagnostics.subscribe(REQUEST_START, onStart);
  diagnostics.subscribe(RESPONSE_FINISH, onFinish);
  const paystack = await startLocalPaystack({ port: 0, dataDir: join(dataDir, 'paystack'), log: () => {} });
  return {
    paystack,
    dataDir,
    take(prefix) {
      const taken = answered.filter((a) => a.path.startsWith(prefix)).map((a) => a.ms);
      answered.length = 0;
      return taken;
    },
    async stop() {
      await paystack.stop();
      diagnostics.unsubscribe(REQUEST_START, onStart);
      diagnostics.unsubscribe(RESPONSE_FINISH, onFinish);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Pays at the local checkout with its success card (a reusable authorization); the callback it redirects to. */
export async function payAtCheckout(location: string): Promise<string> {
  const response = await fetch(location, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'choice=success_card',
    redirect: 'manual',
  });
  await response.text();
  const callback = response.headers.get('location');
  if (response.status !== 303 || !callback) throw new Error(`the checkout answered ${response.status}`);
  return callback;
}

/** Paystack's `charge.success` of each of the integration's transactions (as verify shows it), by reference. */
export async function chargeSuccessBodies(paystack: LocalPaystack, secretKey: string): Promise<Map<string, string>> {
  const response = await fetch(`${paystack.url}/_local/transactions`, {
    headers: { authorization: `Bearer ${secretKey}` },
  });
  const transactions = ((await response.json()) as { data: { reference: string }[] }).data;
  return new Map(transactions.map((data) => [data.reference, JSON.stringify({ event: 'charge.success', data })]));
}

/** Paystack's signature: hex HMAC-SHA512 of the body's exact bytes keyed with the secret key. */
export const paystackSignature = (body: string, secretKey: string): string =>
  createHmac('sha512', secretKey).update(body).digest('hex');
