/**
 * docs/guarantees.md: nothing acknowledged is ever lost. `npm start` (DynamoDB Local included) is
 * killed with SIGKILL of its whole process group right after a payment was answered 201, while other
 * payments are in flight, KILLS times on the same DATA_DIR. After each restart every acknowledged payment
 * is there, every Idempotency-Key of the burst maps to exactly one payment id (the retry of an answered key
 * replays it; the retry of a cut-off key replays or records it once), and in the end every committed
 * payment's `payment.recorded` event reached the webhook receiver at least once.
 *
 * Without the local durability barrier (infra/local/durability-barrier.ts) this test loses payments:
 * DynamoDB Local acknowledges a transaction a few milliseconds before it is on disk.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { todayMonthFirst } from '../support/api.ts';
import { type RunningService, waitGroupGone } from '../support/local-runtime.ts';
import { INVOICE_TO_PAY, NpmStartHarness, post, startReceiver, todaysPayments } from '../support/npm-start-harness.ts';
import { kobo, scale } from './helpers.ts';

const KILLS = scale(20, 40);
const WRITERS = 8;
let harness: NpmStartHarness | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

async function historyIds(service: RunningService): Promise<{ ids: number[]; amountPaid: string; sum: number }> {
  const payments = await todaysPayments(service);
  return {
    ids: payments.map((payment) => payment.id as number),
    amountPaid: payments.at(-1)?.invoice.amount_paid ?? '0.00',
    sum: payments.reduce((total, payment) => total + kobo(payment.amount), 0),
  };
}

interface Sent {
  key: string;
  body: Record<string, unknown>;
  acknowledgedId?: number;
}

/** WRITERS concurrent payers; the group is SIGKILLed the moment the `killAfter`-th 201 of the round arrives. */
async function burstThenKill(service: RunningService, round: number, reference: string, killAfter: number) {
  const pgid = service.child.pid!;
  const sent: Sent[] = [];
  let acknowledged = 0;
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    process.kill(-pgid, 'SIGKILL'); // npm, node and Java at once: no shutdown code runs
  };
  const writers = Array.from({ length: WRITERS }, async (_, writer) => {
    for (let n = 0; !killed; n++) {
      const entry: Sent = {
        key: `kill-${round}-${writer}-${n}`,
        body: {
          reference_code: reference,
          date: todayMonthFirst(),
          amount: `${1 + writer}.${String(round).padStart(2, '0')}`,
          channel: 'POS',
        },
      };
      sent.push(entry);
      try {
        const answer = await post(service, '/payments', entry.body, entry.key);
        if (answer.status !== 201) continue;
        entry.acknowledgedId = answer.json().data.id;
        if (++acknowledged >= killAfter) kill();
      } catch {
        return; // the connection died with the runtime: not acknowledged
      }
    }
  });
  const watchdog = setTimeout(kill, 30_000);
  await Promise.all(writers);
  clearTimeout(watchdog);
  expect(await waitGroupGone(pgid, 10_000), 'processes survived SIGKILL of the group').toBe(true);
  return sent;
}

afterAll(async () => {
  receiver?.server.close();
  await harness?.cleanUp();
  if (harness) rmSync(harness.dataDir, { recursive: true, force: true });
});

describe('hard kills right after an acknowledgement (npm start)', { timeout: 900_000 }, () => {
  it(`${KILLS} kills: no acknowledged payment lost, no key with two payment ids, every committed event delivered`, async () => {
    const delivered = new Set<number>();
    receiver = await startReceiver((_request, response, webhook) => {
      if (webhook.type === 'payment.recorded') delivered.add(webhook.dataId as number);
      response.writeHead(200).end('ok');
    });
    const running = new NpmStartHarness(mkdtempSync(join(tmpdir(), 'invoicing-kills-')), await freePort());
    harness = running;
    let service = await running.start();
    await running.cli('webhook:set', '--company-id', String(running.companyId()), '--url', receiver.url);
    const invoice = await post(service, '/invoices', INVOICE_TO_PAY);
    expect(invoice.status, invoice.text).toBe(201);
    const reference = invoice.json().data.reference_code;

    const idsByKey = new Map<string, number>();
    const lost: string[] = [];
    for (let round = 0; round < KILLS; round++) {
      const sent = await burstThenKill(service, round, reference, 1 + (round % 4));
      service = await running.start();
      const { ids } = await historyIds(service);
      for (const entry of sent.filter((s) => s.acknowledgedId !== undefined))
        if (!ids.includes(entry.acknowledgedId!)) lost.push(`round ${round}: payment ${entry.acknowledgedId}`);
      // Every key of the burst, retried: one payment id per key, ever.
      for (const entry of sent) {
        const retry = await post(service, '/payments', entry.body, entry.key);
        expect(retry.status, retry.text).toBe(201);
        const id = retry.json().data.id as number;
        if (entry.acknowledgedId !== undefined)
          expect(id, `key ${entry.key} got a second payment id`).toBe(entry.acknowledgedId);
        expect(idsByKey.get(entry.key) ?? id).toBe(id);
        idsByKey.set(entry.key, id);
      }
    }
    expect(lost, 'acknowledged payments lost after a kill').toEqual([]);

    const { ids, amountPaid, sum } = await historyIds(service);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...idsByKey.values()].sort());
    expect(kobo(amountPaid)).toBe(sum);

    const deadline = Date.now() + 120_000;
    while (ids.some((id) => !delivered.has(id)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(
      ids.filter((id) => !delivered.has(id)),
      'committed payments whose event never arrived',
    ).toEqual([]);

    process.kill(-service.child.pid!, 'SIGINT');
    expect(await waitGroupGone(service.child.pid!, 30_000)).toBe(true);
  });
});
