/**
 * docs/receivables.md "One client: the statement": a client's statement as a PDF (`Accept: application/pdf` on
 * POST /clients/{id}/statement, read back with pdftotext) and by e-mail (POST /clients/{id}/statement/send: the job it
 * commits, then `deliverMailJob` drawing the PDF and sending it to the real local SES server), through API
 * Gateway-shaped events on DynamoDB Local.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as mailEventsHandler } from '../../functions/mail-events/handler.ts';
import { resetConfig } from '../../shared/config.ts';
import { checkLogo, LOGO_CID } from '../../shared/domain/logo.ts';
import { deliverMailJob } from '../../shared/services/mail-delivery.ts';
import { setAccountLogo } from '../../shared/store/account-logo.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { getMailJob, listMailJobs } from '../../shared/store/mail.ts';
import { call, createInvoice, newAccount, todayMonthFirst, uniqueEmail } from '../support/api.ts';
import { dayOf } from '../support/days.ts';
import { seedLedgerLines } from '../support/ledger-seed.ts';
import { useLocalSes } from '../support/local-ses.ts';
import { pdfImages, pdfText } from '../support/pdf-text.ts';
import { solidPng } from '../support/png.ts';

const mail = useLocalSes({ from: 'statements@example.com', onNotice: mailEventsHandler });

const PDF = { accept: 'application/pdf' };
const pdfBytes = (result: { rawBody: string }) => Buffer.from(result.rawBody, 'base64');

/** An account with a profile, a client with two invoices (₦2,000 and ₦1,234,567.89) and a payment of ₦700. */
async function clientWithActivity() {
  const { account, key } = await newAccount({ name: 'Adebayo & Sons' });
  await updateAccount(account.companyId, { profile: { address: '14 Awolowo Road\nLagos', taxId: '20948811-0001' } });
  const email = uniqueEmail();
  const first = await createInvoice(key, {
    client: { first_name: 'Chiamaka', last_name: 'Okafor', email, phone: '+2348012345678', company_name: 'Okafor Ltd' },
    items: [{ item: 'Bags', description: 'Jute', unit_cost: '1000', quantity: 2 }],
  });
  const clientId = first.client.id as number;
  const second = await createInvoice(key, {
    client: undefined,
    client_id: clientId,
    items: [{ item: 'Shoes', description: 'Leather', unit_cost: '1234567.89', quantity: 1 }],
  });
  const payment = { reference_code: first.reference_code, date: todayMonthFirst(), amount: '700', channel: 'Cash' };
  expect((await call('add-payment', { key, body: payment })).status).toBe(201);
  return { account, key, clientId, email, first, second };
}

const statementPdf = (key: string, id: number | string, body: unknown = { period: 'today' }) =>
  call('client-statement', { key, pathParameters: { id: String(id) }, body, headers: PDF });

describe('POST /clients/{id}/statement with Accept: application/pdf', () => {
  it('answers the statement as a PDF whose text is what the JSON says, in words and ₦', async () => {
    const { key, clientId, first, second } = await clientWithActivity();

    const result = await statementPdf(key, clientId);

    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toBe('application/pdf');
    const today = dayOf(0).iso;
    expect(result.headers['content-disposition']).toBe(
      `inline; filename="statement-${clientId}-${today}-${today}.pdf"`,
    );
    const pdf = pdfBytes(result);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [
      'Adebayo & Sons',
      'STATEMENT',
      'Chiamaka Okafor',
      'Okafor Ltd',
      `Invoice ${first.number}`,
      `Invoice ${second.number}`,
      `Payment ${first.number}`,
      `Ref. ${first.reference_code}`,
      `Ref. ${second.reference_code}`,
      '₦2,000.00',
      '₦1,234,567.89',
      '₦700.00',
      'Opening balance',
      'Closing balance',
      '₦1,235,867.89', // 2,000 + 1,234,567.89 − 700
    ])
      expect(text).toContain(expected);
  });

  it('keeps errors as the JSON envelope: a foreign client 404, a bad period 400', async () => {
    const { clientId } = await clientWithActivity();
    const other = await newAccount();

    const foreign = await statementPdf(other.key, clientId);
    const badPeriod = await statementPdf(other.key, clientId, { period: 'decade' });

    expect(foreign.status).toBe(404);
    expect(foreign.headers['content-type']).toMatch(/^application\/json/);
    expect(foreign.body).toMatchObject({ status: 'error', code: 'client_not_found' });
    expect([badPeriod.status, badPeriod.body.code]).toEqual([400, 'invalid_period']);
    expect(badPeriod.body.code).toBe('invalid_period');
  });

  it('prefers JSON for */* and CSV for text/csv on the same route', async () => {
    const { key, clientId } = await clientWithActivity();
    const as = (accept: string) =>
      call('client-statement', {
        key,
        pathParameters: { id: String(clientId) },
        body: { period: 'today' },
        headers: { accept },
      });
    expect((await as('*/*')).headers['content-type']).toMatch(/^application\/json/);
    expect((await as('text/csv')).headers['content-type']).toBe('text/csv; charset=utf-8');
    expect((await as('application/pdf;q=0.9, application/json;q=0.1')).headers['content-type']).toBe('application/pdf');
  });
});

const send = (key: string, id: number | string, body: unknown, idempotencyKey?: string) =>
  call('send-client-statement', { key, pathParameters: { id: String(id) }, body, idempotencyKey });

const messagesTo = (address: string) => mail.messagesTo(address, { keepCidLinks: true });

