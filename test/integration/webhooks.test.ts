/**
 * Webhooks end to end below the queue (docs/webhooks.md): the API writes outbox events in its own
 * transaction; `deliverWebhook` (what the queue consumer calls) POSTs them to a real HTTP receiver on
 * 127.0.0.1 that verifies every signature with the `standardwebhooks` library.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { ulid } from 'ulid';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Command } from '../../infra/cli/command.ts';
import { webhookRemove, webhookResend, webhookSet } from '../../infra/cli/webhook-commands.ts';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { environmentRestorer } from '../../infra/tools/environment.ts';
import { resetConfig } from '../../shared/config.ts';
import { logger } from '../../shared/observability.ts';
import { deliverWebhook } from '../../shared/services/deliver-webhook.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { listDeliveries, requestResend } from '../../shared/store/webhook-deliveries.ts';
import { getEndpoint } from '../../shared/store/webhook-endpoints.ts';
import { call, invoiceBody, newAccount, todayMonthFirst } from '../support/api.ts';

/** Runs a CLI command in this process (as `npm run --silent <name>` would) and returns the lines it prints. */
async function runCommand(command: Command, values: Record<string, string>): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  await command.run(command.input(values), { line: (record) => lines.push(record) });
  return lines;
}

const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-webhooks-'));
const restoreEnvironment = environmentRestorer(['DATA_DIR', 'WEBHOOK_ALLOW_LOOPBACK', 'WEBHOOK_RETRY_BASE_MS']);
beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
  process.env.WEBHOOK_RETRY_BASE_MS = '1000';
  resetConfig(); // the configuration is read once per process
});
afterAll(() => {
  restoreEnvironment();
  rmSync(dataDir, { recursive: true, force: true });
});
afterEach(() => dynamoHooks.clear());

type Behaviour = 'ok' | 'error' | 'hang' | 'redirect' | 'big';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When the request arrived (epoch ms). */
  receivedAtMs: number;
}

/** A merchant's endpoint: answers per a script of behaviours (then 200), records every request. */
class Receiver {
  readonly received: Received[] = [];
  script: Behaviour[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        this.received.push({
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          receivedAtMs: Date.now(),
        });
        const behaviour = this.script.shift() ?? 'ok';
        if (behaviour === 'hang') return; // never answers
        if (behaviour === 'error') return void response.writeHead(500).end('{"oops":true}');
        if (behaviour === 'redirect') return void response.writeHead(302, { location: '/elsewhere' }).end();
        if (behaviour === 'big') return void response.writeHead(200).end('x'.repeat(1_000_000));
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    const port = (this.server.address() as { port: number }).port;
    this.url = `http://127.0.0.1:${port}/hooks`;
    return this;
  }

  stop() {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(r));
  }
}

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.stop();
});

async function merchant(url?: (receiver: Receiver) => string) {
  const receiver = await new Receiver().start();
  receivers.push(receiver);
  const { account, key } = await newAccount();
  const [set] = await runCommand(webhookSet, {
    'company-id': String(account.companyId),
    url: url ? url(receiver) : receiver.url,
  });
  return { receiver, account, key, secret: String(set!.secret), companyId: account.companyId };
}

/** Verifies like a receiver would, with the published library; returns the parsed body. */
function verified(received: Received, secret: string): any {
  return new Webhook(secret).verify(received.body, received.headers as Record<string, string>);
}

const eventsOf = async (companyId: number) => (await listDeliveries(companyId)).reverse(); // oldest first

async function payInFull(key: string) {
  const invoice = await call('add-invoice', { key, body: invoiceBody() });
  const payment = await call('add-payment', {
    key,
    body: {
      reference_code: invoice.body.data.reference_code,
      amount: invoice.body.data.total,
      channel: 'Cash',
      date: todayMonthFirst(),
    },
  });
  return { invoice, payment };
}

