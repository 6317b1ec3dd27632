/**
 * Jepsen-style history check (docs/api.md "Add payment", "Idempotency"). Many concurrent clients pay several invoices of one account
 * at once through the real handlers and DynamoDB Local: random amounts (some over the balance), some
 * with an Idempotency-Key, some of those retried (also concurrently, and with a different body).
 * Every request and response is recorded; afterwards the recorded history is checked against the
 * payment history (paged with cursors) and the database.
 */
import { describe, expect, it } from 'vitest';
import { type CallResult, call, createInvoice, newAccount } from '../support/api.ts';
import {
  expectErrorEnvelope,
  fullHistory,
  idempotencyRecordExists,
  invoiceHeader,
  kobo,
  money,
  STRESS,
  scale,
  sleep,
} from './helpers.ts';

interface PaymentRequest {
  reference_code: string;
  date: string;
  amount: string | number;
  channel: string;
}

interface Recorded {
  client: number;
  /** One logical operation of a client (its retries share it). */
  op: string;
  key: string | undefined;
  request: PaymentRequest;
  amountKobo: number;
  result: CallResult;
  replayed: boolean;
}

const CHANNELS = ['Cash', 'BankTransfer', 'POS', 'Cheque'];

/** Deterministic PRNG (mulberry32) so a failing run can be reproduced with its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** MM/DD/YYYY of `daysAgo` days before today in Africa/Lagos. */
function dateDaysAgo(daysAgo: number): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'Africa/Lagos',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date());
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const date = new Date(Date.UTC(get('year'), get('month') - 1, get('day') - daysAgo));
  return `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`;
}

/** The amount in one of the accepted request spellings. */
function spell(amountKobo: number, pick: number): string | number {
  const plain = money(amountKobo);
  if (pick < 0.25 && amountKobo % 100 === 0) return amountKobo / 100;
  if (pick < 0.5)
    return Number(plain)
      .toLocaleString('en-US', { minimumFractionDigits: 2 })
      .replace(/\u00a0/g, '');
  return plain;
}

