/**
 * The mailer end to end below the queue (docs/sending-invoices.md "Delivery"): the send route commits a job;
 * `deliverMailJob` (what the queue consumer calls) renders the real PDF, builds the MIME message and sends it with the
 * SESv2 client to the real local SES server (aws-ses-v2-local behind infra/local/ses-server.ts), whose simulator
 * reports reach the mail-events handler, as the configuration set's events do deployed. No mock of SES or the mailer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handler as mailEventsHandler } from '../../functions/mail-events/handler.ts';
import { dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { addDays, todayIn } from '../../shared/domain/dates.ts';
import { deliverMailJob } from '../../shared/services/mail-delivery.ts';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { tableName } from '../../shared/store/dynamodb-client.ts';
import { getMailJob, listMailJobs, type MailJob, mailJobPut, newMailJobId } from '../../shared/store/mail.ts';
import { listDeliveries } from '../../shared/store/webhook-deliveries.ts';
import { getEvent } from '../../shared/store/webhooks.ts';
import { commitTransaction } from '../../shared/store/write-executor.ts';
import { call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { useLocalSes } from '../support/local-ses.ts';
import { pdfText } from '../support/pdf-text.ts';

/**
 * SES reports a bounce seconds after accepting the message; the local server after `noticeDelayMs`, which a loaded
 * machine can outlast before the mailer has recorded the acceptance. A test that wants the usual order holds the
 * reports until the mailer returned (`holdReports`); the other order has its own test.
 */
let reportsHeld: Promise<void> = Promise.resolve();
function holdReports(): () => void {
  let release!: () => void;
  reportsHeld = new Promise((resolve) => {
    release = resolve;
  });
  return release;
}

const mail = useLocalSes({
  from: 'invoices@example.com',
  onNotice: async (event) => {
    await reportsHeld;
    return mailEventsHandler(event);
  },
  environment: { MAIL_RETRY_BASE_MS: '1000' },
});
afterEach(() => dynamoHooks.clear());

const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });

/** An invoice of a new account, sent with `body`; the job the send committed. */
async function queuedInvoice(body: Record<string, unknown> = {}) {
  const { account, key } = await newAccount({ name: 'Acme Supplies' });
  const invoice = await createInvoice(key);
  const sent = await call('email-invoice', { key, ...byCode(invoice.reference_code), body });
  expect(sent.status).toBe(200);
  const [job] = await listMailJobs(account.companyId, 1);
  return { account, key, invoice, jobId: job!.jobId };
}

const shown = async (key: string, referenceCode: string) =>
  (await call('get-invoice', { key, ...byCode(referenceCode) })).body.data;

/** The webhook events of the account, oldest first: their types and their data. */
async function eventsOf(companyId: number) {
  const lines = (await listDeliveries(companyId)).reverse();
  return Promise.all(
    lines.map(async (line) => {
      const event = await getEvent(line.event_id);
      return { type: line.type, data: JSON.parse(event!.body).data as Record<string, unknown> };
    }),
  );
}

/** Messages the local SES server accepted, with their parsed content. */
const messagesTo = (address: string) => mail.messagesTo(address);

const injectFaults = (kind: 'throttle' | 'server_error', count: number) =>
  fetch(`${mail.ses().url}/_local/faults`, { method: 'POST', body: JSON.stringify({ kind, count }) });