describe('webhook events', { timeout: 60_000 }, () => {
  it('delivers invoice.created, payment.recorded and invoice.paid, signed, with data equal to the API responses', async () => {
    // Prepare
    const { receiver, key, secret, companyId } = await merchant();
    const { invoice, payment } = await payInFull(key);
    expect(invoice.status).toBe(201);
    expect(payment.status).toBe(201);
    const events = await eventsOf(companyId);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'payment.recorded', 'invoice.paid']);

    // Act
    const outcomes = [];
    for (const event of events) outcomes.push(await deliverWebhook(event.event_id));

    // Assess
    expect(outcomes).toEqual([{ kind: 'delivered' }, { kind: 'delivered' }, { kind: 'delivered' }]);
    const bodies = receiver.received.map((r) => verified(r, secret));
    expect(receiver.received.map((r) => r.headers['content-type'])).toEqual(Array(3).fill('application/json'));
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(events.map((e) => e.event_id));
    expect(bodies.map((b) => b.type)).toEqual(['invoice.created', 'payment.recorded', 'invoice.paid']);
    expect(bodies[0].data).toEqual(invoice.body.data);
    expect(bodies[1].data).toEqual(payment.body.data);
    expect(bodies[2].data).toEqual({ ...payment.body.data.invoice, client: payment.body.data.client });
    for (const body of bodies) {
      expect(Object.keys(body)).toEqual(['id', 'type', 'created_at', 'company_id', 'data']);
      expect(body.company_id).toBe(String(companyId));
      expect(body.id).toBe(receiver.received[bodies.indexOf(body)]!.headers['webhook-id']);
    }
    expect(bodies[0].created_at).toBe(invoice.body.data.created_at);
    expect(bodies[1].created_at).toBe(payment.body.data.created_at);
    const after = await listDeliveries(companyId);
    expect(
      after.every(
        (d) => d.state === 'delivered' && d.attempts === 1 && d.last_status === 204 && d.next_attempt_at === null,
      ),
    ).toBe(true);

    // Delivered is final: a duplicate queue message sends nothing.
    expect(await deliverWebhook(events[0]!.event_id)).toEqual({ kind: 'skipped', reason: 'already delivered' });
    expect(receiver.received).toHaveLength(3);
  });

  it('a partial payment is payment.recorded alone', async () => {
    const { key, companyId } = await merchant();
    const invoice = await call('add-invoice', { key, body: invoiceBody() });
    await call('add-payment', {
      key,
      body: { reference_code: invoice.body.data.reference_code, amount: 1, channel: 'POS', date: todayMonthFirst() },
    });
    expect((await eventsOf(companyId)).map((e) => e.type)).toEqual(['invoice.created', 'payment.recorded']);
  });

  it('retries after 500s and a timeout with the same webhook-id, on the schedule, then delivers', async () => {
    // Prepare
    const { receiver, key, secret, companyId } = await merchant();
    await call('add-invoice', { key, body: invoiceBody() });
    const [event] = await eventsOf(companyId);
    receiver.script = ['error', 'hang', 'redirect'];

    // Act
    const first = await deliverWebhook(event!.event_id);
    const afterFirst = (await listDeliveries(companyId))[0]!;
    const second = await deliverWebhook(event!.event_id); // times out after 10 s
    const afterSecond = (await listDeliveries(companyId))[0]!;
    const third = await deliverWebhook(event!.event_id);
    const fourth = await deliverWebhook(event!.event_id);

    // Assess: WEBHOOK_RETRY_BASE_MS=1000 → 1 s, 5 s, 30 s, …
    expect([first, second, third, fourth]).toEqual([
      { kind: 'retry', delayMs: 1000 },
      { kind: 'retry', delayMs: 5000 },
      { kind: 'retry', delayMs: 30_000 },
      { kind: 'delivered' },
    ]);
    expect(afterFirst).toMatchObject({ state: 'pending', attempts: 1, last_status: 500, last_error: null });
    expect(afterFirst.next_attempt_at).not.toBeNull();
    expect(afterSecond).toMatchObject({ state: 'pending', attempts: 2, last_status: null, last_error: 'timeout' });
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect([...ids]).toEqual([event!.event_id]);
    expect(receiver.received.map((r) => r.path)).toEqual(['/hooks', '/hooks', '/hooks', '/hooks']); // the redirect was not followed
    for (const r of receiver.received) expect(verified(r, secret).id).toBe(event!.event_id);
    // webhook-timestamp is the moment of each attempt, not of the first: the attempt after the 10 s timeout says so.
    for (const r of receiver.received) {
      expect(Math.abs(Number(r.headers['webhook-timestamp']) * 1000 - r.receivedAtMs)).toBeLessThan(2_000);
    }
    const stamps = receiver.received.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps[2]! - stamps[1]!).toBeGreaterThanOrEqual(9);
    expect((await listDeliveries(companyId))[0]).toMatchObject({
      state: 'delivered',
      attempts: 4,
      last_status: 204,
      last_error: null,
      next_attempt_at: null,
    });
  });

  it('after the last attempt the delivery is failed; webhook:resend delivers it again', async () => {
    // Prepare
    const { receiver, key, secret, companyId } = await merchant();
    await call('add-invoice', { key, body: invoiceBody() });
    const [event] = await eventsOf(companyId);
    receiver.script = Array(8).fill('error');

    // Act
    const outcomes = [];
    for (let i = 0; i < 8; i++) outcomes.push(await deliverWebhook(event!.event_id));

    // Assess
    expect(outcomes.slice(0, 7).map((o) => o.kind)).toEqual(Array(7).fill('retry'));
    expect(outcomes.map((o) => (o.kind === 'retry' ? o.delayMs : 0))).toEqual([
      1000, 5000, 30_000, 120_000, 300_000, 600_000, 600_000, 0,
    ]);
    expect(outcomes[7]).toEqual({ kind: 'failed' });
    expect((await listDeliveries(companyId))[0]).toMatchObject({
      state: 'failed',
      attempts: 8,
      last_status: 500,
      next_attempt_at: null,
    });
    expect(await deliverWebhook(event!.event_id)).toEqual({ kind: 'skipped', reason: 'already failed' });

    // Resend: the delivery state starts over and the same event (same id, same body) arrives.
    const [resent] = await runCommand(webhookResend, { 'event-id': event!.event_id });
    expect(resent).toEqual({ event_id: event!.event_id, company_id: companyId, resent: true });
    expect((await listDeliveries(companyId))[0]).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await deliverWebhook(event!.event_id)).toEqual({ kind: 'delivered' });
    const bodies = receiver.received.map((r) => r.body);
    expect(new Set(bodies).size).toBe(1);
    expect(verified(receiver.received.at(-1)!, secret).id).toBe(event!.event_id);
    // One Query of the event's partition: a Scan's first page of the shared table need not hold it.
    const resendItems = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :resend)',
        ExpressionAttributeValues: { ':pk': `EVENT#${event!.event_id}`, ':resend': 'RESEND#' },
      }),
    );
    expect(resendItems.Items).toHaveLength(1);
  });

  it('reads at most a few KB of a large response and still counts the 2xx', async () => {
    const { receiver, key, companyId } = await merchant();
    await call('add-invoice', { key, body: invoiceBody() });
    receiver.script = ['big'];
    const [event] = await eventsOf(companyId);
    expect(await deliverWebhook(event!.event_id)).toEqual({ kind: 'delivered' });
    expect((await listDeliveries(companyId))[0]).toMatchObject({ last_status: 200 });
  });

  it('delivers to http://localhost:PORT through the checked DNS lookup', async () => {
    const { receiver, key, secret, companyId } = await merchant((r) => r.url.replace('127.0.0.1', 'localhost'));
    await call('add-invoice', { key, body: invoiceBody() });
    const [event] = await eventsOf(companyId);
    expect(await deliverWebhook(event!.event_id)).toEqual({ kind: 'delivered' });
    expect(verified(receiver.received[0]!, secret).type).toBe('invoice.created');
  });

  it('refuses at delivery an address the policy forbids (loopback when deployed), for literals and resolved names alike', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const { receiver, key, companyId } = await merchant((r) => r.url.replace('127.0.0.1', host));
      await call('add-invoice', { key, body: invoiceBody() });
      const [event] = await eventsOf(companyId);
      process.env.WEBHOOK_ALLOW_LOOPBACK = 'false';
      resetConfig(); // the configuration is read once per process
      try {
        expect(await deliverWebhook(event!.event_id)).toEqual({ kind: 'retry', delayMs: 1000 });
      } finally {
        process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
        resetConfig(); // the configuration is read once per process
      }
      expect(receiver.received).toHaveLength(0);
      expect((await listDeliveries(companyId))[0]).toMatchObject({ last_error: 'forbidden address (loopback)' });
    }
  });

  it('sends nothing without an endpoint, or for events from before the endpoint was set', async () => {
    // Prepare
    const { account, key } = await newAccount();
    await call('add-invoice', { key, body: invoiceBody() });
    const [before] = await eventsOf(account.companyId);
    // Act / Assess
    expect(await deliverWebhook(before!.event_id)).toEqual({ kind: 'skipped', reason: 'no endpoint' });
    const receiver = await new Receiver().start();
    receivers.push(receiver);
    await runCommand(webhookSet, { 'company-id': String(account.companyId), url: receiver.url });
    await runCommand(webhookResend, { 'event-id': before!.event_id });
    expect(await deliverWebhook(before!.event_id)).toEqual({ kind: 'skipped', reason: 'endpoint set after the event' });
    expect(receiver.received).toHaveLength(0);
    expect((await listDeliveries(account.companyId))[0]).toMatchObject({
      state: 'skipped',
      last_error: 'endpoint set after the event',
    });
    expect(await deliverWebhook('evt_01JD0000000000000000000000')).toEqual({
      kind: 'skipped',
      reason: 'unknown event',
    });
  });

  it('a rotated secret signs the next attempts; a removed endpoint stops pending deliveries', async () => {
    const { receiver, key, account, companyId } = await merchant();
    await call('add-invoice', { key, body: invoiceBody() });
    await call('add-invoice', { key, body: invoiceBody() });
    const [first, second] = await eventsOf(companyId);
    const [rotated] = await runCommand(webhookSet, { 'company-id': String(companyId), url: receiver.url });
    expect(await deliverWebhook(first!.event_id)).toEqual({ kind: 'delivered' });
    expect(verified(receiver.received[0]!, String(rotated!.secret)).id).toBe(first!.event_id);
    expect(await runCommand(webhookRemove, { 'company-id': String(account.companyId) })).toEqual([
      { company_id: companyId, removed: true },
    ]);
    expect(await deliverWebhook(second!.event_id)).toEqual({ kind: 'skipped', reason: 'no endpoint' });
    expect(receiver.received).toHaveLength(1);
  });

  it('nothing crosses accounts: each endpoint gets its own account events only', async () => {
    const a = await merchant();
    const b = await merchant();
    await payInFull(a.key);
    await call('add-invoice', { key: b.key, body: invoiceBody() });
    for (const m of [a, b]) for (const e of await eventsOf(m.companyId)) await deliverWebhook(e.event_id);
    expect(a.receiver.received.map((r) => verified(r, a.secret).company_id)).toEqual(
      Array(3).fill(String(a.companyId)),
    );
    expect(b.receiver.received.map((r) => verified(r, b.secret).company_id)).toEqual([String(b.companyId)]);
    expect(() => verified(a.receiver.received[0]!, b.secret)).toThrow();
    // A paid invoice of A cannot be paid by B (404), and that outcome writes no event for anyone.
    const reference = JSON.parse(a.receiver.received[0]!.body).data.reference_code;
    const foreign = await call('add-payment', {
      key: b.key,
      body: { reference_code: reference, amount: 1, channel: 'Cash', date: todayMonthFirst() },
    });
    expect(foreign.status).toBe(404);
    expect(await eventsOf(b.companyId)).toHaveLength(1);
    expect(await eventsOf(a.companyId)).toHaveLength(3);
  });

  it('the sealed secret in the table is not the secret: a table item alone cannot sign', async () => {
    const { companyId, secret } = await merchant();
    const endpoint = await getEndpoint(companyId);
    const raw = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const stored = Buffer.from(endpoint!.sealedSecret);
    expect(stored.includes(raw)).toBe(false);
    expect(stored.toString('base64')).not.toContain(secret.slice(6, 30));
    // A sealed secret copied to another account's endpoint does not open there.
    const other = await merchant();
    const { putEndpoint } = await import('../../shared/store/webhook-endpoints.ts');
    await putEndpoint(other.companyId, other.receiver.url, stored);
    await call('add-invoice', { key: other.key, body: invoiceBody() });
    const [event] = await eventsOf(other.companyId);
    await expect(deliverWebhook(event!.event_id)).rejects.toThrow();
    expect(other.receiver.received).toHaveLength(0);
  });
});

