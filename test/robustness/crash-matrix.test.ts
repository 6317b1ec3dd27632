/**
 * Issue 17 §2, the crash matrix of `npm start` (docs/guarantees.md "Crash matrix"). Each case kills a part of
 * the running service at one moment, restarts `npm start` on the same DATA_DIR with no manual step, and checks:
 * no acknowledged payment lost, one payment id per Idempotency-Key, every committed payment's event delivered.
 * The cases run one after another on one DATA_DIR, each on its own invoice and keys, each starting from the service
 * the previous one restarted (a restart is most of a case's cost). SIGKILL of the whole group right after an
 * acknowledgement, with e-mails and reminders in flight too, is kill-in-flight.test.ts.
 */
import { mkdirSync, watch } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf } from '../support/days.ts';
import { INVOICE_TO_PAY } from '../support/fixtures.ts';
import {
  NpmStartHarness,
  post,
  postAsTold,
  type ReceivedWebhook,
  type RunningService,
  runtimeProcesses,
  startReceiver,
  todaysPayments,
} from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';

let harness: NpmStartHarness | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
type Answer = NonNullable<Parameters<typeof startReceiver>[0]>;
/** How the receiver answers the current case's deliveries (default 200). */
let answer: Answer = (_request, response) => void response.writeHead(200).end('ok');
let running: RunningService | undefined;
let caseNumber = 0;

interface Sent {
  key: string;
  body: Record<string, unknown>;
  acknowledgedId?: number;
}

/**
 * The next case: the one DATA_DIR's `npm start` (started, with a webhook endpoint pointing at the receiver, by the
 * first case; after that the one the previous case restarted), the receiver answering as `caseAnswer` says, and an
 * invoice of the case's own to pay.
 */
async function setUp(caseAnswer?: Answer) {
  answer = caseAnswer ?? ((_request, response) => void response.writeHead(200).end('ok'));
  if (!harness || !receiver || !running) {
    harness = await NpmStartHarness.create('crash');
    receiver = await startReceiver((request, response, webhook) => answer(request, response, webhook));
    running = await harness.start();
    await harness.cli('webhook:set', '--company-id', String(harness.companyId()), '--url', receiver.url);
  }
  const invoice = await post(running, '/invoices', INVOICE_TO_PAY);
  expect(invoice.status, invoice.text).toBe(201);
  caseNumber++;
  return { harness, receiver, service: running, reference: invoice.json().data.reference_code as string };
}

const paymentBody = (reference: string, cents: number) => ({
  reference_code: reference,
  date: dayOf(0).monthFirst,
  amount: `1.${String(cents % 100).padStart(2, '0')}`,
  channel: 'Cash',
});

/** Eight concurrent payers; `kill` runs the moment the third 201 arrives. */
async function payUntilKilled(service: RunningService, reference: string, kill: () => void): Promise<Sent[]> {
  const sent: Sent[] = [];
  let acknowledged = 0;
  let killed = false;
  const writers = Array.from({ length: 8 }, async (_, writer) => {
    for (let n = 0; !killed; n++) {
      const entry: Sent = { key: `crash-${caseNumber}-${writer}-${n}`, body: paymentBody(reference, writer * 10 + n) };
      sent.push(entry);
      try {
        const answer = await post(service, '/payments', entry.body, entry.key);
        if (answer.status !== 201) continue;
        entry.acknowledgedId = answer.json().data.id;
        if (++acknowledged === 3) {
          killed = true;
          kill();
        }
      } catch {
        return; // the connection died with the server
      }
    }
  });
  await Promise.all(writers);
  return sent;
}

/** Sequential keyed payments (the webhook cases), until `count` or until the service is killed. */
async function pay(service: RunningService, reference: string, count: number): Promise<Sent[]> {
  const sent: Sent[] = [];
  for (let n = 0; n < count; n++) {
    const entry: Sent = { key: `seq-${caseNumber}-${n}`, body: paymentBody(reference, n) };
    sent.push(entry);
    try {
      const answer = await post(service, '/payments', entry.body, entry.key);
      expect(answer.status, answer.text).toBe(201);
      entry.acknowledgedId = answer.json().data.id;
    } catch (error) {
      if ((error as Error).name === 'AssertionError') throw error;
      break; // the connection died with the service
    }
  }
  return sent;
}

/** The case invoice's payments of today's history. */
async function paymentsOf(service: RunningService, reference: string) {
  return (await todaysPayments(service)).filter((payment) => payment.invoice.reference_code === reference);
}

/**
 * After the restart: nothing acknowledged lost, one id per key, every committed payment's event delivered. The
 * restarted service stays up for the next case.
 */
