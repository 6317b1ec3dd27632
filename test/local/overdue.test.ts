/**
 * Black box: `npm start` runs the overdue sweep (docs/api.md "Overdue") at start and every OVERDUE_SWEEP_MS, and CLOCK_OFFSET_MS
 * moves its notion of today forward: an invoice due in five days is shown unpaid and not notified; started again a
 * week later (by the offset) it is shown overdue and its endpoint receives exactly one signed `invoice.overdue`, also
 * after many sweeps and another restart.
 */
import type { Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf } from '../support/days.ts';
import { invoiceRequest } from '../support/fixtures.ts';
import {
  NpmStartHarness,
  postCreated as post,
  type RunningService,
  startReceiver,
} from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';

let harness: NpmStartHarness | undefined;
let receiver: Server | undefined;

/**
 * `npm start` with the sweep every 500 ms (each sweep queries the wake index's 16 shards: more often only keeps
 * DynamoDB Local busy), "today" moved `clockOffsetMs` on.
 */
function startService(clockOffsetMs: number): Promise<RunningService> {
  harness!.extraEnv = { OVERDUE_SWEEP_MS: '500', CLOCK_OFFSET_MS: String(clockOffsetMs) };
  return harness!.start();
}

/** SIGINT to npm alone, which passes it on: the service stops its DynamoDB Local itself. npm's exit code. */
const stop = async () => (await harness!.stop('SIGINT', { to: 'npm' })).code;

afterAll(async () => {
  receiver?.close();
  await harness?.cleanUp();
});

const DAY_MS = 86_400_000;

async function getInvoice(service: RunningService, referenceCode: string): Promise<Record<string, any>> {
  const response = await fetch(`${service.baseUrl}/invoices/${referenceCode}`, {
    headers: { authorization: `Bearer ${service.secretKey}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, any> }).data;
}

describe('invoice.overdue through npm start', { timeout: 300_000 }, () => {
  it('notifies once, on the first overdue day as CLOCK_OFFSET_MS moves today, however many sweeps and restarts', async () => {
    harness = await NpmStartHarness.create('overdue');
    const started = await startReceiver((_request, response) => void response.writeHead(204).end());
    receiver = started.server;
    const { received, url: receiverUrl } = started;

    const first = await startService(0);
    const companyId = harness.companyId();
    const endpoint = await harness.cli('webhook:set', '--company-id', String(companyId), '--url', receiverUrl);
    const verifier = new Webhook(endpoint.secret as string);
    const invoice = await post(
      first,
      '/invoices',
      invoiceRequest('ada.overdue@example.com', {
        due_date: dayOf(5).monthFirst,
        items: [{ item: 'Consulting', description: 'Advice', unit_cost: '1,500.00', quantity: '2' }],
      }),
    );
    const code = invoice.data.reference_code as string;
    const overdueEvents = () =>
      received
        .map(
          (request) =>
            verifier.verify(request.body, {
              'webhook-id': String(request.headers['webhook-id']),
              'webhook-timestamp': String(request.headers['webhook-timestamp']),
              'webhook-signature': String(request.headers['webhook-signature']),
            }) as Record<string, any>,
        )
        .filter((event) => event.type === 'invoice.overdue' && event.data.reference_code === code);
    await until('invoice.created delivered', () => received.length >= 1);
    await new Promise((r) => setTimeout(r, 2_500)); // five sweeps
    expect((await getInvoice(first, code)).payment_status).toBe('unpaid');
    expect(overdueEvents()).toEqual([]);
    expect(await stop()).toBe(0);

    // A week later, by the clock offset: overdue as shown, and notified once.
    const second = await startService(7 * DAY_MS);
    const shown = await getInvoice(second, code);
    expect(shown.payment_status).toBe('overdue');
    await until('invoice.overdue delivered', () => overdueEvents().length >= 1);
    await new Promise((r) => setTimeout(r, 2_500)); // five more sweeps
    expect(overdueEvents()).toHaveLength(1);
    const [event] = overdueEvents();
    expect(event).toMatchObject({ company_id: String(companyId) });
    expect(event!.data).toEqual(shown);
    expect(event!.data.client).toMatchObject({ email: 'ada.overdue@example.com' });
    expect(await stop()).toBe(0);

    await startService(7 * DAY_MS);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(new Set(overdueEvents().map((e) => e.id)).size).toBe(1);
    expect(await stop()).toBe(0);
  });
});
