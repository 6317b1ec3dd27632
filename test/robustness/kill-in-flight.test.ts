/**
 * docs/guarantees.md "Crash matrix": nothing acknowledged is lost and nothing is done twice when `npm start` (DynamoDB
 * Local and the local SES server included) is killed with SIGKILL of its whole process group, KILLS times on the same
 * DATA_DIR, while all three kinds of its work are in flight:
 * - payments: WRITERS concurrent payers, each with an Idempotency-Key; the kill comes the moment the `killAfter`-th
 *   201 of the round arrives, once a send of the round was acknowledged (200) and, on the rounds that owe reminders,
 *   once the first reminder of the day shows;
 * - invoice e-mails: SENDERS concurrent sends; on every other round the local SES server throttles every attempt
 *   first (its fault injection), so each acknowledged job is certainly between queueing and sending at the kill;
 * - reminders: each of the first DAYS rounds moves "today" (CLOCK_OFFSET_MS) one day on, so each of REMINDED invoices
 *   owes that day's reminder (schedule 0,1,2,3) from the restart: the sweep that `npm start` runs as it starts,
 *   beside the burst, sends them, and runs again every second (more often only repeats index queries that find
 *   nothing: a day's reminders are due once; every 250 ms they cost the run about 40 % of a core).
 * After each restart: every acknowledged payment is in history, every key of the burst maps to one payment id (the
 * retry of an answered key replays it; of a cut-off key, replays or records it once), and every reminder the API
 * showed before the kill is still shown. In the end: every committed payment's `payment.recorded` reached the
 * webhook receiver, every acknowledged send is `sent` with its `.eml`, and each invoice has exactly one reminder per
 * offset, each with one mail job.
 *
 * Without the local durability barrier (infra/local/durability-barrier.ts) this test loses payments: DynamoDB Local
 * acknowledges a transaction a few milliseconds before it is on disk.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf as accountDay } from '../support/days.ts';
import { INVOICE_TO_PAY } from '../support/fixtures.ts';
import {
  NpmStartHarness,
  post,
  postAsTold,
  type RunningService,
  startReceiver,
  todaysPayments,
} from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';
import { kobo, scale } from './helpers.ts';
import {
  createRemindedInvoices,
  emlRecipients,
  mailJobs,
  type Reminders,
  shownReminders,
  throttleEveryAttempt,
} from './kill-in-flight-support.ts';

const KILLS = scale(3, 40);
const WRITERS = 6;
const SENDERS = 2;
const REMINDED = 12;
const DAYS = 4;
const DAY_MS = 86_400_000;

interface Sent {
  key: string;
  body: Record<string, unknown>;
  acknowledgedId?: number;
}

/** What one round's burst left behind: the payments sent, the e-mails acknowledged, the reminders seen. */
interface Round {
  payments: Sent[];
  sends: string[];
  seen: Reminders;
}

let harness: NpmStartHarness | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterAll(async () => {
  receiver?.server.close();
  await harness?.cleanUp();
});

const dayOf = (round: number) => Math.min(round, DAYS - 1);
const owesReminder = (round: number) => round < DAYS;

function startOnRound(round: number): Promise<RunningService> {
  harness!.extraEnv = { OVERDUE_SWEEP_MS: '1000', CLOCK_OFFSET_MS: String(dayOf(round) * DAY_MS) };
  return harness!.start();
}

/** Payers until killed: each entry is acknowledged (201) or not (any other answer, or the connection died). */
function payUntil(service: RunningService, round: number, reference: string, state: BurstState) {
  return Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let n = 0; !state.killed; n++) {
        const entry: Sent = {
          key: `kill-${round}-${writer}-${n}`,
          body: {
            reference_code: reference,
            date: accountDay(0).monthFirst,
            amount: `${1 + writer}.${String(round % 100).padStart(2, '0')}`,
            channel: 'POS',
          },
        };
        state.payments.push(entry);
        try {
          const answer = await post(service, '/payments', entry.body, entry.key);
          if (answer.status !== 201) continue;
          entry.acknowledgedId = answer.json().data.id;
          state.acknowledged++;
          state.maybeKill();
        } catch {
          return; // the connection died with the runtime: not acknowledged
        }
      }
    }),
  );
}

