/**
 * A queued e-mail is never dropped (docs/sending-invoices.md "Delivery", docs/guarantees.md): `npm start` (DynamoDB
 * Local and the local SES server included) is killed with SIGKILL of its whole process group right after a send was
 * answered 200, while other sends are in flight, KILLS times on the same DATA_DIR. In every other round the local SES
 * server throttles every attempt first (its fault injection), so that each acknowledged job is certainly between
 * queueing and sending when the kill comes; in the others the kill falls wherever it falls (in the stream, the queue,
 * an attempt). After the restarts every acknowledged send's e-mail is in DATA_DIR/mail and its job is `sent`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { type RunningService, waitGroupGone } from '../support/local-runtime.ts';
import { INVOICE_TO_PAY, NpmStartHarness, post } from '../support/npm-start-harness.ts';
import { scale } from './helpers.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const KILLS = scale(4, 10);
const WRITERS = 4;
let harness: NpmStartHarness | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-mail-kill-'));

const inboxOf = (service: RunningService) =>
  /read sent mail in a browser at (http:\/\/\S+)/.exec(service.output())![1]!;

/** WRITERS concurrent sends, each to its own address; the group is SIGKILLed when the `killAfter`-th 200 arrives. */
async function burstThenKill(service: RunningService, round: number, reference: string, killAfter: number) {
  const pgid = service.child.pid!;
  const acknowledged: string[] = [];
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    process.kill(-pgid, 'SIGKILL'); // npm, node, Java and the SES server at once: no shutdown code runs
  };
  const writers = Array.from({ length: WRITERS }, async (_, writer) => {
    for (let n = 0; !killed; n++) {
      const to = `kill-${round}-${writer}-${n}@example.com`;
      try {
        const answer = await post(service, `/invoices/${reference}/send`, { to }, `mail-kill-${round}-${writer}-${n}`);
        // A 504 (busy machine) may or may not have queued: not acknowledged (the last check covers every job anyway).
        if (answer.status !== 200) continue;
        acknowledged.push(to);
        if (acknowledged.length >= killAfter) kill();
      } catch {
        return; // the connection died with the runtime: not acknowledged
      }
    }
  });
  const watchdog = setTimeout(kill, 30_000);
  await Promise.all(writers);
  clearTimeout(watchdog);
  expect(await waitGroupGone(pgid, 10_000), 'processes survived SIGKILL of the group').toBe(true);
  return acknowledged;
}

function mailDeliveries(): Record<string, unknown>[] {
  const env = harness!.env();
  delete env.TABLE_NAME;
  const out = execFileSync(
    'npm',
    ['run', '--silent', 'mail:deliveries', '--', '--company-id', String(harness!.companyId()), '--limit', '1000'],
    { cwd: ROOT, env, encoding: 'utf8' },
  );
  return out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const emlRecipients = (): string => {
  const directory = join(dataDir, 'mail');
  return readdirSync(directory)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => /^To: (.*)$/m.exec(readFileSync(join(directory, name), 'utf8'))?.[1] ?? '')
    .join('\n');
};

afterAll(async () => {
  await harness?.cleanUp();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('kill -9 of npm start between queueing and sending', { timeout: 900_000 }, () => {
  it('loses no queued e-mail: every acknowledged send is sent after the restarts', async () => {
    harness = new NpmStartHarness(dataDir, await freePort());
    let service = await harness.start();
    const created = await post(service, '/invoices', INVOICE_TO_PAY);
    expect(created.status, created.text).toBe(201);
    const reference = created.json().data.reference_code as string;
    const acknowledged: string[] = [];
    for (let round = 0; round < KILLS; round++) {
      if (round % 2 === 0) {
        const faults = await fetch(`${inboxOf(service)}/_local/faults`, {
          method: 'POST',
          body: JSON.stringify({ kind: 'throttle', count: 10_000 }),
        });
        expect(faults.status).toBe(204);
      }
      acknowledged.push(...(await burstThenKill(service, round, reference, 1 + (round % WRITERS))));
      service = await harness.start();
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILLS);

    const deadline = Date.now() + 120_000;
    let unsent: string[] = acknowledged;
    while (unsent.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 1000));
      const sent = new Set(
        mailDeliveries()
          .filter((line) => line.state === 'sent')
          .map((line) => line.to as string),
      );
      const delivered = emlRecipients();
      unsent = acknowledged.filter((to) => !sent.has(to) || !delivered.includes(to));
    }
    expect(unsent).toEqual([]);
    expect(mailDeliveries().filter((line) => line.state !== 'sent')).toEqual([]);
  });
});