describe('a send SES accepts', () => {
  it('sends one MIME message (text, HTML, the PDF) from the merchant, records sent and emits invoice.sent', async () => {
    const { account, key, invoice, jobId } = await queuedInvoice({
      to: 'ada.sent@example.com',
      message: 'Thanks <Ada>!',
    });
    await updateAccount(account.companyId, { profile: { email: 'billing@acme.ng' } });
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });

    const [message, ...more] = await messagesTo('ada.sent@example.com');
    expect(more).toEqual([]);
    expect(message!.from?.value).toEqual([{ name: 'Acme Supplies', address: 'invoices@example.com' }]);
    expect(message!.replyTo?.text).toBe('billing@acme.ng');
    expect(message!.subject).toBe(`Invoice ${invoice.number} from Acme Supplies: ₦50,000.00 due 30 Dec 2030`);
    expect(message!.text).toContain('Thanks <Ada>!');
    expect(message!.text).toContain('Website Design × 1 at ₦50,000.00: ₦50,000.00');
    expect(invoice.hosted_url).toMatch(/^http/);
    expect(message!.text).toContain(`View the invoice online: ${invoice.hosted_url}`);
    expect(message!.html).toContain(`href="${invoice.hosted_url}"`);
    expect(message!.html).toContain('Thanks &lt;Ada&gt;!');
    expect(message!.attachments).toHaveLength(1);
    const [pdf] = message!.attachments;
    expect([pdf!.filename, pdf!.contentType]).toEqual([`invoice-${invoice.reference_code}.pdf`, 'application/pdf']);
    expect(pdf!.content.subarray(0, 5).toString()).toBe('%PDF-');

    const now = await shown(key, invoice.reference_code);
    expect(now).toMatchObject({ mail_status: 'sent', mail_error: null, sent_at: expect.stringMatching(/^\d{4}-/) });
    expect(await getMailJob(jobId)).toMatchObject({ state: 'sent', attempts: 1, sesMessageId: expect.any(String) });
    const events = await eventsOf(account.companyId);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.sent']);
    expect(events[1]!.data).toEqual(now);
  });

  it('attaches the PDF GET /invoices/{ref}/pdf answers: with the payments and the credit notes', async () => {
    const { key, invoice, jobId } = await queuedInvoice({ to: 'ada.paid@example.com' });
    const payment = {
      reference_code: invoice.reference_code,
      date: todayMonthFirst(),
      amount: '20,000',
      channel: 'Cash',
    };
    expect((await call('add-payment', { key, body: payment })).status).toBe(201);
    const credit = { reason: 'Two pages dropped', amount: '5,000' };
    const note = await call('create-credit-note', { key, ...byCode(invoice.reference_code), body: credit });
    expect(note.status, note.rawBody).toBe(201);
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });

    const [message] = await messagesTo('ada.paid@example.com');
    const attached = pdfText(message!.attachments[0]!.content);
    expect(attached).toMatch(/PAYMENTS[\s\S]*Cash[\s\S]*CREDIT NOTES[\s\S]*CN-000001[\s\S]*Two pages dropped/);
    const keyed = await call('invoice-pdf', { key, ...byCode(invoice.reference_code) });
    expect(attached).toBe(pdfText(Buffer.from(keyed.rawBody, 'base64')));
  });

  it('reads the invoice and its account once per attempt, and records the outcome on what it read', async () => {
    const { account, invoice, jobId } = await queuedInvoice();
    const reads: string[] = [];
    dynamoHooks.add({
      before({ command, input }) {
        if (!['GetItemCommand', 'BatchGetItemCommand'].includes(command)) return;
        const text = JSON.stringify(input);
        if (text.includes(`INVOICE#${invoice.reference_code}`)) reads.push(`invoice ${command}`);
        if (!text.includes(`ACCOUNT#${account.companyId}"`)) return;
        // The logo's item is beside the account's (docs/accounts.md "The logo"), read in parallel with it.
        reads.push(`${text.includes('"LOGO"') ? 'logo' : 'account'} ${command}`);
      },
    });
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });
    expect(reads.sort()).toEqual(['account GetItemCommand', 'invoice BatchGetItemCommand', 'logo GetItemCommand']);
  });

  it('a payment committed while the e-mail was sent: the outcome is recorded on the invoice as it is then', async () => {
    const { account, key, invoice, jobId } = await queuedInvoice();
    let paid = false;
    dynamoHooks.add({
      async before({ command, input }) {
        if (paid || command !== 'TransactWriteItemsCommand' || !JSON.stringify(input).includes(jobId)) return;
        paid = true;
        const body = {
          reference_code: invoice.reference_code,
          date: todayMonthFirst(),
          amount: '100.00',
          channel: 'Cash',
        };
        expect((await call('add-payment', { key, body })).status).toBe(201);
      },
    });
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });
    const now = await shown(key, invoice.reference_code);
    expect(now).toMatchObject({ mail_status: 'sent', amount_paid: '100.00' });
    const sent = (await eventsOf(account.companyId)).filter((e) => e.type === 'invoice.sent');
    expect(sent.map((e) => e.data)).toEqual([now]);
  });

  it('sends a job once: a second copy of the queue message finds it sent and skips it', async () => {
    const { jobId } = await queuedInvoice({ to: 'twice@example.com' });
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'skipped', reason: 'already sent' });
    expect(await messagesTo('twice@example.com')).toHaveLength(1);
  });
});

