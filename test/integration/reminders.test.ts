/**
 * docs/receivables.md "Reminders": the sweep sends each reminder of the account's schedule at most once per invoice
 * and offset — also when sweeps race — with its mail job and `invoice.reminder_sent` in the same transaction; never
 * for a paid, voided or paused invoice; a resumption on the day sends it that day; a schedule set later applies to
 * existing invoices; missed offsets are skipped. The sweep reads the whole shared test table's index, so every `now`
 * here is the real time or at most a day ahead (as in test/integration/overdue-sweep.test.ts). Each sweep that must
 * find an invoice is preceded by a wake of the account's open invoices: another file's sweep (which records no
 * reminder: it has no MAIL_FROM) may have moved their wake date to a later reminder day meanwhile.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../shared/domain/dates.ts';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { listMailJobs } from '../../shared/store/mail.ts';
import { wakeOpenInvoices } from '../../shared/store/wake-index.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { useEnvironment, WITH_MAIL_SENDER } from '../support/environment.ts';

const DAY_MS = 86_400_000;
const items = [{ item: 'A', description: 'B', unit_cost: '10.00', quantity: '1' }];
useEnvironment(WITH_MAIL_SENDER);

/** MM/DD/YYYY of the day `days` from today in Lagos (the test accounts' time zone). */
function dueIn(days: number): string {
  const d = addDays(todayIn('Africa/Lagos'), days);
  return `${d.month}/${d.day}/${d.year}`;
}

async function scheduledAccount(offsets: number[]) {
  const { account, key } = await newAccount();
  await updateAccount(account.companyId, { reminderOffsets: offsets });
  return { companyId: account.companyId, key };
}

/**
 * A new invoice as if SES had accepted a send of it (reminders go only to such invoices: docs/tax.md "Reminders"):
 * what the mailer records on the first acceptance (test/integration/mailer.test.ts sends through the local SES).
 */
async function sentInvoice(key: string, overrides: Record<string, unknown>) {
  const invoice = await createInvoice(key, overrides);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.invoiceHeader(invoice.reference_code),
      UpdateExpression: 'SET first_sent_at = :at',
      ExpressionAttributeValues: { ':at': invoice.created_at },
    }),
  );
  return invoice;
}

async function shown(key: string, referenceCode: string) {
  const read = await call('get-invoice', { key, pathParameters: { reference_code: referenceCode } });
  expect(read.status).toBe(200);
  return read.body.data;
}

async function reminderEvents(companyId: number) {
  const lines = (await listDeliveries(companyId)).filter((line) => line.type === 'invoice.reminder_sent');
  return Promise.all(lines.map(async (line) => JSON.parse((await getEvent(line.event_id))!.body)));
}

const reminderJobs = async (companyId: number) =>
  (await listMailJobs(companyId, 100)).filter((job) => job.reminder !== undefined);

const pause = (key: string, referenceCode: string, paused: boolean, headers: Record<string, string> = {}) =>
  call('invoice-reminders', { key, headers, pathParameters: { reference_code: referenceCode }, body: { paused } });

