/**
 * The send routes (docs/api.md "Send an invoice"): `GET /invoices/send/{reference_code}` (the SDKs' call) and
 * `POST /invoices/{reference_code}/send`, through API Gateway-shaped events on DynamoDB Local. A send commits
 * `mail_status` `queued` and one mail job in one transaction; what the mailer does with the job is
 * test/integration/mailer.test.ts.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { getMailJob, listMailJobs } from '../../shared/store/mail.ts';
import { call, createInvoice, newAccount } from '../support/api.ts';
import { useEnvironment, WITH_MAIL_SENDER } from '../support/environment.ts';

const byCode = (reference_code: string) => ({ pathParameters: { reference_code } });
/** Control characters mail software drops or rewrites: NUL, BS, ESC, DEL and two of C1 (NEL, APC). */
const CONTROL_CHARACTERS = ['\u0000', '\b', '\u001b', '\u007f', '\u0085', '\u009f'];
useEnvironment(WITH_MAIL_SENDER);

describe('GET /invoices/send/{reference_code} (the SDKs)', () => {
  it("answers 200 with the invoice queued for its client's address, and commits one mail job", async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    expect(invoice).toMatchObject({ mail_status: 'unsent', sent_at: null, mail_error: null });
    const result = await call('send-invoice', { key, ...byCode(invoice.reference_code) });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ status: 'success', message: 'Invoice queued for sending.' });
    expect(result.body.data).toEqual({ ...invoice, mail_status: 'queued' });
    const shown = await call('get-invoice', { key, ...byCode(invoice.reference_code) });
    expect(shown.body.data).toEqual(result.body.data);
    const jobs = await listMailJobs(account.companyId, 10);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      referenceCode: invoice.reference_code,
      to: invoice.client.email,
      cc: [],
      state: 'queued',
      attempts: 0,
    });
  });

  it('queues a new e-mail each time it is called (each with its own job); the invoice names the latest', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    for (let i = 0; i < 3; i++)
      expect((await call('send-invoice', { key, ...byCode(invoice.reference_code) })).status).toBe(200);
    const jobs = await listMailJobs(account.companyId, 10);
    expect(jobs).toHaveLength(3);
    expect(new Set(jobs.map((job) => job.jobId)).size).toBe(3);
  });

  it('refuses a voided invoice with 409 invoice_deleted, and queues nothing', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    expect((await call('delete-invoice', { key, ...byCode(invoice.reference_code) })).status).toBe(200);
    const result = await call('send-invoice', { key, ...byCode(invoice.reference_code) });
    expect(result.status).toBe(409);
    expect(result.body.code).toBe('invoice_deleted');
    expect(await listMailJobs(account.companyId, 10)).toEqual([]);
  });

  it("answers 404 for an unknown invoice and for another account's (indistinguishable)", async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const foreign = await createInvoice(other.key);
    const unknown = await call('send-invoice', { key, ...byCode('A'.repeat(20)) });
    const theirs = await call('send-invoice', { key, ...byCode(foreign.reference_code) });
    expect([unknown.status, theirs.status]).toEqual([404, 404]);
    expect(theirs.body).toMatchObject({ code: 'invoice_not_found', message: unknown.body.message });
    expect(await listMailJobs(other.account.companyId, 10)).toEqual([]);
  });

  it('answers 422 recipient_missing when the client has no e-mail address and no `to` is given', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    // A client without an address (data from before e-mail was required): blank the invoice's copy of the client.
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceBody(invoice.reference_code),
        UpdateExpression: 'SET #client.email = :blank',
        ExpressionAttributeNames: { '#client': 'client' },
        ExpressionAttributeValues: { ':blank': '' },
      }),
    );
    const result = await call('send-invoice', { key, ...byCode(invoice.reference_code) });
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ code: 'recipient_missing', errors: [{ code: 'required', field: 'to' }] });
    const posted = await call('email-invoice', {
      key,
      ...byCode(invoice.reference_code),
      body: { to: 'ada@example.com' },
    });
    expect(posted.status).toBe(200);
  });

  it("answers 422 recipient_missing when the client's saved address has a control character and no `to` is given", async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    // An address saved before such addresses were refused.
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceBody(invoice.reference_code),
        UpdateExpression: 'SET #client.email = :email',
        ExpressionAttributeNames: { '#client': 'client' },
        ExpressionAttributeValues: { ':email': 'ct\u0000rl@example.com' },
      }),
    );
    const result = await call('send-invoice', { key, ...byCode(invoice.reference_code) });
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ code: 'recipient_missing', errors: [{ code: 'invalid_email', field: 'to' }] });
    expect(await listMailJobs(account.companyId, 10)).toEqual([]);
  });

  it('answers 401 without a key, before anything else', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    expect((await call('send-invoice', { ...byCode(invoice.reference_code) })).status).toBe(401);
  });

  it('answers 501 mail_not_configured, naming the stage setting, on a stage without a sender', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    process.env.MAIL_FROM = '';
    resetConfig();
    try {
      for (const route of ['send-invoice', 'email-invoice'] as const) {
        const result = await call(route, { key, ...byCode(invoice.reference_code) });
        expect(result.status).toBe(501);
        expect(result.body.code).toBe('mail_not_configured');
        expect(result.body.message).toMatch(/mailFrom/);
      }
    } finally {
      process.env.MAIL_FROM = 'invoices@example.com';
      resetConfig();
    }
    expect(await listMailJobs(account.companyId, 10)).toEqual([]);
  });

  it('on a stage without a sender, still answers 404 for an unknown or foreign invoice, and stores no 501 for the key', async () => {
    const { account, key } = await newAccount();
    const other = await newAccount();
    const invoice = await createInvoice(key);
    const foreign = await createInvoice(other.key);
    const keyed = { key, ...byCode(invoice.reference_code), idempotencyKey: 'send-before-mailfrom' };
    process.env.MAIL_FROM = '';
    resetConfig();
    try {
      for (const reference_code of ['ZZZZZZZZZZZZZZZZZZZZ', foreign.reference_code]) {
        const result = await call('send-invoice', { key, ...byCode(reference_code) });
        expect([result.status, result.body.code], reference_code).toEqual([404, 'invoice_not_found']);
      }
      expect((await call('send-invoice', keyed)).status).toBe(501);
    } finally {
      process.env.MAIL_FROM = 'invoices@example.com';
      resetConfig();
    }
    // The operator set the sender: the same request with the same key now sends (the 501 was not its outcome).
    const retried = await call('send-invoice', keyed);
    expect(retried.status).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await listMailJobs(account.companyId, 10)).toHaveLength(1);
  });
});

