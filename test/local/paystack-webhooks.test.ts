/**
 * The local Paystack server's webhooks and knobs (docs/paystack-local.md "Webhooks", "Control endpoints"): the body and
 * its `x-paystack-signature` (checked here with node:crypto on the raw bytes), retries, pending deliveries across a
 * restart, duplicate / delay / reorder / drop, refund events, and the API mode for "provider down or slow".
 */
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  newSecretKey,
  type PaystackClient,
  payAtCheckout,
  paystackClient,
  startTestPaystack,
  temporaryDataDir,
  useTestPaystack,
  WebhookReceiver,
} from '../support/local-paystack.ts';
import { until } from '../support/until.ts';

const testPaystack = useTestPaystack();

/** A new integration whose webhook URL is a new receiver. */
async function connected(knobs?: Record<string, unknown>): Promise<{ c: PaystackClient; receiver: WebhookReceiver }> {
  const receiver = await WebhookReceiver.start();
  const c = paystackClient(() => testPaystack.server().url, newSecretKey());
  expect((await c.post('/_local/integration', { webhook_url: receiver.url })).status).toBe(200);
  if (knobs) expect((await c.post('/_local/webhook-knobs', knobs)).status).toBe(200);
  return { c, receiver };
}

async function deliveries(c: PaystackClient): Promise<any[]> {
  return (await c.get('/_local/deliveries')).body.data;
}