describe('concurrent payments: history check', () => {
  const CLIENTS = scale(10, 32);
  const OPS = scale(8, 40);
  const INVOICES = scale(4, 8);
  const seed = Number(process.env.SEED ?? Date.now() % 1_000_000);

  it(`every acknowledged payment exactly once, amount_paid = Σ payments ≤ total, replays identical (seed ${seed})`, {
    timeout: STRESS ? 600_000 : 60_000,
  }, async () => {
    const random = rng(seed);
    const { key, account } = await newAccount();
    const invoices = await Promise.all(
      Array.from({ length: INVOICES }, (_, i) =>
        createInvoice(key, {
          items: [
            {
              item: `Service ${i}`,
              description: 'Work',
              unit_cost: money(20_000 + Math.floor(random() * 80_000)),
              quantity: '1',
            },
          ],
        }),
      ),
    );
    const totals = new Map<string, number>(
      invoices.map((invoice) => [invoice.reference_code as string, kobo(invoice.total)]),
    );
    const refs = [...totals.keys()];
    const log: Recorded[] = [];

    const send = async (
      client: number,
      op: string,
      request: PaymentRequest,
      amountKobo: number,
      idempotencyKey: string | undefined,
    ) => {
      const result = await call('add-payment', { key, body: request, ...(idempotencyKey ? { idempotencyKey } : {}) });
      log.push({
        client,
        op,
        key: idempotencyKey,
        request,
        amountKobo,
        result,
        replayed: result.headers['idempotent-replayed'] === 'true',
      });
      return result;
    };
    const transient = (r: CallResult) =>
      r.status === 503 || (r.status === 409 && r.body?.code === 'idempotency_request_in_progress');
    /** A careful client: retries a transient answer with the same key until it gets an outcome. */
    const sendUntilOutcome = async (
      client: number,
      op: string,
      request: PaymentRequest,
      amountKobo: number,
      idempotencyKey: string,
    ) => {
      let result = await send(client, op, request, amountKobo, idempotencyKey);
      for (let tries = 0; tries < 30 && transient(result); tries++) {
        await sleep(5 + random() * 40);
        result = await send(client, op, request, amountKobo, idempotencyKey);
      }
      return result;
    };

    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; n < OPS; n++) {
        const op = `c${client}-o${n}`;
        const ref = refs[Math.floor(random() * refs.length)]!;
        const total = totals.get(ref)!;
        const over = random() < 0.12;
        const amountKobo = over ? total + 1 + Math.floor(random() * total) : 1 + Math.floor(random() * (total / 8));
        const request: PaymentRequest = {
          reference_code: ref,
          date: dateDaysAgo(Math.floor(random() * 5)),
          amount: spell(amountKobo, random()),
          channel: CHANNELS[Math.floor(random() * CHANNELS.length)]!,
        };
        const mode = random();
        if (mode < 0.35) {
          await send(client, op, request, amountKobo, undefined);
        } else if (mode < 0.6) {
          await sendUntilOutcome(client, op, request, amountKobo, `key-${seed}-${op}`);
        } else if (mode < 0.8) {
          // The same request sent twice at once, then retried once more later.
          const idempotencyKey = `key-${seed}-${op}`;
          await Promise.all([
            sendUntilOutcome(client, op, request, amountKobo, idempotencyKey),
            sendUntilOutcome(client, op, request, amountKobo, idempotencyKey),
          ]);
          await sendUntilOutcome(client, op, request, amountKobo, idempotencyKey);
        } else {
          // Same key, another amount: at most one of the two bodies may ever be recorded.
          const idempotencyKey = `key-${seed}-${op}`;
          const otherKobo = amountKobo + 100;
          const other = { ...request, amount: money(otherKobo) };
          await Promise.all([
            sendUntilOutcome(client, op, request, amountKobo, idempotencyKey),
            sendUntilOutcome(client, op, other, otherKobo, idempotencyKey),
          ]);
        }
      }
    });
    await Promise.all(clients);

    // ---- What the clients saw --------------------------------------------------------------------
    const statuses = new Map<string, number>();
    for (const entry of log) {
      const label = entry.result.status === 201 ? '201' : `${entry.result.status} ${entry.result.body?.code}`;
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
      if (entry.result.status === 201) {
        const data = entry.result.body.data;
        expect(entry.result.body.status).toBe('success');
        expect(data.reference_code).toBe(entry.request.reference_code);
        expect(kobo(data.amount)).toBe(entry.amountKobo);
        expect(kobo(data.invoice.amount_paid)).toBeLessThanOrEqual(totals.get(data.reference_code)!);
      } else {
        // Only these outcomes are possible here: no 400, no 404, no 500.
        expectErrorEnvelope(entry.result);
        expect([
          'amount_exceeds_balance',
          'invoice_already_paid',
          'idempotency_request_in_progress',
          'idempotency_key_reused',
          'service_unavailable',
        ]).toContain(entry.result.body.code);
        if (entry.result.body.code === 'idempotency_request_in_progress')
          expect(Number(entry.result.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        if (entry.result.body.code === 'idempotency_key_reused') expect(entry.key).toBeDefined();
      }
    }

    // Every acknowledged payment id, with the (byte-identical) body that acknowledged it.
    const acknowledged = new Map<number, { body: string; op: string }>();
    for (const entry of log.filter((e) => e.result.status === 201)) {
      const id = entry.result.body.data.id as number;
      const seen = acknowledged.get(id);
      if (seen) {
        // The same payment acknowledged twice: only as a replay of the same operation, byte-identical.
        expect(seen.op).toBe(entry.op);
        expect(entry.result.rawBody).toBe(seen.body);
      } else {
        acknowledged.set(id, { body: entry.result.rawBody, op: entry.op });
      }
    }

    // Per Idempotency-Key: one original outcome at most; every replay is that outcome, byte for byte.
    const byKey = new Map<string, Recorded[]>();
    for (const entry of log) if (entry.key) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry]);
    let replays = 0;
    for (const [idempotencyKey, entries] of byKey) {
      const originals = entries.filter((e) => !e.replayed && !transientOrReused(e.result));
      expect(originals.length, idempotencyKey).toBeLessThanOrEqual(1);
      const original = originals[0];
      for (const entry of entries.filter((e) => e.replayed)) {
        replays++;
        expect(original, `replay without an original for ${idempotencyKey}`).toBeDefined();
        expect(entry.result.status).toBe(original!.result.status);
        expect(entry.result.rawBody).toBe(original!.result.rawBody);
        expect(JSON.stringify(entry.request)).toBe(JSON.stringify(original!.request));
      }
      for (const entry of entries.filter((e) => e.result.body?.code === 'idempotency_key_reused')) {
        expect(original, `422 without an original for ${idempotencyKey}`).toBeDefined();
        expect(entry.amountKobo).not.toBe(original!.amountKobo);
      }
      if (!original) {
        // Never got an outcome: then nothing may have been recorded for the key.
        expect(await idempotencyRecordExists(account.companyId, 'add-payment', idempotencyKey)).toBe(false);
      }
    }

    // ---- What the service recorded ---------------------------------------------------------------
    const { payments, pages } = await fullHistory(key, { period: '30', limit: scale(7, 50) });
    expect(pages.length).toBeGreaterThan(1);
    const historyIds = payments.map((p) => p.id as number);
    expect(new Set(historyIds).size, 'a payment appears twice in history').toBe(historyIds.length);
    // Exactly the acknowledged payments: nothing lost, nothing written by a 409/422/503.
    expect([...historyIds].sort((a, b) => a - b)).toEqual([...acknowledged.keys()].sort((a, b) => a - b));
    for (const payment of payments) {
      const ack = JSON.parse(acknowledged.get(payment.id)!.body).data;
      expect(payment.amount).toBe(ack.amount);
      expect(payment.reference_code).toBe(ack.reference_code);
      expect(payment.transaction_date).toBe(ack.transaction_date);
    }
    for (let i = 1; i < payments.length; i++) {
      expect(Number(payments[i - 1]!.transaction_date)).toBeGreaterThanOrEqual(Number(payments[i]!.transaction_date));
    }

    // Per invoice: the balances the 201s reported are exactly the running sums of one serial order of
    // that invoice's payments (each payment saw every earlier one: no lost update, no double count).
    // Amounts are positive, so sorting by the reported amount_paid recovers that order.
    for (const ref of refs) {
      const acks = [...acknowledged.values()]
        .map((a) => JSON.parse(a.body).data)
        .filter((d) => d.reference_code === ref);
      acks.sort((x, y) => kobo(x.invoice.amount_paid) - kobo(y.invoice.amount_paid));
      let paid = 0;
      for (const data of acks) {
        paid += kobo(data.amount);
        expect(kobo(data.invoice.amount_paid), `invoice state reported with payment ${data.id}`).toBe(paid);
        expect(kobo(data.invoice.amount_due)).toBe(totals.get(ref)! - paid);
      }
    }
    for (const ref of refs) {
      const header = (await invoiceHeader(ref))!;
      const sum = payments.filter((p) => p.reference_code === ref).reduce((s, p) => s + kobo(p.amount), 0);
      expect(Number(header.amount_paid), ref).toBe(sum);
      expect(sum).toBeLessThanOrEqual(totals.get(ref)!);
      expect(Number(header.amount_due)).toBe(totals.get(ref)! - sum);
      expect(header.payment_status).toBe(sum === 0 ? 'unpaid' : sum === totals.get(ref) ? 'paid' : 'partially_paid');
    }

    // The run exercised what it claims to.
    expect(acknowledged.size).toBeGreaterThan(5);
    expect(replays).toBeGreaterThan(0);
    expect(statuses.get('409 amount_exceeds_balance') ?? 0).toBeGreaterThan(0);
    console.info(
      `concurrency history (seed ${seed}): ${log.length} requests`,
      Object.fromEntries(statuses),
      `replays ${replays}`,
    );
  });
});

function transientOrReused(result: CallResult): boolean {
  return (
    result.status === 503 ||
    result.status === 422 ||
    (result.status === 409 && result.body?.code === 'idempotency_request_in_progress')
  );
}