describe('throttling and SES errors', () => {
  it.each(['throttle', 'server_error'] as const)(
    'retries after %s with a growing delay, then records sent; no event until the outcome',
    async (kind) => {
      const { account, key, invoice, jobId } = await queuedInvoice({ to: `retry-${kind}@example.com` });
      await injectFaults(kind, 3); // the SDK's three tries of the first attempt
      const first = await deliverMailJob(jobId);
      expect(first).toEqual({ kind: 'retry', delayMs: 1000 });
      const job = await getMailJob(jobId);
      expect(job).toMatchObject({ state: 'queued', attempts: 1, lastError: expect.stringMatching(/HTTP (429|500)/) });
      expect(job?.nextAttemptAt).toEqual(expect.any(String));
      expect((await shown(key, invoice.reference_code)).mail_status).toBe('queued');
      expect((await eventsOf(account.companyId)).map((e) => e.type)).toEqual(['invoice.created']);

      expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });
      expect(await getMailJob(jobId)).toMatchObject({ state: 'sent', attempts: 2, nextAttemptAt: null });
      expect((await eventsOf(account.companyId)).map((e) => e.type)).toEqual(['invoice.created', 'invoice.sent']);
      expect(await messagesTo(`retry-${kind}@example.com`)).toHaveLength(1);
    },
  );
});

describe('a permanent rejection', () => {
  it('records failed with mail_error and emits invoice.delivery_failed, without retrying', async () => {
    const { account, key, invoice, jobId } = await queuedInvoice({ to: 'rejected@example.invalid' });
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'failed' });
    const now = await shown(key, invoice.reference_code);
    expect(now).toMatchObject({ mail_status: 'failed', sent_at: null });
    expect(now.mail_error).toMatch(/^MessageRejected \(HTTP 400\): .*rejected@example\.invalid/);
    const events = await eventsOf(account.companyId);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.delivery_failed']);
    expect(events[1]!.data).toEqual(now);
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'skipped', reason: 'already failed' });
  });

  it('does not send a job whose invoice was voided after the send: failed, saying so', async () => {
    const { key, invoice, jobId } = await queuedInvoice({ to: 'voided@example.com' });
    expect((await call('delete-invoice', { key, ...byCode(invoice.reference_code) })).status).toBe(200);
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'failed' });
    expect(await shown(key, invoice.reference_code)).toMatchObject({
      mail_status: 'failed',
      mail_error: 'The invoice was voided before it could be sent.',
    });
    expect(await messagesTo('voided@example.com')).toEqual([]);
  });
});