describe('reminders', () => {
  it('sends the latest offset due exactly once however many sweeps race, with its mail job and event; earlier ones are skipped', async () => {
    // Prepare: due a week ago; the schedule's 0 was missed, 7 is today.
    const { companyId, key } = await scheduledAccount([0, 7, 14]);
    const invoice = await sentInvoice(key, { due_date: dueIn(-7), items });
    await wakeOpenInvoices(companyId);
    // Act
    await Promise.all([runWakeSweep(new Date()), runWakeSweep(new Date()), runWakeSweep(new Date())]);
    await runWakeSweep(new Date());
    // Assess
    const data = await shown(key, invoice.reference_code);
    expect(data.reminders).toEqual([{ offset: 7, sent_at: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) }]);
    expect(data).toMatchObject({ reminders_paused: false, mail_status: 'unsent', payment_status: 'overdue' });
    const events = await reminderEvents(companyId);
    expect(events).toHaveLength(1);
    expect(events[0].data).toEqual({ ...data, reminder_offset: 7 });
    const jobs = await reminderJobs(companyId);
    expect(jobs.map((job) => [job.reminder, job.to, job.state])).toEqual([
      [{ offset: 7, daysFromDue: 7 }, invoice.client.email, 'queued'],
    ]);
  });

  it('sends none for an invoice never sent', async () => {
    // Prepare: due today with a schedule of 0, but never e-mailed.
    const { companyId, key } = await scheduledAccount([0]);
    const invoice = await createInvoice(key, { due_date: dueIn(0), items });
    await wakeOpenInvoices(companyId);
    // Act
    await runWakeSweep(new Date());
    // Assess
    expect((await shown(key, invoice.reference_code)).reminders).toEqual([]);
    expect(await reminderJobs(companyId)).toEqual([]);
  });

  it('sends each offset on its own day, once', async () => {
    // Prepare
    const { companyId, key } = await scheduledAccount([0, 1]);
    const invoice = await sentInvoice(key, { due_date: dueIn(0), items });
    await wakeOpenInvoices(companyId);
    // Act
    await Promise.all([runWakeSweep(new Date()), runWakeSweep(new Date())]);
    const onTheDay = (await shown(key, invoice.reference_code)).reminders;
    await wakeOpenInvoices(companyId);
    const tomorrow = new Date(Date.now() + DAY_MS);
    await Promise.all([runWakeSweep(tomorrow), runWakeSweep(tomorrow)]);
    await runWakeSweep(tomorrow);
    // Assess
    expect(onTheDay.map((reminder: { offset: number }) => reminder.offset)).toEqual([0]);
    const after = (await shown(key, invoice.reference_code)).reminders;
    expect(after.map((reminder: { offset: number }) => reminder.offset)).toEqual([0, 1]);
    expect((await reminderEvents(companyId)).map((event) => event.data.reminder_offset).sort()).toEqual([0, 1]);
    const days = (await reminderJobs(companyId)).map((job) => job.reminder?.daysFromDue).sort();
    expect(days).toEqual([0, 1]);
  });

  it('sends none for a paid, voided or paused invoice; a resumption on the day sends it that day', async () => {
    // Prepare
    const { companyId, key } = await scheduledAccount([0]);
    const paid = await sentInvoice(key, { due_date: dueIn(0), items });
    const voided = await sentInvoice(key, { due_date: dueIn(0), items });
    const paused = await sentInvoice(key, { due_date: dueIn(0), items });
    const payment = { reference_code: paid.reference_code, date: todayMonthFirst(), amount: '10.00', channel: 'Cash' };
    expect((await call('add-payment', { key, body: payment })).status).toBe(201);
    const pathParameters = { reference_code: voided.reference_code };
    expect((await call('delete-invoice', { key, pathParameters })).status).toBe(200);
    const pausedAnswer = await pause(key, paused.reference_code, true);
    await wakeOpenInvoices(companyId);
    // Act
    await runWakeSweep(new Date());
    const whilePaused = await reminderEvents(companyId);
    const resumed = await pause(key, paused.reference_code, false);
    await wakeOpenInvoices(companyId);
    await Promise.all([runWakeSweep(new Date()), runWakeSweep(new Date())]);
    // Assess
    expect(pausedAnswer.status).toBe(200);
    expect(pausedAnswer.body).toMatchObject({ status: 'success', message: 'Invoice reminders updated.' });
    expect(pausedAnswer.body.data).toMatchObject({ reminders_paused: true, reminders: [], client: expect.any(Object) });
    expect(whilePaused).toEqual([]);
    expect(resumed.body.data.reminders_paused).toBe(false);
    const events = await reminderEvents(companyId);
    expect(events.map((event) => event.data.reference_code)).toEqual([paused.reference_code]);
    expect((await shown(key, paid.reference_code)).reminders).toEqual([]);
    expect((await shown(key, voided.reference_code)).reminders).toEqual([]);
  });

  it('applies a schedule set later to existing invoices, also to one already notified overdue', async () => {
    // Prepare: no schedule; the sweep notifies the invoice overdue, after which nothing more is due for it.
    const { account, key } = await newAccount();
    const invoice = await sentInvoice(key, { due_date: dueIn(-3), items });
    await runWakeSweep(new Date());
    // Act
    await updateAccount(account.companyId, { reminderOffsets: [-1, 3] });
    await wakeOpenInvoices(account.companyId);
    await runWakeSweep(new Date());
    // Assess
    const data = await shown(key, invoice.reference_code);
    expect(data.reminders.map((reminder: { offset: number }) => reminder.offset)).toEqual([3]);
    const overdue = (await listDeliveries(account.companyId)).filter((line) => line.type === 'invoice.overdue');
    expect(overdue).toHaveLength(1);
  });
});

describe('POST /invoices/{reference_code}/reminders', () => {
  it("another account's invoice is 404, a voided one 409, no `paused` 400; a keyed retry replays the answer", async () => {
    // Prepare
    const { key } = await scheduledAccount([0]);
    const other = await newAccount();
    const invoice = await sentInvoice(key, { items });
    const voided = await sentInvoice(key, { items });
    await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    const headers = { 'Idempotency-Key': `pause-${invoice.reference_code}` };
    // Act
    const foreign = await pause(other.key, invoice.reference_code, true);
    const deleted = await pause(key, voided.reference_code, true);
    const missing = await call('invoice-reminders', {
      key,
      pathParameters: { reference_code: invoice.reference_code },
      body: {},
    });
    const first = await pause(key, invoice.reference_code, true, headers);
    const replay = await pause(key, invoice.reference_code, true, headers);
    // Assess
    expect([foreign.status, foreign.body.code]).toEqual([404, 'invoice_not_found']);
    expect([deleted.status, deleted.body.code]).toEqual([409, 'invoice_deleted']);
    expect([missing.status, missing.body.code]).toEqual([400, 'validation_failed']);
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'paused', code: 'required' })]);
    expect(first.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect((await shown(key, invoice.reference_code)).reminders_paused).toBe(true);
  });
});
