/**
 * Black box: invoice e-mail through `npm start` (docs/sending-invoices.md, docs/running-locally.md "E-mail"). Only what
 * a user has: HTTP with the demo key, the local SES server the banner names (its inbox's `/store`), the `.eml` files
 * under DATA_DIR/mail, `mail:deliveries`, and a webhook receiver. The SDKs' `GET /invoices/send/{ref}` and the POST
 * both queue; the mail arrives with the PDF attached (read with pdftotext: number, items, ₦ amounts) and `mail_status`
 * moves queued → sent, → bounced for the simulator's bounce address, → failed for a rejected message, each change
 * with its webhook event. Ctrl-C while SES's answer is on its way does not send the e-mail again after the restart.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceRequest } from '../support/fixtures.ts';
import { NpmStartHarness, post, type RunningService, startReceiver } from '../support/npm-start-harness.ts';
import { until } from '../support/until.ts';

let harness: NpmStartHarness;
let service: RunningService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  harness = await NpmStartHarness.create('mail-local');
  receiver = await startReceiver();
  service = await harness.start();
  await harness.cli('webhook:set', '--company-id', String(harness.companyId()), '--url', receiver.url);
}, 180_000);
afterAll(async () => {
  await harness?.cleanUp();
  receiver?.server.close();
});

const get = async (path: string) => {
  const response = await fetch(`${service.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${service.secretKey}` },
  });
  return { status: response.status, body: (await response.json()) as any };
};

async function newInvoice(email: string) {
  const created = await post(
    service,
    '/invoices',
    invoiceRequest(email, {
      items: [
        { item: 'Website Design', description: '5 pages', unit_cost: '150,000.00', quantity: '2' },
        { item: 'Hosting', description: 'One year', unit_cost: '25,500.50', quantity: '1' },
      ],
    }),
  );
  expect(created.status, created.text).toBe(201);
  return created.json().data as { id: number; number: string; reference_code: string };
}

const mailStatus = async (reference: string) => (await get(`/invoices/${reference}`)).body.data;

async function untilStatus(reference: string, status: string) {
  let last: any;
  await until(
    () => `mail_status ${status}; it stayed ${last?.mail_status}: ${JSON.stringify(last)}`,
    async () => (last = await mailStatus(reference)).mail_status === status,
    60_000,
    200,
  );
  return last;
}

/** The `.eml` files sent to `address`, parsed. */
async function emlTo(address: string): Promise<ParsedMail[]> {
  const directory = join(harness.dataDir, 'mail');
  const files = readdirSync(directory).filter((name) => name.endsWith('.eml'));
  const mails = await Promise.all(files.map((name) => simpleParser(readFileSync(join(directory, name)))));
  return mails.filter((mail) => JSON.stringify(mail.to).includes(address));
}

const untilEml = (address: string) =>
  until(`an e-mail to ${address}`, async () => (await emlTo(address)).length > 0, 60_000, 100);

/**
 * The event types an invoice's webhooks carried, in the order the events were written: delivery order is not
 * guaranteed (docs/webhooks.md "Delivery"), the event id (`evt_` + ULID) sorts by creation.
 */
const typesFor = (invoiceId: number) =>
  receiver.received
    .filter((w) => w.dataId === invoiceId)
    .sort((a, b) => (a.webhookId < b.webhookId ? -1 : a.webhookId > b.webhookId ? 1 : 0))
    .map((w) => w.type);