describe("SES's reports (the mailbox simulator)", () => {
  it.each([
    ['bounce@simulator.amazonses.com', /^Bounced: Permanent\/General: bounce@simulator\.amazonses\.com/],
    ['complaint@simulator.amazonses.com', /^Marked as spam by the recipient: abuse: complaint@simulator/],
  ])('%s: sent, then bounced with invoice.delivery_failed', async (address, error) => {
    const { account, key, invoice, jobId } = await queuedInvoice({ to: address });
    const release = holdReports();
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });
    release();
    await vi.waitFor(async () => expect((await shown(key, invoice.reference_code)).mail_status).toBe('bounced'), {
      timeout: 10_000,
      interval: 100,
    });
    const now = await shown(key, invoice.reference_code);
    expect(now.mail_error).toMatch(error);
    expect(now.sent_at).toEqual(expect.any(String)); // SES did accept it
    const events = await eventsOf(account.companyId);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.sent', 'invoice.delivery_failed']);
    expect(events[2]!.data).toEqual(now);
  });

  it("a bounce recorded before the mailer records SES's acceptance stands: bounced, one event, the mailer skips", async () => {
    const { account, key, invoice, jobId } = await queuedInvoice({ to: 'bounce+early@simulator.amazonses.com' });
    // The mailer's record of the acceptance waits until the report has been recorded (the order a slow mailer sees).
    dynamoHooks.add({
      async before(call) {
        const input = JSON.stringify(call.input);
        if (
          call.command !== 'TransactWriteItemsCommand' ||
          !input.includes(jobId) ||
          !input.includes('":state":"sent"')
        )
          return;
        await vi.waitFor(async () => expect((await getMailJob(jobId))?.state).toBe('bounced'), { timeout: 10_000 });
      },
    });
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'skipped', reason: 'the job changed concurrently' });
    const now = await shown(key, invoice.reference_code);
    expect(now).toMatchObject({ mail_status: 'bounced', sent_at: null });
    expect(now.mail_error).toMatch(/^Bounced: Permanent\/General: bounce\+early@simulator\.amazonses\.com/);
    const events = await eventsOf(account.companyId);
    expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.delivery_failed']);
    expect(events[1]!.data).toEqual(now);
  });

  it('success@simulator.amazonses.com: sent and nothing after', async () => {
    const { key, invoice, jobId } = await queuedInvoice({ to: 'success@simulator.amazonses.com' });
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });
    await new Promise((r) => setTimeout(r, 500)); // longer than the server's report delay
    expect((await shown(key, invoice.reference_code)).mail_status).toBe('sent');
  });
});

describe('at least once', () => {
  it('a failure between SES accepting and the status write leaves the job queued; the next attempt sends again', async () => {
    const { key, invoice, jobId } = await queuedInvoice({ to: 'crash@example.com' });
    dynamoHooks.add({
      before(call) {
        if (call.command === 'TransactWriteItemsCommand' && JSON.stringify(call.input).includes(jobId)) {
          throw Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' });
        }
      },
    });
    await expect(deliverMailJob(jobId)).rejects.toThrow('throttled');
    dynamoHooks.clear();
    expect(await getMailJob(jobId)).toMatchObject({ state: 'queued', attempts: 0 });
    expect((await shown(key, invoice.reference_code)).mail_status).toBe('queued');
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });
    expect(await messagesTo('crash@example.com')).toHaveLength(2); // one e-mail twice: the documented price
  });
});

describe('sending again', () => {
  it("a late report about an older send changes that send's job, never what the invoice says about the latest", async () => {
    const { account, key, invoice, jobId: older } = await queuedInvoice({ to: 'bounce+older@simulator.amazonses.com' });
    const again = await call('email-invoice', {
      key,
      ...byCode(invoice.reference_code),
      body: { to: 'new@example.com' },
    });
    expect(again.status).toBe(200);
    const newer = (await listMailJobs(account.companyId, 1))[0]!.jobId;
    expect(newer).not.toBe(older);

    const release = holdReports();
    expect(await deliverMailJob(older)).toEqual({ kind: 'delivered' });
    release();
    await vi.waitFor(async () => expect((await getMailJob(older))?.state).toBe('bounced'), { timeout: 10_000 });
    expect(await shown(key, invoice.reference_code)).toMatchObject({ mail_status: 'queued', mail_error: null });

    expect(await deliverMailJob(newer)).toEqual({ kind: 'delivered' });
    expect(await shown(key, invoice.reference_code)).toMatchObject({ mail_status: 'sent', mail_error: null });
    expect((await eventsOf(account.companyId)).map((e) => e.type)).toEqual(['invoice.created', 'invoice.sent']);
  });
});