describe('webhook logs', { timeout: 60_000 }, () => {
  it('carry the event id, type, company, attempt and status, never the secret or the payload', async () => {
    // Prepare
    const { receiver, key, secret, companyId } = await merchant();
    const email = `logs-${Date.now()}@example.com`;
    await call('add-invoice', {
      key,
      body: invoiceBody({ client: { first_name: 'Zed', last_name: 'Q', email, phone: '+2348012345678' } }),
    });
    const [event] = await eventsOf(companyId);
    receiver.script = ['error'];
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    logger.setLogLevel('DEBUG');
    // Act
    try {
      await deliverWebhook(event!.event_id);
      await deliverWebhook(event!.event_id);
    } finally {
      logger.setLogLevel((process.env.LOG_LEVEL ?? 'SILENT') as never);
      out.mockRestore();
      err.mockRestore();
    }
    // Assess
    const text = written.join('');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.message, l.attempt, l.status, l.outcome])).toEqual([
      ['webhook attempt failed', 1, 500, 'retry'],
      ['webhook delivered', 2, 204, 'delivered'],
    ]);
    expect(lines[0]).toMatchObject({ event_id: event!.event_id, event_type: 'invoice.created', company_id: companyId });
    for (const forbidden of [secret, secret.slice(6), email, 'Website Design', 'reference_code'])
      expect(text).not.toContain(forbidden);
  });
});