async function expectSettled(service: RunningService, reference: string, sent: Sent[], received: ReceivedWebhook[]) {
  running = service;
  const before = (await paymentsOf(service, reference)).map((p) => p.id as number);
  const lost = sent.filter((s) => s.acknowledgedId !== undefined && !before.includes(s.acknowledgedId));
  expect(
    lost.map((s) => s.acknowledgedId),
    'acknowledged payments lost',
  ).toEqual([]);
  const idsByKey = new Map<string, number>();
  for (const entry of sent) {
    const retry = await postAsTold(service, '/payments', entry.body, entry.key);
    expect(retry.status, `${retry.text}\nservice log (end):\n${service.output().slice(-4_000)}`).toBe(201);
    const id = retry.json().data.id as number;
    if (entry.acknowledgedId !== undefined)
      expect(id, `${entry.key} got a second payment id`).toBe(entry.acknowledgedId);
    idsByKey.set(entry.key, id);
  }
  const payments = await paymentsOf(service, reference);
  expect(payments.map((p) => p.id).sort()).toEqual([...idsByKey.values()].sort());
  const delivered = () => new Set(received.filter((r) => r.type === 'payment.recorded').map((r) => r.dataId));
  await until('every payment.recorded event', () => payments.every((p) => delivered().has(p.id)), 90_000);
}

afterAll(async () => {
  receiver?.server.close();
  await harness?.cleanUp();
});

describe('crash matrix of npm start', { timeout: 240_000 }, () => {
  it('SIGKILL of DynamoDB Local (Java) alone right after a 201: npm start stops; the restart loses nothing', async () => {
    const { harness, receiver, service, reference } = await setUp();
    const { java } = runtimeProcesses(service.child.pid!);
    const sent = await payUntilKilled(service, reference, () => process.kill(java, 'SIGKILL'));
    await until('npm to exit', () => service.child.exitCode !== null || service.child.signalCode !== null, 30_000);
    const exit = service.child.exitCode;
    expect(exit).not.toBe(0); // the database died under it: not a clean stop
    expect(await harness.gone(service, 20_000)).toBe(true);
    const restarted = await harness.start();
    await expectSettled(restarted, reference, sent, receiver.received);
  });

  it('SIGKILL of the Node process alone right after a 201: the restart stops the orphaned Java, loses nothing', async () => {
    const { harness, receiver, service, reference } = await setUp();
    const { node, java } = runtimeProcesses(service.child.pid!);
    const sent = await payUntilKilled(service, reference, () => process.kill(node, 'SIGKILL'));
    await until('npm to exit', () => service.child.exitCode !== null || service.child.signalCode !== null, 20_000);
    expect(harness.groupAlive(service), 'Java outlives a SIGKILLed node').toBe(true);
    const restarted = await harness.start(); // no manual step: it stops the orphan itself
    expect(await harness.gone(service), 'the orphaned DynamoDB Local was stopped').toBe(true);
    expect(() => process.kill(java, 0), 'the orphaned Java still runs').toThrow();
    await expectSettled(restarted, reference, sent, receiver.received);
  });

  it('SIGKILL of everything while the stream poller moves its checkpoint: every event still delivered', async () => {
    const { harness, receiver, service, reference } = await setUp();
    const outbox = join(harness.dataDir, 'outbox');
    mkdirSync(outbox, { recursive: true });
    let killed = false;
    const watcher = watch(outbox, (_event, file) => {
      if (killed || !String(file).startsWith('stream-position')) return;
      killed = true;
      harness.kill(service);
    });
    const sent = await pay(service, reference, 4);
    await until('a checkpoint move', () => killed, 30_000);
    watcher.close();
    expect(await harness.gone(service)).toBe(true);
    const restarted = await harness.start();
    await expectSettled(restarted, reference, sent, receiver.received);
  });

  it('SIGKILL of everything during a webhook delivery: the same webhook-id is delivered after the restart', async () => {
    let service: RunningService | undefined;
    let cut: ReceivedWebhook | undefined;
    const { harness, receiver, reference, ...rest } = await setUp((_request, response, webhook) => {
      if (!cut && webhook.type === 'payment.recorded' && service) {
        cut = webhook;
        harness.kill(service); // the receiver got the request; the sender never sees an answer
        return void response.destroy();
      }
      response.writeHead(200).end('ok');
    });
    service = rest.service;
    const sent = await pay(service, reference, 3);
    await until('a delivery to cut', () => cut !== undefined, 30_000);
    expect(await harness.gone(service)).toBe(true);
    const restarted = await harness.start();
    await until(
      'the cut delivery again',
      () => receiver.received.filter((r) => r.webhookId === cut!.webhookId).length >= 2,
    );
    await expectSettled(restarted, reference, sent, receiver.received);
  });

  it("SIGKILL of everything right after a receiver's 500 (during the retry's bookkeeping): delivered after the restart", async () => {
    let service: RunningService | undefined;
    let failed: ReceivedWebhook | undefined;
    const { harness, receiver, reference, ...rest } = await setUp((_request, response, webhook) => {
      if (!failed && webhook.type === 'payment.recorded' && service) {
        failed = webhook;
        response.once('finish', () => harness.kill(service!));
        return void response.writeHead(500).end('not now');
      }
      response.writeHead(200).end('ok');
    });
    service = rest.service;
    const sent = await pay(service, reference, 3);
    await until('a failed delivery', () => failed !== undefined, 30_000);
    expect(await harness.gone(service)).toBe(true);
    const restarted = await harness.start();
    await until(
      'the failed event again',
      () => receiver.received.filter((r) => r.webhookId === failed!.webhookId).length >= 2,
    );
    await expectSettled(restarted, reference, sent, receiver.received);
  });
});