/** Senders until killed, each send to its own address; only a 200 is acknowledged (a 504 may or may not have queued). */
function sendUntil(service: RunningService, round: number, reference: string, state: BurstState) {
  return Promise.all(
    Array.from({ length: SENDERS }, async (_, sender) => {
      for (let n = 0; !state.killed; n++) {
        const to = `kill-${round}-${sender}-${n}@example.com`;
        try {
          const answer = await post(service, `/invoices/${reference}/send`, { to }, `mail-${round}-${sender}-${n}`);
          if (answer.status !== 200) {
            state.refusedSends.push(`${answer.status} ${answer.text.slice(0, 120)}`);
            continue;
          }
          state.sends.push(to);
          state.maybeKill();
        } catch {
          return;
        }
      }
    }),
  );
}

/** Polls the reminded invoices one at a time until one shows the day's reminder (the sweep is likely mid-way). */
async function watchReminders(service: RunningService, round: number, references: string[], state: BurstState) {
  if (!owesReminder(round)) return void (state.reminderShown = true);
  for (let i = 0; !state.killed; i = (i + 1) % references.length) {
    try {
      const shown = await shownReminders(service, [references[i]!]);
      for (const [reference, entries] of shown) state.seen.set(reference, entries);
      if (!state.reminderShown && [...shown.values()][0]!.some((entry) => entry.startsWith(`${dayOf(round)}@`))) {
        state.reminderShown = true;
        state.maybeKill();
      }
    } catch {
      return;
    }
  }
}

class BurstState {
  killed = false;
  acknowledged = 0;
  reminderShown = false;
  readonly payments: Sent[] = [];
  readonly sends: string[] = [];
  /** The other answers to the sends, to explain a round without an acknowledged one. */
  readonly refusedSends: string[] = [];
  readonly seen: Reminders = new Map();

  constructor(
    private readonly killGroup: () => void,
    private readonly killAfter: number,
  ) {}

  /** Every kind of work has something acknowledged: a payment count, the day's reminder, an e-mail (a send is slower). */
  maybeKill(): void {
    if (this.acknowledged >= this.killAfter && this.reminderShown && this.sends.length > 0) this.kill();
  }

  kill(): void {
    if (this.killed) return;
    this.killed = true;
    this.killGroup(); // npm, node, Java and the SES server at once: no shutdown code runs
  }
}

async function burstThenKill(service: RunningService, round: number, references: string[]): Promise<Round> {
  const [reference, ...reminded] = references as [string, ...string[]];
  const state = new BurstState(() => harness!.kill(service), 1 + (round % 4));
  if (round % 2 === 0) await throttleEveryAttempt(service);
  const watchdog = setTimeout(() => state.kill(), 60_000);
  await Promise.all([
    payUntil(service, round, reference, state),
    sendUntil(service, round, reference, state),
    watchReminders(service, round, reminded, state),
  ]);
  clearTimeout(watchdog);
  expect(await harness!.gone(service), 'processes survived SIGKILL of the group').toBe(true);
  expect(state.sends.length, `round ${round}: no send acknowledged; answers: ${state.refusedSends}`).toBeGreaterThan(0);
  return { payments: state.payments, sends: state.sends, seen: state.seen };
}

/** After a restart: nothing acknowledged lost, and every key of the burst, retried, has exactly one payment id. */
async function checkPayments(service: RunningService, round: number, sent: Sent[], idsByKey: Map<string, number>) {
  const ids = new Set((await todaysPayments(service)).map((payment) => payment.id as number));
  const lost = sent.filter((entry) => entry.acknowledgedId !== undefined && !ids.has(entry.acknowledgedId));
  expect(
    lost.map((entry) => `round ${round}: payment ${entry.acknowledgedId}`),
    'acknowledged payments lost',
  ).toEqual([]);
  for (const entry of sent) {
    const retry = await postAsTold(service, '/payments', entry.body, entry.key);
    expect(retry.status, `${retry.text}\nservice log (end):\n${service.output().slice(-4_000)}`).toBe(201);
    const id = retry.json().data.id as number;
    if (entry.acknowledgedId !== undefined) {
      expect(id, `key ${entry.key} got a second payment id`).toBe(entry.acknowledgedId);
      expect(retry.replayed, `key ${entry.key}: the retry of an acknowledged payment is a replay`).toBe('true');
    }
    expect(idsByKey.get(entry.key) ?? id).toBe(id);
    idsByKey.set(entry.key, id);
  }
}

