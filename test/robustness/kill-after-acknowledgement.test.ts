/**
 * SPEC §10 (revision 3): nothing acknowledged is ever lost. `npm start` (DynamoDB Local included) is
 * killed with SIGKILL of its whole process group right after a payment was answered 201, while other
 * payments are in flight, KILLS times on the same DATA_DIR. After each restart every acknowledged payment
 * is there, every Idempotency-Key of the burst maps to exactly one payment id (the retry of an answered key
 * replays it; the retry of a cut-off key replays or records it once), and in the end every committed
 * payment's `payment.recorded` event reached the webhook receiver at least once.
 *
 * Without the local durability barrier (infra/local/durability-barrier.ts) this test loses payments:
 * DynamoDB Local acknowledges a transaction a few milliseconds before it is on disk.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { todayMonthFirst } from '../support/api.ts';
import {
  groupAlive,
  npmStartEnv,
  type RunningService,
  waitGroupGone,
  waitUntilServing,
} from '../support/local-runtime.ts';
import { kobo, scale } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-kills-'));
const KILLS = scale(20, 40);
const WRITERS = 8;
const groups: number[] = [];
let dynamodbPort = 0;
let receiver: Server | undefined;

const env = () => npmStartEnv({ dataDir, dynamodbPort, extra: { WEBHOOK_RETRY_BASE_MS: '100' } });

async function npmStart(): Promise<RunningService> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  groups.push(child.pid!);
  return waitUntilServing(child, 'npm start', 120_000);
}

function npmRun(script: string, ...args: string[]): Promise<Record<string, unknown>> {
  const cliEnv = env();
  delete cliEnv.TABLE_NAME;
  return new Promise((resolveLine, reject) => {
    execFile(
      'npm',
      ['run', '--silent', script, '--', ...args],
      { cwd: ROOT, env: cliEnv, timeout: 60_000 },
      (e, out, err) => (e ? reject(new Error(`${script} failed: ${err}`)) : resolveLine(JSON.parse(out.trim()))),
    );
  });
}

async function post(service: RunningService, path: string, body: unknown, key?: string) {
  const response = await fetch(`${service.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${service.secretKey}`,
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    replayed: response.headers.get('idempotent-replayed'),
    json: () => JSON.parse(text),
  };
}

async function historyIds(service: RunningService): Promise<{ ids: number[]; amountPaid: string; sum: number }> {
  const ids: number[] = [];
  let sum = 0;
  let amountPaid = '0.00';
  let cursor: string | null = null;
  do {
    const page = await post(service, '/payments/history', {
      period: 'today',
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    expect(page.status, page.text).toBe(200);
    const data = page.json().data;
    for (const payment of data.payments) {
      ids.push(payment.id);
      sum += kobo(payment.amount);
      amountPaid = payment.invoice.amount_paid;
    }
    cursor = data.next_cursor;
  } while (cursor);
  return { ids, amountPaid, sum };
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
  receiver?.close();
  for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  for (const pgid of groups) await waitGroupGone(pgid, 10_000);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('hard kills right after an acknowledgement (npm start)', { timeout: 900_000 }, () => {
  it(`${KILLS} kills: no acknowledged payment lost, no key with two payment ids, every committed event delivered`, async () => {
    const delivered = new Set<number>();
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (event.type === 'payment.recorded') delivered.add(event.data.id);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', () => r()));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    dynamodbPort = await freePort();
    let service = await npmStart();
    const { company_id } = JSON.parse(readFileSync(join(dataDir, 'demo-account.json'), 'utf8'));
    await npmRun('webhook:set', '--company-id', String(company_id), '--url', receiverUrl);
    const invoice = await post(service, '/invoices', {
      client: { first_name: 'Kill', last_name: 'Test', email: 'kills@example.com', phone: '+2348012345678' },
      due_date: '12/30/2030',
      fee_bearer: 'client',
      items: [{ item: 'Goods', description: 'x', unit_cost: '10,000,000.00', quantity: '1' }],
    });
    expect(invoice.status, invoice.text).toBe(201);
    const reference = invoice.json().data.reference_code;

    const idsByKey = new Map<string, number>();
    const lost: string[] = [];
    for (let round = 0; round < KILLS; round++) {
      const sent = await burstThenKill(service, round, reference, 1 + (round % 4));
      service = await npmStart();
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