describe('POST /invoices/{reference_code}/send', () => {
  it('sends to `to` with `cc` (without repeats) and the note, kept on the job', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    const body = {
      to: 'boss@client.ng',
      cc: ['a@client.ng', 'BOSS@client.ng', 'a@client.ng', 'b@client.ng'],
      message: ' Thanks!\nSee you. ',
    };
    const result = await call('email-invoice', { key, ...byCode(invoice.reference_code), body });
    expect(result.status).toBe(200);
    expect(result.body.data.mail_status).toBe('queued');
    const [job] = await listMailJobs(account.companyId, 10);
    expect(job).toMatchObject({
      to: 'boss@client.ng',
      cc: ['a@client.ng', 'b@client.ng'],
      message: 'Thanks!\nSee you.',
    });
  });

  it('accepts an empty body (the client of the invoice)', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    for (const options of [{}, { body: '' }, { body: {} }]) {
      const result = await call('email-invoice', { key, ...byCode(invoice.reference_code), ...options });
      expect(result.status, result.rawBody).toBe(200);
    }
    const jobs = await listMailJobs(account.companyId, 10);
    expect(jobs.map((job) => job.to)).toEqual([invoice.client.email, invoice.client.email, invoice.client.email]);
  });

  it('validates `to`, every `cc` (at most 10) and `message` (at most 1000 characters)', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const body = { to: 'not-an-address', cc: ['ok@example.com', 'bad'], message: 'x'.repeat(1001) };
    const result = await call('email-invoice', { key, ...byCode(invoice.reference_code), body });
    expect(result.status).toBe(400);
    expect(result.body.errors).toEqual([
      expect.objectContaining({ code: 'invalid_email', field: 'to' }),
      expect.objectContaining({ code: 'invalid_email', field: 'cc.1' }),
      expect.objectContaining({ code: 'too_long', field: 'message' }),
    ]);
    const many = { cc: Array.from({ length: 11 }, (_, i) => `c${i}@example.com`) };
    const tooMany = await call('email-invoice', { key, ...byCode(invoice.reference_code), body: many });
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ code: 'too_many', field: 'cc' })]);
  });

  it('counts characters, not UTF-16 units: 1000 emoji are a message, 1001 are too long (as JSON Schema maxLength)', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const send = (message: string) =>
      call('email-invoice', { key, ...byCode(invoice.reference_code), body: { message } });
    expect((await send('🙏'.repeat(1000))).status).toBe(200);
    const tooLong = await send('🙏'.repeat(1001));
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ code: 'too_long', field: 'message' })]);
  });

  it('refuses an address with a control character in `to` or `cc` (mail would reach another mailbox); queues nothing', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    for (const control of CONTROL_CHARACTERS) {
      const body = { to: `ct${control}rl@example.com`, cc: ['ok@example.com', `c${control}c@example.com`] };
      const result = await call('email-invoice', { key, ...byCode(invoice.reference_code), body });
      expect(result.status, JSON.stringify(control)).toBe(400);
      expect(result.body).toMatchObject({
        code: 'validation_failed',
        errors: [
          { code: 'invalid_email', field: 'to' },
          { code: 'invalid_email', field: 'cc.1' },
        ],
      });
    }
    expect(await listMailJobs(account.companyId, 10)).toEqual([]);
  });

  it('replays a keyed send without queueing a second e-mail; another body with the same key is 422', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    const options = { key, ...byCode(invoice.reference_code), idempotencyKey: 'send-1', body: { message: 'Hi' } };
    const first = await call('email-invoice', options);
    const replay = await call('email-invoice', options);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.rawBody).toBe(first.rawBody);
    expect(await listMailJobs(account.companyId, 10)).toHaveLength(1);
    const other = await call('email-invoice', { ...options, body: { message: 'Hello' } });
    expect([other.status, other.body.code]).toEqual([422, 'idempotency_key_reused']);
    // The key is scoped to the invoice too: the same key and body on another invoice is not a replay.
    const second = await createInvoice(key);
    const elsewhere = await call('email-invoice', { ...options, ...byCode(second.reference_code) });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('matches a keyed send on its normalised recipients: a repeated copy, or one to `to`, is the same send', async () => {
    const { account, key } = await newAccount();
    const invoice = await createInvoice(key);
    const send = (body: Record<string, unknown>) =>
      call('email-invoice', { key, ...byCode(invoice.reference_code), idempotencyKey: 'send-cc', body });
    expect(
      (await send({ to: 'a@example.com', cc: ['c1@example.com', 'C1@example.com', 'a@example.com'] })).status,
    ).toBe(200);
    const replay = await send({ to: 'a@example.com', cc: ['c1@example.com'] });
    expect([replay.status, replay.headers['idempotent-replayed']]).toEqual([200, 'true']);
    expect(await listMailJobs(account.companyId, 10)).toHaveLength(1);
  });

  it('stores a refusal for the key: a replay of a 409 answers the same 409', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    await call('delete-invoice', { key, ...byCode(invoice.reference_code) });
    const options = { key, ...byCode(invoice.reference_code), idempotencyKey: 'send-voided' };
    const first = await call('send-invoice', options);
    const again = await call('send-invoice', options);
    expect([first.status, again.status, again.headers['idempotent-replayed']]).toEqual([409, 409, 'true']);
  });

  it('keeps a payment and a send independent: neither refuses the other, and both show on the invoice', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const [sent, paid] = await Promise.all([
      call('send-invoice', { key, ...byCode(invoice.reference_code) }),
      call('add-payment', {
        key,
        body: { reference_code: invoice.reference_code, amount: '10', date: '01/02/2024', channel: 'Cash' },
      }),
    ]);
    expect([sent.status, paid.status]).toEqual([200, 201]);
    const shown = (await call('get-invoice', { key, ...byCode(invoice.reference_code) })).body.data;
    expect(shown).toMatchObject({ mail_status: 'queued', amount_paid: '10.00' });
    const job = await getMailJob((await listMailJobs(Number(invoice.company_id), 1))[0]!.jobId);
    expect(job?.state).toBe('queued');
  });
});
