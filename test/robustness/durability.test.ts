/**
 * Durability through the real local runtime (`npm start`, DynamoDB Local persisted under DATA_DIR):
 * data written over HTTP survives a clean stop (SIGINT to the whole process group, as Ctrl-C sends)
 * and a restart; a hard kill (SIGKILL of npm, tsx, node and Java — the whole process group) in the
 * middle of a burst of payments loses no acknowledged payment, leaves no partial write, and keyed
 * retries after the restart settle every in-flight payment exactly once.
 *
 * DynamoDB Local acknowledges a transaction a few milliseconds before it is on disk; the local runtime's
 * durability barrier (infra/local/durability-barrier.ts) holds every answer until the write is durable,
 * so every acknowledged payment must survive (kill-in-flight.test.ts kills right after one, with e-mails and
 * reminders in flight too).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf } from '../support/days.ts';
import { invoiceRequest } from '../support/fixtures.ts';
import { NpmStartHarness, post, type RunningService, todaysPayments } from '../support/npm-start-harness.ts';
import { kobo, STRESS, scale, sleep } from './helpers.ts';

let harness: NpmStartHarness;

/** SIGINT to the whole process group (what Ctrl-C in a terminal does): nothing of it may be left. */
async function stopWithSigint(running: RunningService) {
  expect((await harness.stop()).groupGone, `processes left after SIGINT:\n${running.output()}`).toBe(true);
}

/** Direct reads of DynamoDB Local, to tell a lost item from a missing index entry. */
async function diagnose(port: number, lost: Record<string, any>[], reference: string) {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBDocumentClient, GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const get = async (PK: string, SK: string) =>
    (await client.send(new GetCommand({ TableName: 'invoicing-local', Key: { PK, SK }, ConsistentRead: true }))).Item;
  const companyId = lost[0]!.company_id;
  const result = {
    header: await get(`INVOICE#${reference}`, 'HEADER'),
    sequence: await get(`ACCOUNT#${companyId}`, 'SEQ#payment'),
    payments: await Promise.all(lost.map((p) => get(`PAYMENT#${companyId}#${p.id}`, 'PAYMENT'))),
  };
  client.destroy();
  return result;
}

afterAll(async () => {
  await harness?.cleanUp();
});

