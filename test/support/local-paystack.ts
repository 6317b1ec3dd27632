/**
 * Helpers for the local Paystack server's tests (infra/local/paystack/, docs/paystack-local.md): a server on a temporary
 * data directory, a client speaking to it with one secret key, and a webhook receiver that keeps every request's exact
 * body and headers and answers as the test says.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  type LocalPaystack,
  type LocalPaystackOptions,
  startLocalPaystack,
} from '../../infra/local/paystack/server.ts';

export const newSecretKey = () => `sk_test_${randomBytes(20).toString('hex')}`;

export function temporaryDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'local-paystack-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A server with short pauses (retries after 20 ms, refunds processed after 50 ms); it logs nothing. */
export function startTestPaystack(
  dataDir: string,
  options: Partial<LocalPaystackOptions> = {},
): Promise<LocalPaystack> {
  return startLocalPaystack({ port: 0, dataDir, log: () => {}, retryBaseMs: 20, refundDelayMs: 50, ...options });
}

/**
 * A test server for a test file: started before its tests on a temporary data directory, stopped (and the directory
 * removed) after them. `server()` is the running server; `client(key)` speaks to it (a new secret key by default).
 */
export function useTestPaystack(): { server(): LocalPaystack; client(key?: string): PaystackClient } {
  const data = temporaryDataDir();
  let paystack: LocalPaystack | undefined;
  beforeAll(async () => {
    paystack = await startTestPaystack(data.dir);
  });
  afterAll(async () => {
    await paystack?.stop();
    data.remove();
  });
  const server = () => {
    if (!paystack) throw new Error('the local Paystack server starts before the tests');
    return paystack;
  };
  return { server, client: (key = newSecretKey()) => paystackClient(() => server().url, key) };
}

export interface PaystackAnswer {
  status: number;
  body: any;
  location: string | null;
}

/** Calls with `Authorization: Bearer <key>`: JSON bodies, or a form body when `form` is set. */
export function paystackClient(baseUrl: () => string, key: string) {
  const send = async (method: string, path: string, body?: unknown, form = false): Promise<PaystackAnswer> => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
      payload = form
        ? new URLSearchParams(body as Record<string, string>).toString()
        : typeof body === 'string'
          ? body
          : JSON.stringify(body);
    }
    const response = await fetch(`${baseUrl()}${path}`, { method, headers, body: payload, redirect: 'manual' });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      body: type.includes('json') ? JSON.parse(text) : text,
      location: response.headers.get('location'),
    };
  };
  return {
    key,
    get: (path: string) => send('GET', path),
    post: (path: string, body?: unknown) => send('POST', path, body ?? {}),
    postForm: (path: string, body: Record<string, string>) => send('POST', path, body, true),
  };
}
export type PaystackClient = ReturnType<typeof paystackClient>;

export interface ReceivedWebhook {
  body: string;
  signature: string | undefined;
  contentType: string | undefined;
  event: string;
  data: any;
}

/** A webhook endpoint: answers 200, or 500 while `failNext` is above 0 (each failure counts it down). */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  failNext = 0;
  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const receiver: WebhookReceiver = new WebhookReceiver(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          if (receiver.failNext > 0) {
            receiver.failNext -= 1;
            res.writeHead(500).end('failing on purpose');
            return;
          }
          const body = Buffer.concat(chunks).toString('utf8');
          const parsed = JSON.parse(body);
          const signature = req.headers['x-paystack-signature'] as string | undefined;
          const contentType = req.headers['content-type'];
          receiver.received.push({ body, signature, contentType, event: parsed.event, data: parsed.data });
          res.writeHead(200).end('ok');
        });
      }),
    );
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', () => resolve()));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/paystack`;
  }

  events(event?: string): ReceivedWebhook[] {
    return this.received.filter((r) => event === undefined || r.event === event);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** Initializes a transaction and pays it at the checkout with one of the page's buttons (a form POST). */
export async function payAtCheckout(
  client: PaystackClient,
  choice: string,
  init: Record<string, unknown> = {},
): Promise<{ reference: string; redirect: PaystackAnswer }> {
  const initialized = await client.post('/transaction/initialize', {
    email: 'payer@example.com',
    amount: 500_000,
    ...init,
  });
  const { authorization_url: url, reference } = initialized.body.data;
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `choice=${choice}`,
    redirect: 'manual',
  });
  return {
    reference,
    redirect: { status: response.status, body: await response.text(), location: response.headers.get('location') },
  };
}
