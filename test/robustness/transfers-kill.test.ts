/**
 * docs/bank-transfers.md "Exactly once": a transfer into a client's virtual account is recorded once, also across a
 * crash. `npm start` (its local Paystack server included) is killed with SIGKILL of its whole process group while
 * signed `charge.success` webhooks of transfers (channel `dedicated_nuban`) are posted — each COPIES times, WORKERS at
 * a time — and the stored ones are being recorded (Paystack's verify made slow, so the events answered just before the
 * kill are mid-way; a client's transfer settles more invoices than one transaction holds, so some stop between steps).
 * The local server's own deliveries are held and released after the restart on the same DATA_DIR, and every event is
 * posted once more. Then each transfer is recorded once, and for each client Σ paid on its invoices + its credit =
 * Σ its transfers, to the kobo, with no invoice paid more than its total.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { invoiceRequest } from '../support/fixtures.ts';
import { paystackClient } from '../support/local-paystack.ts';
import { get, NpmStartHarness, post, type RunningService } from '../support/npm-start-harness.ts';
import { kobo } from './helpers.ts';
import { deliver, deliverUntilKilled, demoSecretKey, paystackOf, processedEvents } from './paystack-kill-support.ts';

const CLIENTS = 2;
/** More than one transaction's eight: a transfer settling them all is recorded in steps. */
const INVOICES = 10;
/** The first pays every invoice (two steps: eight, then two and the rest as credit); the others are credit. */
const AMOUNTS_KOBO = [120_000, 12_345, 34_567];
const TRANSFERS = AMOUNTS_KOBO.length;
const COPIES = 2;
const WORKERS = 4;
const VERIFY_MS = 300;

interface Client {
  id: number;
  accountNumber: string;
  invoices: string[];
  transferredKobo: number;
}

let harness: NpmStartHarness | undefined;

afterAll(async () => {
  await harness?.cleanUp();
});

/** A client with INVOICES open invoices of ₦100.00 and up, and its virtual account. */
async function clientWithInvoices(service: RunningService, index: number): Promise<Client> {
  const invoices: string[] = [];
  let clientId: number | undefined;
  for (let i = 0; i < INVOICES; i++) {
    const items = [{ item: 'Goods', description: 'x', unit_cost: `${100 + i}.${10 + index}`, quantity: '1' }];
    const base = invoiceRequest(`transfers-${index}@example.com`, { items });
    const body = clientId === undefined ? base : { ...base, client: undefined, client_id: String(clientId) };
    const created = await post(service, '/invoices', body);
    expect(created.status, created.text).toBe(201);
    invoices.push(created.json().data.reference_code);
    clientId = Number(created.json().data.client_id);
  }
  const opened = await post(service, `/clients/${clientId}/virtual-account`, {});
  expect(opened.status, opened.text).toBe(200);
  return {
    id: clientId!,
    accountNumber: opened.json().data.virtual_account.account_number,
    invoices,
    transferredKobo: 0,
  };
}

/** TRANSFERS transfers into the client's account at the local server: their `charge.success` bodies. */
async function transfersInto(local: ReturnType<typeof paystackClient>, client: Client): Promise<string[]> {
  const references: string[] = [];
  for (let t = 0; t < TRANSFERS; t++) {
    const amount = AMOUNTS_KOBO[t]!;
    const sent = await local.post('/_local/transfers', {
      account_number: client.accountNumber,
      amount,
      sender_name: 'Chidi Okeke',
      sender_bank: 'Access Bank',
      sender_account_number: '0123456789',
      narration: 'deposit',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    references.push(sent.body.data.reference);
    client.transferredKobo += amount;
  }
  const transactions: { reference: string }[] = (await local.get('/_local/transactions')).body.data;
  return references.map((reference) =>
    JSON.stringify({ event: 'charge.success', data: transactions.find((tx) => tx.reference === reference) }),
  );
}

/** Σ paid on the client's invoices + its credit, in kobo; and that no invoice is paid more than its total. */
async function settledKobo(service: RunningService, client: Client): Promise<number> {
  let paid = 0;
  for (const invoice of client.invoices) {
    const shown = (await get(service, `/invoices/${invoice}`)).json().data;
    expect(kobo(shown.amount_paid), `${invoice} overpaid`).toBeLessThanOrEqual(kobo(shown.total));
    paid += kobo(shown.amount_paid);
  }
  const credit = (await get(service, `/clients/${client.id}`)).json().data.credit_balance;
  return paid + kobo(credit);
}

describe('SIGKILL of npm start with transfers into virtual accounts in flight', { timeout: 300_000 }, () => {
  it('each transfer is recorded once: Σ paid + credit = Σ transferred per client, to the kobo', async () => {
    harness = await NpmStartHarness.create('transfers-kill');
    harness.extraEnv = { PAYSTACK_PORT: '0' };
    let service = await harness.start();
    const secretKey = demoSecretKey(harness.dataDir);
    const local = paystackClient(() => paystackOf(service).url, secretKey);
    expect((await local.post('/_local/webhook-knobs', { reorder: { count: 1_000, order: 'shuffle' } })).status).toBe(
      200,
    );
    const clients: Client[] = [];
    const bodies: string[] = [];
    for (let index = 0; index < CLIENTS; index++) {
      const client = await clientWithInvoices(service, index);
      clients.push(client);
      bodies.push(...(await transfersInto(local, client)));
    }
    expect((await local.post('/_local/api-mode', { mode: 'slow', delay_ms: VERIFY_MS })).status).toBe(200);
    const killAfter = CLIENTS * TRANSFERS;
    const acknowledged = await deliverUntilKilled(bodies, {
      harness,
      service,
      secretKey,
      copies: COPIES,
      workers: WORKERS,
      killAfter,
    });
    expect(acknowledged.length, 'the kill came after webhooks were stored').toBeGreaterThanOrEqual(killAfter);

    service = await harness.start();
    expect((await local.post('/_local/api-mode', { mode: 'up' })).status).toBe(200);
    expect((await local.post('/_local/webhooks/release')).body.data.released).toBe(bodies.length);
    await Promise.all(bodies.map((body) => deliver(service, body, secretKey)));
    const events = await processedEvents(harness!, acknowledged);
    // Two processings that each committed a step of one transfer both say `recorded`: the sums below say it is once.
    const recorded = new Set(events.filter((event) => event.state === 'recorded').map((event) => event.reference));
    expect([...recorded].sort()).toEqual(bodies.map((body) => JSON.parse(body).data.reference).sort());
    for (const client of clients) expect(await settledKobo(service, client)).toBe(client.transferredKobo);
  });
});
