/**
 * Black box: `npm start` delivers signed webhooks (docs/webhooks.md) to a real HTTP receiver on loopback,
 * which verifies every request with the `standardwebhooks` package (the receiver's side). The
 * receiver first answers 500, so each event is retried with the same webhook-id; `npm start` is
 * stopped while retries are pending and started again, and every event still arrives.
 */
import type { Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf } from '../support/days.ts';
import { invoiceRequest } from '../support/fixtures.ts';
import { NpmStartHarness, postCreated as post, startReceiver } from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';

let harness: NpmStartHarness | undefined;
let receiver: Server | undefined;

/** SIGINT to npm alone, which passes it on: the service stops its DynamoDB Local itself. npm's exit code. */
const stop = async () => (await harness!.stop('SIGINT', { to: 'npm' })).code;

afterAll(async () => {
  receiver?.close();
  await harness?.cleanUp();
});

describe('webhooks through npm start', { timeout: 300_000 }, () => {
  it('delivers invoice.created, payment.recorded and invoice.paid, signed, retried after 500s, across a restart', async () => {
    harness = await NpmStartHarness.create('webhooks');
    // Delays of 0.2 s, 1 s, 6 s, … instead of 1 min, 5 min, 30 min, …
    harness.extraEnv = { WEBHOOK_RETRY_BASE_MS: '200' };
    let status = 500;
    const started = await startReceiver(
      (_request, response) =>
        void response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'not now'),
    );
    receiver = started.server;
    const { received, url: receiverUrl } = started;

    const first = await harness.start();
    const companyId = harness.companyId();
    const endpoint = await harness.cli('webhook:set', '--company-id', String(companyId), '--url', receiverUrl);
    expect(endpoint).toMatchObject({
      company_id: companyId,
      url: receiverUrl,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const verifier = new Webhook(endpoint.secret as string);

    const invoice = await post(
      first,
      '/invoices',
      invoiceRequest('ada.webhooks@example.com', {
        due_date: '12/31/2099',
        items: [{ item: 'Consulting', description: 'Advice', unit_cost: '1,500.00', quantity: '2' }],
      }),
    );
    const payment = await post(first, '/payments', {
      reference_code: invoice.data.reference_code,
      date: dayOf(0).monthFirst,
      amount: '3000',
      channel: 'BankTransfer',
    });

    const attemptsOf = (eventId: string) => received.filter(({ headers }) => headers['webhook-id'] === eventId);
    const eventIds = () => [...new Set(received.map(({ headers }) => String(headers['webhook-id'])))];
    // Each event is tried, refused, and tried again with the same webhook-id.
    await until(
      'two refused attempts of each of the three events',
      () => eventIds().length === 3 && eventIds().every((id) => attemptsOf(id).length >= 2),
    );
    expect(await stop()).toBe(0);
    const beforeRestart = received.length;

    // While it is down, retries are pending in DATA_DIR; after the restart they are delivered.
    status = 200;
    await harness.start();
    // A pending retry may be due up to 24 s (120 × 200 ms, after a 4th attempt) after the stop.
    await until(
      'every event delivered with a 2xx',
      () => eventIds().every((id) => attemptsOf(id).some(({ answeredWith }) => answeredWith === 200)),
      120_000,
    );
    expect(received.length).toBeGreaterThan(beforeRestart);

    const events = new Map<string, Record<string, any>>();
    for (const request of received) {
      expect(request.headers['content-type']).toMatch(/^application\/json/);
      // Throws unless the signature over id, timestamp and body is valid (and the timestamp is recent).
      const verified = verifier.verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }) as Record<string, any>;
      expect(verified.id).toBe(request.headers['webhook-id']);
      expect(request.headers['webhook-id']).toMatch(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
      // Every attempt of an event carries the same body.
      if (events.has(verified.id)) expect(verified).toEqual(events.get(verified.id));
      events.set(verified.id, verified);
    }
    const byType = new Map([...events.values()].map((event) => [event.type as string, event]));
    expect([...byType.keys()].sort()).toEqual(['invoice.created', 'invoice.paid', 'payment.recorded']);
    for (const event of byType.values()) {
      expect(event).toMatchObject({
        company_id: String(companyId),
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      });
    }
    expect(byType.get('invoice.created')!.data).toEqual(invoice.data);
    expect(byType.get('payment.recorded')!.data).toEqual(payment.data);
    const paid = byType.get('invoice.paid')!.data;
    expect(paid).toMatchObject(payment.data.invoice);
    expect(paid.client).toMatchObject({ email: 'ada.webhooks@example.com' });
    // Delivered events are not delivered again.
    const delivered = received.length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(received.length).toBe(delivered);

    expect(await stop()).toBe(0);
  });
});