/** A dedicated account for a new customer, and a function that sends a transfer into it (its reference). */
async function transfers(c: PaystackClient): Promise<(narration: string) => Promise<string>> {
  const customer = (await c.post('/customer', { email: 'w@example.com', first_name: 'W', last_name: 'H', phone: '1' }))
    .body.data;
  const dva = (await c.post('/dedicated_account', { customer: customer.id })).body.data;
  return async (narration) => {
    const answer = await fetch(`${testPaystack.server().url}/_local/transfers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account_number: dva.account_number, amount: 10_000, narration }),
    });
    return ((await answer.json()) as any).data.reference;
  };
}

describe('charge.success', () => {
  it('is POSTed as JSON, signed with the hex HMAC-SHA512 of the raw body keyed with the secret key', async () => {
    const { c, receiver } = await connected();
    const { reference } = await payAtCheckout(c, 'success_card');
    await until('the event', () => receiver.events().length === 1);
    const [hook] = receiver.received;
    expect(hook!.contentType).toBe('application/json');
    expect(hook!.signature).toBe(createHmac('sha512', c.key).update(hook!.body).digest('hex'));
    expect(hook!.signature).not.toBe(createHmac('sha512', newSecretKey()).update(hook!.body).digest('hex'));
    expect(hook!.event).toBe('charge.success');
    expect(hook!.data).toEqual((await c.get(`/transaction/verify/${reference}`)).body.data);
    await receiver.close();
  });

  it('is sent for a dedicated account transfer and a charge_authorization success, never for a failure', async () => {
    const { c, receiver } = await connected();
    const send = await transfers(c);
    const transfer = await send('INV-7');
    const { reference } = await payAtCheckout(c, 'declining_card');
    await until('the transfer event', () => receiver.events().length === 1);
    expect(receiver.received[0]!.data).toMatchObject({ reference: transfer, channel: 'dedicated_nuban' });
    expect(receiver.received[0]!.data.authorization).toMatchObject({ narration: 'INV-7' });
    expect((await deliveries(c)).map((d) => d.reference)).not.toContain(reference);
    await receiver.close();
  });

  it('goes to its own integration only', async () => {
    const first = await connected();
    const second = await connected();
    await payAtCheckout(first.c, 'ussd');
    await until('the event', () => first.receiver.events().length === 1);
    expect(second.receiver.received).toEqual([]);
    await Promise.all([first.receiver.close(), second.receiver.close()]);
  });
});

describe('retries', () => {
  it('retries a failed delivery with the same bytes until it is answered 2xx', async () => {
    const { c, receiver } = await connected();
    receiver.failNext = 3;
    await payAtCheckout(c, 'success_card');
    await until('delivered', async () => (await deliveries(c))[0]?.status === 'delivered');
    const [delivery] = await deliveries(c);
    expect(delivery).toMatchObject({ attempts: 4, last_status: 200, last_error: null });
    expect(JSON.parse(receiver.received[0]!.body)).toEqual(delivery.body);
    await receiver.close();
  });

  it('gives up after the retry window, and skips an integration with no webhook URL', async () => {
    const dir = temporaryDataDir();
    const server = await startTestPaystack(dir.dir, { retryWindowMs: 200 });
    const receiver = await WebhookReceiver.start();
    receiver.failNext = 1_000;
    const c = paystackClient(() => server.url, newSecretKey());
    await c.post('/_local/integration', { webhook_url: receiver.url });
    await payAtCheckout(c, 'success_card');
    await until('given up', async () => (await deliveries(c))[0]?.status === 'failed');
    expect((await deliveries(c))[0].attempts).toBeGreaterThan(1);
    const unhooked = paystackClient(() => server.url, newSecretKey());
    await payAtCheckout(unhooked, 'success_card');
    expect((await deliveries(unhooked))[0]).toMatchObject({ status: 'skipped', attempts: 0 });
    await server.stop();
    await receiver.close();
    dir.remove();
  });

  it('sends after a restart a delivery still pending when the server stopped', async () => {
    const dir = temporaryDataDir();
    let server = await startTestPaystack(dir.dir);
    const receiver = await WebhookReceiver.start();
    const key = newSecretKey();
    let c = paystackClient(() => server.url, key);
    await c.post('/_local/integration', { webhook_url: receiver.url });
    await c.post('/_local/webhook-knobs', { delay_ms: 60 * 60 * 1000 });
    const { reference } = await payAtCheckout(c, 'success_card');
    expect((await deliveries(c))[0]).toMatchObject({ status: 'pending', attempts: 0 });
    await server.stop();
    // Its due time, kept in the state file, is an hour away: bring it to now, as if the hour had passed while stopped.
    const file = join(dir.dir, 'paystack-state.json');
    const state = JSON.parse(readFileSync(file, 'utf8'));
    for (const integration of Object.values<any>(state.integrations))
      for (const delivery of integration.deliveries) delivery.due_at = Date.now();
    writeFileSync(file, JSON.stringify(state));
    server = await startTestPaystack(dir.dir);
    c = paystackClient(() => server.url, key);
    await until('the event', () => receiver.events().length === 1);
    expect(receiver.received[0]!.data.reference).toBe(reference);
    await until('recorded', async () => (await deliveries(c))[0].status === 'delivered');
    expect((await deliveries(c))[0].attempts).toBe(1);
    await server.stop();
    await receiver.close();
    dir.remove();
  });
});

describe('knobs', () => {
  it('duplicate sends each event N more times, byte for byte', async () => {
    const { c, receiver } = await connected({ duplicate: 2 });
    await payAtCheckout(c, 'success_card');
    await until('three copies', () => receiver.events().length === 3);
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.signature)).size).toBe(1);
    await receiver.close();
  });

  it('delay_ms holds each event that long before its first attempt', async () => {
    const { c, receiver } = await connected({ delay_ms: 150 });
    await payAtCheckout(c, 'success_card');
    const [delivery] = await deliveries(c);
    expect(delivery.due_at - Date.parse(delivery.created_at)).toBe(150);
    await until('delivered', () => receiver.events().length === 1);
    await receiver.close();
  });

  it('reorder holds events until the count is reached, then sends them in reverse', async () => {
    const { c, receiver } = await connected({ reorder: { count: 3, order: 'reverse' } });
    const send = await transfers(c);
    const sent = [await send('first'), await send('second')];
    expect((await deliveries(c)).map((d) => d.status)).toEqual(['held', 'held']);
    sent.push(await send('third'));
    await until('three events', () => receiver.events().length === 3);
    expect(receiver.received.map((r) => r.data.reference)).toEqual([...sent].reverse());
    await receiver.close();
  });

  it('reorder shuffle sends every held event once; release sends held events at once', async () => {
    const { c, receiver } = await connected({ reorder: { count: 3, order: 'shuffle' } });
    const send = await transfers(c);
    const sent = [await send('a'), await send('b'), await send('c')];
    await until('three events', () => receiver.events().length === 3);
    expect(receiver.received.map((r) => r.data.reference).sort()).toEqual([...sent].sort());
    await c.post('/_local/webhook-knobs', { reorder: { count: 100 } });
    const late = [await send('d'), await send('e')];
    expect((await c.post('/_local/webhooks/release')).body.data).toEqual({ released: 2 });
    await until('five events', () => receiver.events().length === 5);
    expect(receiver.received.slice(3).map((r) => r.data.reference)).toEqual([...late].reverse());
    await receiver.close();
  });

  it('drop loses the next N events (or each with a probability); the others go out', async () => {
    const { c, receiver } = await connected({ drop: { count: 1 } });
    const send = await transfers(c);
    const lost = await send('lost');
    const kept = await send('kept');
    await until('one event', () => receiver.events().length === 1);
    expect(receiver.received[0]!.data.reference).toBe(kept);
    expect((await deliveries(c)).map((d) => [d.reference, d.status])).toEqual([
      [lost, 'dropped'],
      [kept, 'delivered'],
    ]);
    await c.post('/_local/webhook-knobs', { drop: { probability: 1 } });
    await send('also lost');
    expect((await deliveries(c)).at(-1).status).toBe('dropped');
    await c.post('/_local/webhook-knobs', { reset: true });
    await send('after reset');
    await until('two events', () => receiver.events().length === 2);
    await receiver.close();
  });

  it('refuses a knob out of range with 400', async () => {
    const c = paystackClient(() => testPaystack.server().url, newSecretKey());
    for (const knobs of [
      { duplicate: 11 },
      { delay_ms: -1 },
      { reorder: { order: 'sideways' } },
      { drop: { probability: 2 } },
    ])
      expect((await c.post('/_local/webhook-knobs', knobs)).status).toBe(400);
    expect((await c.post('/_local/integration', { webhook_url: 'ftp://x' })).status).toBe(400);
  });
});

describe('refund events', () => {
  it('sends refund.pending, then refund.processing and refund.processed, amounts as Paystack writes them', async () => {
    const { c, receiver } = await connected();
    const { reference } = await payAtCheckout(c, 'success_card');
    const refund = (await c.post('/refund', { transaction: reference, amount: 5000 })).body.data;
    await until('four events', () => receiver.events().length === 4);
    expect(receiver.received.map((r) => r.event)).toEqual([
      'charge.success',
      'refund.pending',
      'refund.processing',
      'refund.processed',
    ]);
    const processed = receiver.events('refund.processed')[0]!.data;
    expect(processed).toMatchObject({
      status: 'processed',
      transaction_reference: reference,
      amount: '5000',
      currency: 'NGN',
      id: String(refund.id),
      refund_reference: expect.stringMatching(/^TRF_/),
    });
    expect(receiver.events('refund.pending')[0]!.data.refund_reference).toBeNull();
    await receiver.close();
  });
});

describe('the API mode: provider down or slow', () => {
  it('unavailable answers 503 for the next N requests, then the API is back', async () => {
    const c = paystackClient(() => testPaystack.server().url, newSecretKey());
    await c.post('/_local/api-mode', { mode: 'unavailable', count: 2 });
    for (let i = 0; i < 2; i++)
      expect(await c.get('/transaction/verify/x')).toMatchObject({ status: 503, body: { status: false } });
    expect((await c.get('/transaction/verify/x')).status).toBe(400);
  });

  it('hang never answers; slow answers after its delay; up answers at once', async () => {
    const c = paystackClient(() => testPaystack.server().url, newSecretKey());
    await c.post('/_local/api-mode', { mode: 'hang' });
    const hung = fetch(`${testPaystack.server().url}/transaction/verify/x`, {
      headers: { authorization: `Bearer ${c.key}` },
      signal: AbortSignal.timeout(300),
    });
    await expect(hung).rejects.toThrow();
    await c.post('/_local/api-mode', { mode: 'slow', delay_ms: 50 });
    expect((await c.get('/transaction/verify/x')).status).toBe(400);
    await c.post('/_local/api-mode', { mode: 'up' });
    expect((await c.get('/_local/integration')).body.data.api).toEqual({ mode: 'up', delay_ms: 0, remaining: null });
  });
});
