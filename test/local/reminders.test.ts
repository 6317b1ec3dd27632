/**
 * Black box (docs/receivables.md "Reminders"): `npm start` with OVERDUE_SWEEP_MS and CLOCK_OFFSET_MS sends each reminder
 * of the schedule exactly once, on its day, as the clock offset moves "today" across restarts — the e-mails arriving
 * in DATA_DIR/mail with the subject of the day — and none for a paid or a paused invoice. The schedule is set with the
 * CLI after the invoices exist (it applies to existing invoices). Reminders go only to invoices sent at least once
 * (docs/tax.md "Reminders"), so each is e-mailed first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { dayOf } from '../support/days.ts';
import { invoiceRequest } from '../support/fixtures.ts';
import { NpmStartHarness, post, type RunningService } from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';

const DAY_MS = 86_400_000;
let harness: NpmStartHarness | undefined;

afterAll(async () => {
  await harness?.cleanUp();
});

const invoiceFor = (email: string) =>
  invoiceRequest(email, {
    first_name: 'Bisi',
    last_name: 'Ade',
    due_date: dayOf(3).monthFirst,
    items: [{ item: 'Catering', description: 'Launch party', unit_cost: '250,000.00', quantity: '1' }],
  });

/** Each .eml's recipients and subject, parsed once: a file in DATA_DIR/mail is written whole and never changed. */
const parsedMails = new Map<string, Promise<{ to: string; subject: string }>>();

/** The subjects of the e-mails in DATA_DIR/mail sent to `address` (parsed: a subject with ₦ is MIME-encoded). */
async function subjectsTo(address: string): Promise<string[]> {
  const directory = join(harness!.dataDir, 'mail');
  let names: string[] = [];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  for (const name of names)
    if (!parsedMails.has(name))
      parsedMails.set(
        name,
        simpleParser(readFileSync(join(directory, name))).then((mail) => ({
          to: JSON.stringify(mail.to),
          subject: mail.subject ?? '',
        })),
      );
  const mails = await Promise.all(names.map((name) => parsedMails.get(name)!));
  return mails.filter((mail) => mail.to.includes(address)).map((mail) => mail.subject);
}

async function reminders(service: RunningService, reference: string): Promise<number[]> {
  const response = await fetch(`${service.baseUrl}/invoices/${reference}`, {
    headers: { authorization: `Bearer ${service.secretKey}` },
  });
  expect(response.status).toBe(200);
  const data = ((await response.json()) as { data: { reminders: { offset: number }[] } }).data;
  return data.reminders.map((reminder) => reminder.offset);
}

/** The subjects of the reminders among them (the invoice's own e-mail is not one). */
const reminderSubjectsTo = async (address: string) =>
  (await subjectsTo(address)).filter((subject) => subject.startsWith('Reminder'));

/** Polls the API and the mail directory (each new e-mail parsed once): five times a second. */
const eventually = (what: string, condition: () => Promise<boolean>) => until(what, condition, 90_000, 200);

/**
 * Starts npm start with "today" moved `days` ahead, sweeping every second: each sweep queries the wake index's 16
 * shards, and five a second kept DynamoDB Local busy through the whole test on a machine the suite already fills.
 */
async function startOnDay(days: number): Promise<RunningService> {
  harness!.extraEnv = { OVERDUE_SWEEP_MS: '1000', CLOCK_OFFSET_MS: String(days * DAY_MS) };
  return harness!.start();
}

/** SIGINT to the whole group, as Ctrl-C sends. */
const stop = () => harness!.stop();

const settle = () => new Promise((r) => setTimeout(r, 3_000)); // three more sweeps

describe('reminders through npm start', { timeout: 600_000 }, () => {
  it('sends each offset once on its day across restarts, the e-mail in DATA_DIR/mail; none when paid or paused', async () => {
    harness = await NpmStartHarness.create('reminders');
    let service = await startOnDay(0);
    const created = [];
    for (const email of ['due.rem@example.com', 'paid.rem@example.com', 'paused.rem@example.com']) {
      const answer = await post(service, '/invoices', invoiceFor(email));
      expect(answer.status, answer.text).toBe(201);
      created.push(answer.json().data.reference_code as string);
    }
    const [due, paid, paused] = created as [string, string, string];
    for (const reference of created) expect((await post(service, `/invoices/${reference}/send`, {})).status).toBe(200);
    for (const email of ['due.rem@example.com', 'paid.rem@example.com', 'paused.rem@example.com'])
      await eventually(`the invoice e-mailed to ${email}`, async () => (await subjectsTo(email)).length === 1);
    const payment = { reference_code: paid, date: dayOf(0).monthFirst, amount: '250,000.00', channel: 'BankTransfer' };
    expect((await post(service, '/payments', payment)).status).toBe(201);
    expect((await post(service, `/invoices/${paused}/reminders`, { paused: true })).status).toBe(200);
    const line = await harness.cli('account:update', '--company-id', String(harness.companyId()), '--reminders=-3,0,7');
    expect(line.reminders).toEqual([-3, 0, 7]);

    // Today is three days before the due date: the −3 reminder, once.
    await eventually('the −3 reminder', async () => (await reminders(service, due)).length === 1);
    await eventually('its e-mail', async () => (await reminderSubjectsTo('due.rem@example.com')).length === 1);
    await settle();
    expect(await reminders(service, due)).toEqual([-3]);
    expect(await reminderSubjectsTo('due.rem@example.com')).toEqual([expect.stringContaining('is due in 3 days')]);
    await stop();

    // Restarted on the same day: nothing more. Then on the due date: the 0 reminder.
    service = await startOnDay(0);
    await settle();
    expect(await reminders(service, due)).toEqual([-3]);
    await stop();
    service = await startOnDay(3);
    await eventually('the 0 reminder', async () => (await reminders(service, due)).length === 2);
    await eventually('its e-mail', async () => (await reminderSubjectsTo('due.rem@example.com')).length === 2);
    await settle();
    expect(await reminders(service, due)).toEqual([-3, 0]);
    expect((await reminderSubjectsTo('due.rem@example.com')).filter((s) => s.includes('is due today'))).toHaveLength(1);
    await stop();

    // Twelve days later (a week and two days overdue): only the 7 reminder, once, across another restart.
    service = await startOnDay(12);
    await eventually('the 7 reminder', async () => (await reminders(service, due)).length === 3);
    await stop();
    service = await startOnDay(12);
    await eventually('its e-mail', async () => (await reminderSubjectsTo('due.rem@example.com')).length === 3);
    await settle();
    expect(await reminders(service, due)).toEqual([-3, 0, 7]);
    expect(
      (await reminderSubjectsTo('due.rem@example.com')).filter((s) => s.includes('overdue by 9 days')),
    ).toHaveLength(1);
    expect(await reminders(service, paid)).toEqual([]);
    expect(await reminders(service, paused)).toEqual([]);
    expect(await reminderSubjectsTo('paid.rem@example.com')).toEqual([]);
    expect(await reminderSubjectsTo('paused.rem@example.com')).toEqual([]);
    await stop();
  });
});
