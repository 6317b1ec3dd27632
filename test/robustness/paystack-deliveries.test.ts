/**
 * docs/getting-paid-online.md "Webhooks": DELIVERIES signed Paystack webhooks — 20 % of them duplicates of others —
 * arrive in random order, WORKERS at a time, and are stored (what the route does before it answers 200), and their stored events are processed
 * in another random order WORKERS at a time, as the outbox's worker would: every paid checkout is recorded exactly
 * once and the totals are exact to the kobo. Most of the unique deliveries are events Paystack also sends that record
 * nothing (charges of references this service never issued, `transfer.success`, `charge.dispute.create`): a real paid
 * checkout per payment is what this file's time goes on, so PAYMENTS of them are real.
 */
import { describe, expect, it } from 'vitest';
import { processProviderEvent, receiveProviderEvent } from '../../shared/services/provider-events.ts';
import { call } from '../support/api.ts';
import { connectedAccount, invoiceToPay, payInvoice, sign, usePaystack } from '../support/online-payments.ts';
import { scale } from './helpers.ts';

/** 10,000 deliveries under `npm run stress`; 2,000 in `npm test`, whose time budget the larger run would take a third of. */
const DELIVERIES = scale(2_000, 10_000);
const DUPLICATES = DELIVERIES / 5;
const PAYMENTS = scale(20, 100);
const WORKERS = 6;

const fixture = usePaystack();

/** Runs `task` over `items`, `workers` at a time. */
async function inParallel<T>(items: readonly T[], workers: number, task: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** Events that record nothing: a charge of a reference never issued, a transfer, a dispute. */
function otherEvent(index: number): string {
  const kinds = [
    { event: 'charge.success', data: { reference: `unknown_${index}`, amount: 100_000, currency: 'NGN' } },
    { event: 'transfer.success', data: { reference: `trf_${index}`, amount: 5_000 } },
    { event: 'charge.dispute.create', data: { id: index, transaction: { reference: `dsp_${index}` } } },
  ];
  return JSON.stringify(kinds[index % kinds.length]);
}

describe(`${DELIVERIES} Paystack deliveries, 20 % duplicates, random order`, () => {
  it('records each paid checkout exactly once, with exact totals', { timeout: 300_000 }, async () => {
    const connected = await connectedAccount(fixture);
    const references: string[] = [];
    const invoices: { reference_code: string; total: string; reference: string }[] = [];
    await inParallel(
      Array.from({ length: PAYMENTS }, (_, i) => i),
      8,
      async () => {
        const { invoice, token } = await invoiceToPay(connected.key, { fee_bearer: 'account' });
        // The reference from the redirect back: the checkout's own (the local server's latest is another's here).
        const { callback } = await payInvoice(fixture, connected.secretKey, token);
        references.push(new URL(callback!).searchParams.get('reference')!);
        invoices.push({ reference_code: invoice.reference_code, total: invoice.total, reference: references.at(-1)! });
      },
    );
    const paid: unknown[] = [];
    await inParallel(references, 8, async (reference) => {
      paid.push((await connected.paystack.get(`/transaction/verify/${reference}`)).body.data);
    });
    const unique = [
      ...paid.map((data) => JSON.stringify({ event: 'charge.success', data })),
      ...Array.from({ length: DELIVERIES - DUPLICATES - PAYMENTS }, (_, i) => otherEvent(i)),
    ];
    // Every paid checkout is delivered twice; the other duplicates are of any unique delivery.
    const duplicates = [
      ...unique.slice(0, PAYMENTS),
      ...Array.from({ length: DUPLICATES - PAYMENTS }, () => unique[Math.floor(Math.random() * unique.length)]!),
    ];
    const deliveries = shuffled([...unique, ...duplicates]);
    expect(deliveries).toHaveLength(DELIVERIES);

    const stored: string[] = [];
    await inParallel(deliveries, WORKERS, async (body) => {
      const bytes = Buffer.from(body);
      stored.push((await receiveProviderEvent(connected.hookId, bytes, sign(bytes, connected.secretKey))).eventId);
    });
    expect(new Set(stored).size).toBe(DELIVERIES);
    const paymentIds = new Map<number, number>();
    await inParallel(shuffled(stored), WORKERS, async (eventId) => {
      const processed = await processProviderEvent(eventId);
      expect(['recorded', 'duplicate', 'ignored']).toContain(processed.state);
      if (processed.state === 'recorded')
        paymentIds.set(processed.paymentId!, (paymentIds.get(processed.paymentId!) ?? 0) + 1);
    });
    // One payment per paid checkout, each recorded by exactly one delivery.
    expect(paymentIds.size).toBe(PAYMENTS);
    expect([...paymentIds.values()].every((count) => count === 1)).toBe(true);

    let paidKobo = 0;
    await inParallel(invoices, 8, async ({ reference_code, total }) => {
      const shown = (await call('get-invoice', { key: connected.key, pathParameters: { reference_code } })).body.data;
      expect(shown.amount_paid).toBe(total);
      expect(shown.amount_due).toBe('0.00');
      paidKobo += Math.round(Number(shown.amount_paid) * 100);
    });
    expect(paidKobo).toBe(PAYMENTS * 100_000);
    const history = await call('payment-history', { key: connected.key, body: { period: 'today', limit: 100 } });
    expect(history.status).toBe(200);
  });
});