describe('invoice e-mail through npm start', () => {
  it("names the local SES inbox in the banner; the SDKs' GET send delivers the e-mail with the PDF attached", async () => {
    const inbox = /read sent mail in a browser at (http:\/\/\S+)/.exec(service.output())?.[1];
    expect(inbox).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const invoice = await newInvoice('ada.blackbox@example.com');
    const queued = await get(`/invoices/send/${invoice.reference_code}`);
    expect(queued.status).toBe(200);
    expect(queued.body).toMatchObject({ status: 'success', message: 'Invoice queued for sending.' });
    expect(queued.body.data.mail_status).toBe('queued');

    const sent = await untilStatus(invoice.reference_code, 'sent');
    expect(sent.sent_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const [mail, ...more] = await emlTo('ada.blackbox@example.com');
    expect(more).toEqual([]);
    expect(mail!.from?.value[0]).toMatchObject({ address: 'invoices@example.com' });
    expect(mail!.subject).toContain(`Invoice ${invoice.number}`);
    const pdf = mail!.attachments.find((a) => a.contentType === 'application/pdf');
    expect(pdf?.filename).toBe(`invoice-${invoice.reference_code}.pdf`);
    const pdfFile = join(harness.dataDir, 'attached.pdf');
    writeFileSync(pdfFile, pdf!.content);
    const text = execFileSync('pdftotext', ['-layout', pdfFile, '-'], { encoding: 'utf8' });
    for (const expected of [
      invoice.number,
      invoice.reference_code,
      'Website Design',
      'Hosting',
      '₦300,000.00',
      '₦325,500.50',
    ])
      expect(text).toContain(expected);

    // The same message in the package's inbox (what the browser view reads).
    const store = (await (await fetch(`${inbox}/store`)).json()) as { emails: { subject: string }[] };
    expect(store.emails.map((e) => e.subject)).toContain(mail!.subject);
    await until('invoice.sent', () => typesFor(invoice.id).includes('invoice.sent'));
  });

  it('the simulator bounce address: sent, then bounced, with invoice.sent then invoice.delivery_failed', async () => {
    const invoice = await newInvoice('bounce.owner@example.com');
    const queued = await post(service, `/invoices/${invoice.reference_code}/send`, {
      to: 'bounce@simulator.amazonses.com',
      message: 'Second notice',
    });
    expect(queued.status, queued.text).toBe(200);
    const bounced = await untilStatus(invoice.reference_code, 'bounced');
    expect(bounced.mail_error).toMatch(/^Bounced: Permanent\/General: bounce@simulator\.amazonses\.com/);
    await until('invoice.delivery_failed', () => typesFor(invoice.id).includes('invoice.delivery_failed'));
    expect(typesFor(invoice.id).filter((t) => t.startsWith('invoice.') && t !== 'invoice.created')).toEqual([
      'invoice.sent',
      'invoice.delivery_failed',
    ]);
  });

  it('a rejected message (a .invalid recipient): failed with mail_error and invoice.delivery_failed, nothing sent', async () => {
    const invoice = await newInvoice('reject.owner@example.com');
    const queued = await post(service, `/invoices/${invoice.reference_code}/send`, { to: 'nobody@shop.invalid' });
    expect(queued.status).toBe(200);
    const failed = await untilStatus(invoice.reference_code, 'failed');
    expect(failed.mail_error).toMatch(/^MessageRejected \(HTTP 400\)/);
    await until('invoice.delivery_failed', () => typesFor(invoice.id).includes('invoice.delivery_failed'));
    expect(typesFor(invoice.id)).not.toContain('invoice.sent');
    expect(await emlTo('nobody@shop.invalid')).toEqual([]);
  });

  it('mail:deliveries lists each send with its outcome, newest first', async () => {
    const lines = await harness.cliLines('mail:deliveries', '--company-id', String(harness.companyId()));
    expect(lines.map((line) => [line.to, line.state])).toEqual([
      ['nobody@shop.invalid', 'failed'],
      ['bounce@simulator.amazonses.com', 'bounced'],
      ['ada.blackbox@example.com', 'sent'],
    ]);
    expect(lines[2]).toMatchObject({ attempts: 1, last_error: null, sent_at: expect.any(String) });
    // Times as every CLI command prints them (docs/accounts.md): UTC `YYYY-MM-DD HH:MM:SS`, or null.
    const TIMESTAMP = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
    for (const line of lines) {
      expect(line.last_attempt_at).toMatch(TIMESTAMP);
      for (const field of ['created_at', 'next_attempt_at', 'sent_at'])
        expect(line[field] === null || TIMESTAMP.test(String(line[field])), `${field}: ${line[field]}`).toBe(true);
    }
  });

  it('Ctrl-C while SES has accepted an e-mail and its answer is on its way: after the restart it is not sent again', async () => {
    const inbox = /read sent mail in a browser at (http:\/\/\S+)/.exec(service.output())![1]!;
    const slow = { kind: 'slow_answer', count: 1, delay_ms: 3_000 };
    expect((await fetch(`${inbox}/_local/faults`, { method: 'POST', body: JSON.stringify(slow) })).status).toBe(204);
    const invoice = await newInvoice('stop.midway@example.com');
    expect((await get(`/invoices/send/${invoice.reference_code}`)).status).toBe(200);
    await untilEml('stop.midway@example.com'); // accepted by SES; the mailer waits for the answer for 3 s more

    const stopped = await harness.stop(); // SIGINT to npm, node and Java at once, as Ctrl-C in a terminal sends
    expect(stopped.code, service.output()).toBe(0);
    service = await harness.start();

    // A second attempt would keep its .eml before its answer, and its answer before `sent` is recorded.
    expect((await untilStatus(invoice.reference_code, 'sent')).mail_status).toBe('sent');
    expect(await emlTo('stop.midway@example.com')).toHaveLength(1);
  });
});