async function checkRemindersKept(service: RunningService, seen: Reminders) {
  const now = await shownReminders(service, [...seen.keys()]);
  for (const [reference, entries] of seen)
    for (const entry of entries) expect(now.get(reference), `reminder ${entry} of ${reference} lost`).toContain(entry);
}

/** Polls through the CLI (a process each time): once a second. */
const eventually = (what: string, done: () => Promise<boolean>) => until(what, done, 120_000, 1_000);

describe('SIGKILL of npm start with payments, e-mails and reminders in flight', { timeout: 900_000 }, () => {
  it(`${KILLS} kills: nothing acknowledged lost, nothing done twice, every committed event and e-mail delivered`, async () => {
    const delivered = new Set<number>();
    receiver = await startReceiver((_request, response, webhook) => {
      if (webhook.type === 'payment.recorded') delivered.add(webhook.dataId as number);
      response.writeHead(200).end('ok');
    });
    harness = await NpmStartHarness.create('kills');
    let service = await startOnRound(0);
    await harness.cli('webhook:set', '--company-id', String(harness.companyId()), '--url', receiver.url);
    const invoice = await post(service, '/invoices', INVOICE_TO_PAY);
    expect(invoice.status, invoice.text).toBe(201);
    const reminded = await createRemindedInvoices(service, REMINDED, accountDay(0).monthFirst);
    await harness.cli('account:update', '--company-id', String(harness.companyId()), '--reminders=0,1,2,3');

    const idsByKey = new Map<string, number>();
    const sends: string[] = [];
    for (let round = 0; round < KILLS; round++) {
      const burst = await burstThenKill(service, round, [invoice.json().data.reference_code, ...reminded]);
      service = await startOnRound(round + 1);
      await checkPayments(service, round, burst.payments, idsByKey);
      await checkRemindersKept(service, burst.seen);
      sends.push(...burst.sends);
    }

    const payments = await todaysPayments(service);
    const ids = payments.map((payment) => payment.id as number);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...idsByKey.values()].sort());
    const sum = payments.reduce((total, payment) => total + kobo(payment.amount), 0);
    expect(kobo(payments.at(-1)!.invoice.amount_paid), 'balance = Σ payments').toBe(sum);
    await eventually('every payment.recorded', async () => ids.every((id) => delivered.has(id)));
    // The .eml files first: reading them is cheap, and the CLI (a process) is asked once they are all there.
    await eventually('every acknowledged e-mail sent, every mail job sent', async () => {
      const eml = emlRecipients(harness!.dataDir);
      if (!sends.every((to) => eml.includes(to))) return false;
      const jobs = await mailJobs(harness!);
      const sent = new Set(jobs.filter((job) => job.state === 'sent').map((job) => job.to));
      return sends.every((to) => sent.has(to)) && jobs.every((job) => job.state === 'sent');
    });

    // A reminder the kill cut off is not sent late: the restart is on the next day, whose offset is the latest due.
    const final = await shownReminders(service, reminded);
    const jobs = (await mailJobs(harness)).filter((job) => job.reminder_offset !== null);
    for (const reference of reminded) {
      const offsets = final.get(reference)!.map((entry) => Number(entry.split('@')[0]));
      expect(new Set(offsets).size, reference).toBe(offsets.length);
      expect(offsets.at(-1), reference).toBe(DAYS - 1);
      const jobOffsets = jobs.filter((job) => job.reference_code === reference).map((job) => job.reminder_offset);
      expect(jobOffsets.sort(), reference).toEqual([...offsets].sort());
    }
  });
});