describe('durability of the local runtime (npm start)', { timeout: STRESS ? 600_000 : 240_000 }, () => {
  let reference = '';
  const acknowledgedBeforeStop: Record<string, any>[] = [];
  let session: RunningService | undefined;

  it('data written over HTTP survives SIGINT and a restart, idempotency records included', async () => {
    harness = await NpmStartHarness.create('durability');
    const first = await harness.start();
    const invoice = await post(
      first,
      '/invoices',
      invoiceRequest('durable@example.com', {
        items: [{ item: 'Durable goods', description: 'x', unit_cost: '1,000,000.00', quantity: '1' }],
      }),
    );
    expect(invoice.status, invoice.text).toBe(201);
    reference = invoice.json().data.reference_code;
    for (let i = 0; i < 3; i++) {
      const paid = await post(
        first,
        '/payments',
        { reference_code: reference, date: dayOf(0).monthFirst, amount: '100.00', channel: 'Cash' },
        `before-stop-${i}`,
      );
      expect(paid.status, paid.text).toBe(201);
      acknowledgedBeforeStop.push(paid.json().data);
    }
    await stopWithSigint(first);

    const second = await harness.start();
    expect(second.secretKey).toBe(first.secretKey);
    const demo = JSON.parse(readFileSync(join(harness.dataDir, 'demo-account.json'), 'utf8')) as { secret_key: string };
    expect(demo.secret_key).toBe(first.secretKey);
    const payments = await todaysPayments(second);
    expect(payments.map((p) => p.id).sort()).toEqual(acknowledgedBeforeStop.map((p) => p.id).sort());
    expect(payments[0]!.invoice.amount_paid).toBe('300.00');
    // The idempotency record survived too: the retry is a replay, not a second payment.
    const replay = await post(
      second,
      '/payments',
      { reference_code: reference, date: dayOf(0).monthFirst, amount: '100.00', channel: 'Cash' },
      'before-stop-0',
    );
    expect(replay.status).toBe(201);
    expect(replay.replayed).toBe('true');
    expect(replay.json().data.id).toBe(acknowledgedBeforeStop[0]!.id);
    session = second; // the next test kills this one
  });

  it('SIGKILL of the whole runtime mid-burst loses no acknowledged payment; keyed retries settle the rest exactly once', async () => {
    expect(session, 'needs the runtime restarted by the previous test').toBeDefined();
    const running = session!;
    const CLIENTS = scale(6, 16);
    const KILL_AFTER = scale(12, 60);
    interface Sent {
      key: string;
      body: Record<string, unknown>;
      acknowledged?: Record<string, any>;
      acknowledgedAt?: number;
    }
    const sent: Sent[] = [];
    let acknowledgedCount = 0;
    let killed = false;
    let killedAt = 0;
    const kill = () => {
      if (killed) return;
      killed = true;
      killedAt = performance.now();
      harness.kill(running); // npm, node and Java at once: no shutdown code runs
    };

    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; !killed; n++) {
        const entry: Sent = {
          key: `burst-${client}-${n}`,
          body: {
            reference_code: reference,
            date: dayOf(0).monthFirst,
            amount: `${1 + ((client * 7 + n) % 9)}.${String(n % 100).padStart(2, '0')}`,
            channel: 'POS',
          },
        };
        sent.push(entry);
        try {
          const result = await post(running, '/payments', entry.body, entry.key);
          if (result.status === 201) {
            entry.acknowledged = result.json().data;
            entry.acknowledgedAt = performance.now();
            if (++acknowledgedCount >= KILL_AFTER) kill();
          }
        } catch {
          // The connection died with the runtime: this payment was not acknowledged.
          return;
        }
      }
    });
    await Promise.race([Promise.all(clients), sleep(90_000).then(kill)]);
    kill();
    await Promise.all(clients);
    expect(await harness.gone(running), 'processes survived SIGKILL of the group').toBe(true);
    const acknowledged = sent.filter((s) => s.acknowledged);
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);

    const restarted = await harness.start();
    try {
      // Nothing acknowledged is lost, nothing is duplicated, no partial write is visible.
      let payments = await todaysPayments(restarted);
      const ids = payments.map((p) => p.id as number);
      expect(new Set(ids).size).toBe(ids.length);
      const lost = acknowledged.filter((entry) => !ids.includes(entry.acknowledged!.id));
      if (lost.length > 0) {
        const detail = lost.map(
          (e) =>
            `payment ${e.acknowledged!.id} acknowledged ${Math.round(killedAt - e.acknowledgedAt!)} ms before the kill`,
        );
        console.warn(
          `${lost.length} acknowledged transaction(s) lost: ${detail.join('; ')}`,
          JSON.stringify(
            await diagnose(
              harness.dynamodbPort,
              lost.map((e) => e.acknowledged!),
              reference,
            ),
          ),
        );
      }
      expect(
        lost.map((e) => e.acknowledged!.id),
        'acknowledged payments lost',
      ).toEqual([]);
      const paidSum = (list: Record<string, any>[]) => list.reduce((sum, p) => sum + kobo(p.amount), 0);
      expect(kobo(payments[0]!.invoice.amount_paid)).toBe(paidSum(payments));

      // Requests cut off by the kill: the keyed retry either replays what committed or records it now.
      for (const entry of sent.filter((s) => !s.acknowledged)) {
        const retry = await post(restarted, '/payments', entry.body, entry.key);
        expect(retry.status, retry.text).toBe(201);
      }
      for (const entry of acknowledged) {
        const retry = await post(restarted, '/payments', entry.body, entry.key);
        expect(retry.status, retry.text).toBe(201);
        expect(retry.replayed).toBe('true');
        expect(retry.json().data.id).toBe(entry.acknowledged!.id);
      }
      payments = await todaysPayments(restarted);
      // Every request of the burst is now exactly one payment; plus the three from before.
      expect(payments).toHaveLength(sent.length + acknowledgedBeforeStop.length);
      expect(new Set(payments.map((p) => p.id)).size).toBe(payments.length);
      expect(kobo(payments[0]!.invoice.amount_paid)).toBe(paidSum(payments));
    } finally {
      await stopWithSigint(restarted);
    }
  });
});