describe('exactly the committed writes produce events', { timeout: 60_000 }, () => {
  /**
   * The transaction commits but the function never hears back (every answer, resends with the same token
   * included, is lost): what a function that dies right after its commit leaves behind. It answers 504 at its
   * deadline (a 4 s invocation here: any deadline shows it).
   */
  function crashAfterCommit() {
    return dynamoHooks.add({
      after: (c) => {
        if (c.command === 'TransactWriteItemsCommand') throw new Error('process crashed');
      },
    });
  }

  it('a crash right after the payment committed still leaves its events, and they deliver', async () => {
    // Prepare
    const { receiver, key, secret, companyId } = await merchant();
    const invoice = await call('add-invoice', { key, body: invoiceBody() });
    const payment = {
      reference_code: invoice.body.data.reference_code,
      amount: invoice.body.data.total,
      channel: 'Cash',
      date: todayMonthFirst(),
    };
    // Act
    const remove = crashAfterCommit();
    const failed = await call('add-payment', { key, body: payment, idempotencyKey: 'crash-events', budgetMs: 4_000 });
    remove();
    // Assess
    expect(failed.body.code).toBe('outcome_unknown');
    const events = await eventsOf(companyId);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'payment.recorded', 'invoice.paid']);
    for (const e of events) expect(await deliverWebhook(e.event_id)).toEqual({ kind: 'delivered' });
    const recorded = verified(receiver.received[1]!, secret);
    // The keyed retry replays the committed response: the event's data is exactly that response's data.
    const replay = await call('add-payment', { key, body: payment, idempotencyKey: 'crash-events' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(recorded.data).toEqual(replay.body.data);
    expect(await eventsOf(companyId)).toHaveLength(3);
  });

  it('a crash right after an invoice committed still leaves invoice.created', async () => {
    const { key, companyId } = await merchant();
    const remove = crashAfterCommit();
    const failed = await call('add-invoice', { key, body: invoiceBody(), budgetMs: 4_000 });
    remove();
    expect(failed.body.code).toBe('outcome_unknown');
    expect((await eventsOf(companyId)).map((e) => e.type)).toEqual(['invoice.created']);
  });

  it('a failed transaction writes no event', async () => {
    const { key, companyId } = await merchant();
    const remove = dynamoHooks.add({
      before: (c) => {
        if (c.command === 'TransactWriteItemsCommand')
          throw Object.assign(new Error('boom'), { name: 'InternalServerError' });
      },
    });
    const failed = await call('add-invoice', { key, body: invoiceBody(), budgetMs: 4_000 });
    remove();
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await eventsOf(companyId)).toEqual([]);
  });

  it('idempotent replays, 409s and 404s write no event', async () => {
    // Prepare
    const { key, companyId } = await merchant();
    const body = invoiceBody({ merchant_ref: 'ONCE' });
    const invoice = await call('add-invoice', { key, body, idempotencyKey: 'inv-1' });
    const pay = {
      reference_code: invoice.body.data.reference_code,
      amount: '100.00',
      channel: 'Cash',
      date: todayMonthFirst(),
    };
    await call('add-payment', { key, body: pay, idempotencyKey: 'pay-1' });
    const baseline = (await eventsOf(companyId)).map((e) => e.event_id);
    expect(baseline).toHaveLength(2);
    // Act
    const outcomes = [
      await call('add-invoice', { key, body, idempotencyKey: 'inv-1' }), // replay
      await call('add-payment', { key, body: pay, idempotencyKey: 'pay-1' }), // replay
      await call('add-invoice', { key, body: invoiceBody({ merchant_ref: 'ONCE' }) }), // 409 duplicate_merchant_ref
      await call('add-invoice', { key, body: invoiceBody({ merchant_ref: 'ONCE' }), idempotencyKey: 'inv-409' }), // stored 409
      await call('add-payment', { key, body: { ...pay, amount: '1000000' } }), // 409 amount_exceeds_balance
      await call('add-payment', { key, body: { ...pay, amount: '1000000' }, idempotencyKey: 'pay-409' }), // stored 409
      await call('add-invoice', { key, body: { ...invoiceBody(), client: undefined, client_id: 999_999 } }), // 404
      await call('add-payment', { key, body: { ...pay, reference_code: 'nope0000000000000000' } }), // 404
    ];
    // Assess
    expect(outcomes.map((o) => o.status)).toEqual([201, 201, 409, 409, 409, 409, 404, 404]);
    expect((await eventsOf(companyId)).map((e) => e.event_id)).toEqual(baseline);
  });
});

describe('webhook:resend', () => {
  it('answers undefined for an unknown event', async () => {
    expect(await requestResend('evt_01JD0000000000000000000001', ulid())).toBeUndefined();
  });
});