describe('POST /clients/{id}/statement/send', () => {
  it("queues the statement to the client's address; the mailer sends it with its PDF", async () => {
    const { account, key, clientId, email } = await clientWithActivity();

    const sent = await send(key, clientId, { period: 'today' });

    expect(sent.status).toBe(200);
    const today = dayOf(0).dayFirst;
    expect(sent.body.data).toMatchObject({
      client_id: clientId,
      period: 'today',
      start: today,
      end: today,
      to: email,
      mail_status: 'queued',
    });
    const [job] = await listMailJobs(account.companyId, 1);
    expect(job).toMatchObject({ jobId: sent.body.data.job_id, state: 'queued', referenceCode: '', to: email });
    expect(job!.statement).toEqual({ clientId, from: dayOf(0).iso, to: dayOf(0).iso });

    expect(await deliverMailJob(job!.jobId)).toEqual({ kind: 'delivered' });

    const [message, ...more] = await messagesTo(email);
    expect(more).toEqual([]);
    expect(message!.from?.value).toEqual([{ name: 'Adebayo & Sons', address: 'statements@example.com' }]);
    expect(message!.subject).toContain('Statement from Adebayo & Sons');
    expect(message!.text).toContain('Closing balance');
    expect(message!.text).toContain('₦1,235,867.89');
    const [attachment, ...others] = message!.attachments;
    expect(others).toEqual([]); // no logo, no inline image
    expect(attachment!.contentType).toBe('application/pdf');
    expect(pdfText(attachment!.content)).toContain('Chiamaka Okafor');
    expect(await getMailJob(job!.jobId)).toMatchObject({ state: 'sent', attempts: 1 });
  });

  it("shows the merchant's logo inline (cid:) in the e-mail, and in the attached PDF", async () => {
    const { account, key, clientId, email } = await clientWithActivity();
    const png = solidPng(90, 30);
    const logo = checkLogo({ format: 'png', width: 90, height: 30, bytes: png });
    if (!logo.ok) throw new Error(logo.message);
    await setAccountLogo(account.companyId, logo.value);

    const sent = await send(key, clientId, { period: 'today' });
    expect(await deliverMailJob(sent.body.data.job_id)).toEqual({ kind: 'delivered' });

    const [message] = await messagesTo(email);
    expect(message!.html).toContain(`<img src="cid:${LOGO_CID}" alt="Adebayo &amp; Sons"`);
    const inline = message!.attachments.find((attachment) => attachment.cid === LOGO_CID);
    expect(inline?.contentType).toBe('image/png');
    expect(Buffer.from(inline!.content).equals(png)).toBe(true);
    const pdf = message!.attachments.find((attachment) => attachment.contentType === 'application/pdf')!;
    expect(pdfImages(pdf.content)).toEqual([{ width: 90, height: 30 }]);
  });

  it('sends to `to` when given; 422 recipient_missing without one for a client without an address', async () => {
    const { account, key, clientId } = await clientWithActivity();
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.client(account.companyId, clientId),
        UpdateExpression: 'SET email = :blank',
        ExpressionAttributeValues: { ':blank': '' },
      }),
    );

    const missing = await send(key, clientId, { period: 'month' });
    const given = await send(key, clientId, { period: 'month', to: 'books@example.com' });

    expect([missing.status, missing.body.code]).toEqual([422, 'recipient_missing']);
    expect(given.status).toBe(200);
    expect(given.body.data.to).toBe('books@example.com');
    expect(await listMailJobs(account.companyId, 10)).toHaveLength(1);
  });

  it('refuses bad input with nothing queued: a foreign client 404, a bad period or address 400', async () => {
    const { account, key, clientId } = await clientWithActivity();
    const other = await newAccount();

    const foreign = await send(other.key, clientId, { period: 'today' });
    const badPeriod = await send(key, clientId, { period: 'custom', start: '01/01/2026' });
    const badAddress = await send(key, clientId, { period: 'today', to: 'not-an-address' });

    expect([foreign.status, foreign.body.code]).toEqual([404, 'client_not_found']);
    expect([badPeriod.status, badPeriod.body.code]).toEqual([400, 'invalid_period']);
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.code).toBe('validation_failed');
    expect(await listMailJobs(account.companyId, 10)).toEqual([]);
    expect(await listMailJobs(other.account.companyId, 10)).toEqual([]);
  });

  it('refuses a period with more than 5,000 lines: 400 statement_too_large, nothing queued', {
    timeout: 120_000,
  }, async () => {
    const { key, account, clientId } = await clientWithActivity();
    await seedLedgerLines(account.companyId, clientId, dayOf(0).iso, 5001);

    const result = await send(key, clientId, { period: 'today' });

    expect([result.status, result.body.code], result.rawBody).toEqual([400, 'statement_too_large']);
    expect(await listMailJobs(account.companyId, 10)).toEqual([]);
  });

  it('replays a keyed send: one job for two requests with the same Idempotency-Key', async () => {
    const { account, key, clientId } = await clientWithActivity();

    const first = await send(key, clientId, { period: 'today' }, 'statement-once');
    const again = await send(key, clientId, { period: 'today' }, 'statement-once');
    const other = await send(key, clientId, { period: 'month' }, 'statement-once');

    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.job_id).toBe(first.body.data.job_id);
    expect([other.status, other.body.code]).toEqual([422, 'idempotency_key_reused']);
    expect(await listMailJobs(account.companyId, 10)).toHaveLength(1);
  });

  it('answers 501 mail_not_configured on a stage without a sender, with nothing queued', async () => {
    const { account, key, clientId } = await clientWithActivity();
    process.env.MAIL_FROM = '';
    resetConfig();
    try {
      const refused = await send(key, clientId, { period: 'today' });
      expect([refused.status, refused.body.code]).toEqual([501, 'mail_not_configured']);
    } finally {
      process.env.MAIL_FROM = 'statements@example.com';
      resetConfig();
    }
    expect(await listMailJobs(account.companyId, 10)).toEqual([]);
  });
});
