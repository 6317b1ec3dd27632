/**
 * docs/getting-paid-online.md "Recording": one paid checkout is one payment, also across a crash. `npm start` (its
 * local Paystack server included) is killed with SIGKILL of its whole process group while signed `charge.success`
 * webhooks are being posted — each checkout's event COPIES times, WORKERS at a time — and the stored events are being
 * processed by the outbox (Paystack's verify made slow, so the events answered just before the kill are mid-way). The
 * local server's own deliveries of the same events are held (its `reorder` knob) and
 * released only after the restart on the same DATA_DIR, and every event is posted once more, as Paystack retries
 * whatever was not answered 200. Then every event answered 200 is still stored, each was processed, and every
 * checkout has exactly one payment, for exactly its invoice's total; payment history holds nothing else.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { invoiceRequest } from '../support/fixtures.ts';
import { paystackClient } from '../support/local-paystack.ts';
import { get, NpmStartHarness, post, type RunningService, todaysPayments } from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';
import { kobo } from './helpers.ts';
import { deliver, deliverUntilKilled, demoSecretKey, paystackOf, processedEvents } from './paystack-kill-support.ts';

const CHECKOUTS = 8;
const COPIES = 3;
const WORKERS = 4;
const VERIFY_MS = 400;

interface Checkout {
  invoice: string;
  total: string;
  reference: string;
  body: string;
}

let harness: NpmStartHarness | undefined;

afterAll(async () => {
  await harness?.cleanUp();
});

/** An invoice with its own total, its pay button pressed and the checkout paid with the success card. */
async function paidCheckout(service: RunningService, index: number, secretKey: string): Promise<Checkout> {
  const created = await post(service, '/invoices', {
    ...invoiceRequest(`payer-${index}@example.com`, {
      items: [{ item: 'Goods', description: 'x', unit_cost: `${1_000 + index * 137}.${10 + index}`, quantity: '1' }],
    }),
    fee_bearer: index % 2 === 0 ? 'account' : 'client',
  });
  expect(created.status, created.text).toBe(201);
  const { reference_code: invoice, total, hosted_url: hostedUrl } = created.json().data;
  const pressed = await fetch(`${service.baseUrl}/i/${new URL(hostedUrl).pathname.split('/')[2]}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  expect(pressed.status, await pressed.text()).toBe(303);
  const paid = await fetch(pressed.headers.get('location')!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'choice=success_card',
    redirect: 'manual',
  });
  await paid.text();
  const reference = new URL(paid.headers.get('location')!).searchParams.get('reference')!;
  const verified = await paystackClient(() => paystackOf(service).url, secretKey).get(
    `/transaction/verify/${reference}`,
  );
  expect(verified.body.data.status).toBe('success');
  return { invoice, total, reference, body: JSON.stringify({ event: 'charge.success', data: verified.body.data }) };
}

async function amountDue(service: RunningService, invoice: string): Promise<string> {
  const shown = await get(service, `/invoices/${invoice}`);
  expect(shown.status, shown.text).toBe(200);
  return shown.json().data.amount_due;
}

describe('SIGKILL of npm start with Paystack webhooks in flight', { timeout: 300_000 }, () => {
  it('every paid checkout ends with exactly one payment of its exact amount', async () => {
    harness = await NpmStartHarness.create('paystack-kill');
    harness.extraEnv = { PAYSTACK_PORT: '0' };
    let service = await harness.start();
    const secretKey = demoSecretKey(harness.dataDir);
    const local = paystackClient(() => paystackOf(service).url, secretKey);
    const held = await local.post('/_local/webhook-knobs', { reorder: { count: 1_000, order: 'shuffle' } });
    expect(held.status).toBe(200);

    const checkouts: Checkout[] = [];
    for (let index = 0; index < CHECKOUTS; index++) checkouts.push(await paidCheckout(service, index, secretKey));
    // Each verify takes VERIFY_MS: events answered 200 in the last VERIFY_MS before the kill are mid-processing.
    expect((await local.post('/_local/api-mode', { mode: 'slow', delay_ms: VERIFY_MS })).status).toBe(200);
    const acknowledged = await deliverUntilKilled(
      checkouts.map((checkout) => checkout.body),
      { harness, service, secretKey, copies: COPIES, workers: WORKERS, killAfter: CHECKOUTS },
    );
    expect(acknowledged.length, 'the kill came after webhooks were stored').toBeGreaterThanOrEqual(CHECKOUTS);

    service = await harness.start();
    expect((await local.post('/_local/api-mode', { mode: 'up' })).status).toBe(200);
    expect((await local.post('/_local/webhooks/release')).body.data.released).toBe(CHECKOUTS);
    await Promise.all(checkouts.map((checkout) => deliver(service, checkout.body, secretKey)));
    await until('the local server delivered every held event', async () =>
      ((await local.get('/_local/deliveries')).body.data as { status: string }[]).every(
        (d) => d.status === 'delivered',
      ),
    );
    const events = await processedEvents(harness!, acknowledged);
    const recorded = events.filter((event) => event.state === 'recorded');
    expect(recorded.map((event) => event.reference).sort()).toEqual(checkouts.map((c) => c.reference).sort());
    for (const checkout of checkouts) {
      const shown = await get(service, `/payments/${checkout.invoice}`);
      expect(shown.status, shown.text).toBe(200);
      const latest = shown.json().data;
      expect([latest.referrer, latest.amount, latest.invoice.payments_count], checkout.invoice).toEqual([
        checkout.reference,
        checkout.total,
        1,
      ]);
      expect(latest.invoice.amount_paid, checkout.invoice).toBe(checkout.total);
      expect(await amountDue(service, checkout.invoice), checkout.invoice).toBe('0.00');
    }
    const history = await todaysPayments(service);
    expect(history.map((payment) => payment.referrer).sort()).toEqual(checkouts.map((c) => c.reference).sort());
    expect(history.map((payment) => payment.id).sort()).toEqual(recorded.map((event) => event.payment_id).sort());
    const credited = history.reduce((sum, payment) => sum + kobo(payment.amount), 0);
    expect(credited).toBe(checkouts.reduce((sum, checkout) => sum + kobo(checkout.total), 0));
  });
});
