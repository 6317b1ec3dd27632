/**
 * A reminder is recorded exactly once, and a recorded one is never lost (docs/receivables.md "Reminders",
 * docs/guarantees.md): `npm start` sweeping every 50 ms is killed with SIGKILL of its whole process group right after
 * the first reminder of the day shows on one invoice, while the sweep is likely still recording the others — once per day, as
 * CLOCK_OFFSET_MS moves "today" from the due date to three days after it (schedule 0,1,2,3). Every reminder the API
 * showed before a kill is still there after it, and in the end each invoice has exactly one reminder per offset, each
 * with exactly one mail job.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.ts';
import { type RunningService, waitGroupGone } from '../support/local-runtime.ts';
import { NpmStartHarness, post } from '../support/npm-start-harness.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DAY_MS = 86_400_000;
const INVOICES = 24;
const DAYS = 4;
let harness: NpmStartHarness | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'invoicing-reminder-kill-'));

afterAll(async () => {
  await harness?.cleanUp();
  rmSync(dataDir, { recursive: true, force: true });
});

const lagosToday = () =>
  new Intl.DateTimeFormat('en-US', {
    timeZone: 'Africa/Lagos',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());

type Reminders = Map<string, string[]>;

/** Each invoice's reminders as the API shows them: `offset@sent_at`. */
async function shownReminders(service: RunningService, references: string[]): Promise<Reminders> {
  const shown: Reminders = new Map();
  for (const reference of references) {
    const response = await fetch(`${service.baseUrl}/invoices/${reference}`, {
      headers: { authorization: `Bearer ${service.secretKey}` },
    });
    const data = ((await response.json()) as { data: { reminders: { offset: number; sent_at: string }[] } }).data;
    shown.set(
      reference,
      data.reminders.map((r) => `${r.offset}@${r.sent_at}`),
    );
  }
  return shown;
}

function reminderJobs(): { reference_code: string; reminder_offset: number }[] {
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
    .map((line) => JSON.parse(line))
    .filter((line) => line.reminder_offset !== null);
}

async function startOnDay(day: number): Promise<RunningService> {
  harness!.extraEnv = { OVERDUE_SWEEP_MS: '50', CLOCK_OFFSET_MS: String(day * DAY_MS) };
  return harness!.start();
}

/**
 * Polls the invoices one at a time (so the kill comes as soon as one shows it, while the sweep is likely still recording
 * the others) until one shows the reminder of `offset`; then SIGKILLs the group. Returns what that invoice showed.
 */
async function killAfterFirstReminder(service: RunningService, references: string[], offset: number) {
  const deadline = Date.now() + 120_000;
  for (let i = 0; ; i = (i + 1) % references.length) {
    if (Date.now() > deadline) throw new Error(`no reminder of offset ${offset} appeared`);
    const shown = await shownReminders(service, [references[i]!]);
    if (![...shown.values()][0]!.some((entry) => entry.startsWith(`${offset}@`))) continue;
    const pgid = service.child.pid!;
    process.kill(-pgid, 'SIGKILL'); // npm, node, Java and the SES server at once: no shutdown code runs
    expect(await waitGroupGone(pgid, 10_000), 'processes survived SIGKILL of the group').toBe(true);
    return shown;
  }
}

describe('kill -9 of npm start while the sweep records reminders', { timeout: 900_000 }, () => {
  it('loses and doubles no reminder: each shown one survives, each offset once per invoice with one mail job', async () => {
    harness = new NpmStartHarness(dataDir, await freePort());
    let service = await startOnDay(0);
    const references: string[] = [];
    for (let i = 0; i < INVOICES; i++) {
      const answer = await post(service, '/invoices', {
        client: {
          first_name: 'Kill',
          last_name: `Reminder${i}`,
          email: `kill.rem${i}@example.com`,
          phone: '+2348012345678',
        },
        due_date: lagosToday(),
        fee_bearer: 'client',
        items: [{ item: 'Goods', description: 'x', unit_cost: '1,000.00', quantity: '1' }],
      });
      expect(answer.status, answer.text).toBe(201);
      references.push(answer.json().data.reference_code as string);
    }
    await harness.cli('account:update', '--company-id', String(harness.companyId()), '--reminders=0,1,2,3');
    const seenBeforeKills: Reminders[] = [];
    for (let day = 0; day < DAYS; day++) {
      if (day > 0) service = await startOnDay(day);
      seenBeforeKills.push(await killAfterFirstReminder(service, references, day));
    }
    service = await startOnDay(DAYS - 1);
    const deadline = Date.now() + 120_000;
    let final = await shownReminders(service, references);
    while ([...final.values()].some((list) => !list.some((entry) => entry.startsWith(`${DAYS - 1}@`)))) {
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
      final = await shownReminders(service, references);
    }
    await new Promise((r) => setTimeout(r, 2_000)); // more sweeps: nothing may be added twice

    final = await shownReminders(service, references);
    for (const seen of seenBeforeKills)
      for (const [reference, entries] of seen)
        for (const entry of entries) expect(final.get(reference)).toContain(entry);
    const jobs = reminderJobs();
    for (const reference of references) {
      const offsets = final.get(reference)!.map((entry) => Number(entry.split('@')[0]));
      expect(new Set(offsets).size, reference).toBe(offsets.length);
      expect(offsets.at(-1), reference).toBe(DAYS - 1);
      const jobOffsets = jobs.filter((job) => job.reference_code === reference).map((job) => job.reminder_offset);
      expect(jobOffsets.sort(), reference).toEqual([...offsets].sort());
    }
  });
});