describe('a reminder (docs/receivables.md "Reminders")', () => {
  /** A reminder's job as the sweep queues it (services/reminders.ts), for an invoice of a new account. */
  async function queuedReminder() {
    const { account, key } = await newAccount({ name: 'Acme Supplies' });
    const invoice = await createInvoice(key);
    const jobId = newMailJobId();
    const job: MailJob = {
      jobId,
      companyId: account.companyId,
      referenceCode: invoice.reference_code,
      to: invoice.client.email,
      cc: [],
      message: undefined,
      state: 'queued',
      attempts: 0,
      createdAt: '2026-11-26 08:00:00',
      lastAttemptAt: null,
      nextAttemptAt: null,
      lastError: null,
      sesMessageId: null,
      sentAt: null,
      reminder: { offset: 7, daysFromDue: 7 },
    };
    await commitTransaction([mailJobPut(tableName(), job, Date.now())]);
    return { key, invoice, jobId };
  }

  it("is sent to the client with the reminder's subject and the PDF, and leaves the invoice's mail fields alone", async () => {
    const { key, invoice, jobId } = await queuedReminder();
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'delivered' });
    const [message, ...more] = await messagesTo(invoice.client.email);
    expect(more).toEqual([]);
    expect(message!.subject).toBe(
      `Reminder: Invoice ${invoice.number} from Acme Supplies is overdue by 7 days (₦50,000.00 due)`,
    );
    expect(message!.text).toContain('A reminder from Acme Supplies: this invoice is overdue by 7 days.');
    expect(message!.attachments.map((a) => a.filename)).toEqual([`invoice-${invoice.reference_code}.pdf`]);
    expect((await getMailJob(jobId))?.state).toBe('sent');
    expect(await shown(key, invoice.reference_code)).toMatchObject({ mail_status: 'unsent', sent_at: null });
  });

  /** MM/DD/YYYY of the day `days` from today in Lagos (the test accounts' time zone). */
  function dueIn(days: number): string {
    const d = addDays(todayIn('Africa/Lagos'), days);
    return `${d.month}/${d.day}/${d.year}`;
  }

  it("an invoice's first acceptance wakes it: the next sweep sends the latest reminder due, though a sweep before the send put its wake off", async () => {
    // Prepare: a schedule set beforehand; one invoice whose −3 day has come, one whose every offset's day has come.
    const { account, key } = await newAccount({ name: 'Acme Supplies' });
    await updateAccount(account.companyId, { reminderOffsets: [-3, 0, 7, 14] });
    const items = [{ item: 'A', description: 'B', unit_cost: '10.00', quantity: '1' }];
    const soon = await createInvoice(key, { due_date: dueIn(2), items });
    const late = await createInvoice(key, { due_date: dueIn(-20), items });
    await runWakeSweep(new Date()); // Not sent yet: no reminder, the wake goes to a later day (or the index is left).
    // Act: each sent, SES accepts, then one sweep.
    for (const invoice of [soon, late]) {
      expect((await call('email-invoice', { key, ...byCode(invoice.reference_code), body: {} })).status).toBe(200);
      const job = (await listMailJobs(account.companyId, 100)).find(
        (queued) => queued.referenceCode === invoice.reference_code && queued.reminder === undefined,
      );
      expect(await deliverMailJob(job!.jobId)).toEqual({ kind: 'delivered' });
    }
    await runWakeSweep(new Date());
    await runWakeSweep(new Date());
    // Assess: one reminder each, of the latest offset whose day has come.
    const offsets = async (referenceCode: string) =>
      ((await shown(key, referenceCode)).reminders as { offset: number }[]).map((reminder) => reminder.offset);
    expect(await offsets(soon.reference_code)).toEqual([-3]);
    expect(await offsets(late.reference_code)).toEqual([14]);
    const reminderJobs = (await listMailJobs(account.companyId, 100)).filter((job) => job.reminder !== undefined);
    expect(reminderJobs.map((job) => [job.referenceCode, job.reminder?.offset]).sort()).toEqual(
      [
        [soon.reference_code, -3],
        [late.reference_code, 14],
      ].sort(),
    );
  });

  it('is not sent when the invoice was paid in full before the mailer reached it', async () => {
    const { key, invoice, jobId } = await queuedReminder();
    const body = {
      reference_code: invoice.reference_code,
      date: todayMonthFirst(),
      amount: '50,000.00',
      channel: 'Cash',
    };
    expect((await call('add-payment', { key, body })).status).toBe(201);
    expect(await deliverMailJob(jobId)).toEqual({ kind: 'failed' });
    expect(await messagesTo(invoice.client.email)).toEqual([]);
    expect((await getMailJob(jobId))?.lastError).toBe('The invoice was paid before the reminder could be sent.');
  });
});
