/**
 * What an invoice is issued with (docs/tax.md "Documents"): its gapless number, issue date, notes and terms, the
 * client's address under "Bill to", a voided invoice shown as void with nothing due, and reminders paused at creation.
 */
import { describe, expect, it } from 'vitest';
import { clearAuthCache } from '../../shared/http/auth.ts';
import { updateAccount } from '../../shared/store/accounts.ts';
import { takeNumberAction } from '../../shared/store/document-numbers.ts';
import { tableName } from '../../shared/store/dynamodb-client.ts';
import { commitTransaction } from '../../shared/store/write-executor.ts';
import { call, createInvoice, invoiceBody, newAccount } from '../support/api.ts';
import { dayOf } from '../support/days.ts';
import { pdfText } from '../support/pdf-text.ts';

const add = (key: string, overrides: Record<string, unknown> = {}) =>
  call('add-invoice', { key, body: invoiceBody(overrides) });
/** Unix seconds of 00:00 UTC of a YYYY-MM-DD date, as the views give dates. */
const epochOf = (iso: string) => String(Date.parse(`${iso}T00:00:00Z`) / 1000);
const tokenOf = (hostedUrl: string) => new URL(hostedUrl).pathname.split('/')[2]!;
const pdfBytes = (result: { rawBody: string }) => Buffer.from(result.rawBody, 'base64');

describe('invoice numbers', () => {
  it('numbers an account’s invoices INV-000001, INV-000002 … apart from every other account’s', async () => {
    const { key } = await newAccount();
    const other = await newAccount();
    const first = await createInvoice(key);
    const second = await createInvoice(key);
    const elsewhere = await createInvoice(other.key);
    expect([first.number, second.number, elsewhere.number]).toEqual(['INV-000001', 'INV-000002', 'INV-000001']);
    const read = await call('get-invoice', { key, pathParameters: { reference_code: first.reference_code } });
    expect(read.body.data.number).toBe('INV-000001');
  });

  it('consumes no number for a refused creation or an idempotent replay', async () => {
    const { key } = await newAccount();
    const body = invoiceBody({ merchant_ref: 'A-1' });
    const first = await call('add-invoice', { key, body, idempotencyKey: 'same-key' });
    const duplicateRef = await add(key, { merchant_ref: 'A-1' });
    const replay = await call('add-invoice', { key, body, idempotencyKey: 'same-key' });
    const next = await createInvoice(key);
    expect(first.body.data.number).toBe('INV-000001');
    expect(duplicateRef.status).toBe(409);
    expect(replay.body.data.number).toBe('INV-000001');
    expect(next.number).toBe('INV-000002');
  });

  it('takes the account’s prefix at creation: a later change numbers only later invoices', async () => {
    const { key, account } = await newAccount();
    const before = await createInvoice(key);
    await updateAccount(account.companyId, { invoicePrefix: 'ACME/' });
    clearAuthCache();
    const after = await createInvoice(key);
    expect(before.number).toBe('INV-000001');
    expect(after.number).toBe('ACME/000002');
    const reread = await call('get-invoice', { key, pathParameters: { reference_code: before.reference_code } });
    expect(reread.body.data.number).toBe('INV-000001');
  });

  it('race, across processes: of two writers that read the same last number, only one takes the next', async () => {
    // Each Lambda process serves one request, so there the counter's condition alone decides (no in-process queue).
    const { key, account } = await newAccount();
    const takeFirst = () => commitTransaction([takeNumberAction(tableName(), account.companyId, 'invoice', 0)]);
    const outcomes = await Promise.allSettled([takeFirst(), takeFirst(), takeFirst()]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    const stale = await Promise.allSettled([
      commitTransaction([takeNumberAction(tableName(), account.companyId, 'invoice', 0)]),
    ]);
    expect(stale[0]!.status).toBe('rejected');
    expect((await createInvoice(key)).number).toBe('INV-000002');
  });

  it('race: concurrent creations get distinct consecutive numbers, none skipped', async () => {
    const { key } = await newAccount();
    const results = await Promise.all(Array.from({ length: 8 }, () => add(key)));
    expect(results.map((result) => result.status)).toEqual(Array(8).fill(201));
    const numbers = results.map((result) => result.body.data.number as string).sort();
    expect(numbers).toEqual(Array.from({ length: 8 }, (_, i) => `INV-00000${i + 1}`));
  });
});

describe('issue date', () => {
  it('defaults to today in the account’s time zone; a given one is kept', async () => {
    const { key } = await newAccount();
    const today = await createInvoice(key);
    const backdated = await createInvoice(key, { issue_date: dayOf(-10).monthFirst });
    expect(today.issue_date).toBe(epochOf(dayOf(0).iso));
    expect(backdated.issue_date).toBe(epochOf(dayOf(-10).iso));
  });

  it('refuses an issue date after the due date or after today (400), writing nothing', async () => {
    const { key } = await newAccount();
    const afterDue = await add(key, { issue_date: '12/31/2030', due_date: '12/30/2030' });
    const tomorrow = await add(key, { issue_date: dayOf(1).monthFirst });
    const malformed = await add(key, { issue_date: '2030-01-01' });
    for (const [result, code] of [
      [afterDue, 'invalid_date'],
      [tomorrow, 'invalid_date'],
      [malformed, 'invalid_date'],
    ] as const) {
      expect(result.status).toBe(400);
      expect(result.body.errors[0]).toMatchObject({ field: 'issue_date', code });
    }
    expect((await createInvoice(key)).number).toBe('INV-000001');
  });

  it('dates the statement line and the history listing by the issue date', async () => {
    const { key } = await newAccount();
    const backdated = await createInvoice(key, { issue_date: dayOf(-3).monthFirst });
    const statement = await call('client-statement', {
      key,
      pathParameters: { id: backdated.client_id },
      body: { period: '30' },
    });
    const line = statement.body.data.lines.find((l: { type: string }) => l.type === 'invoice');
    expect(line).toMatchObject({ date: dayOf(-3).dayFirst, number: 'INV-000001' });
    const todays = await call('invoice-history', { key, body: { period: 'today' } });
    expect(todays.body.data.invoices).toHaveLength(0);
    const custom = await call('invoice-history', {
      key,
      body: { period: 'custom', start: dayOf(-3).dayFirst, end: dayOf(-3).dayFirst },
    });
    expect(custom.body.data.invoices.map((i: { number: string }) => i.number)).toEqual(['INV-000001']);
  });
});

describe('notes, terms and the client under "Bill to"', () => {
  it('keeps notes and terms (≤ 2,000 characters) and shows them and the client’s address on the page and PDF', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, {
      client: {
        first_name: 'Ada',
        last_name: 'Obi',
        company_name: 'Obi Ventures',
        email: `notes${Date.now()}@example.com`,
        phone: '+2348012345678',
        address: '14 Broad Street\nLagos',
      },
      notes: 'Thank you for your business.',
      terms: 'Payment within 30 days.\nLate payments attract 2% a month.',
    });
    expect(invoice).toMatchObject({ notes: 'Thank you for your business.', terms: expect.stringContaining('30 days') });
    const page = await call('hosted-invoice-page', { pathParameters: { token: tokenOf(invoice.hosted_url) } });
    for (const text of ['Obi Ventures', '14 Broad Street', 'Lagos', 'Thank you for your business.', 'INV-000001'])
      expect(page.rawBody).toContain(text);
    const pdf = await call('hosted-invoice-pdf', { pathParameters: { token: tokenOf(invoice.hosted_url) } });
    const text = pdfText(pdfBytes(pdf));
    for (const expected of ['14 Broad Street', 'Thank you for your business.', 'Late payments attract', 'INV-000001'])
      expect(text).toContain(expected);
  });

  it('refuses notes or terms over 2,000 characters (400)', async () => {
    const { key } = await newAccount();
    const result = await add(key, { notes: 'n'.repeat(2001) });
    expect(result.status).toBe(400);
    expect(result.body.errors[0]).toMatchObject({ field: 'notes' });
    expect((await add(key, { terms: 't'.repeat(2000) })).status).toBe(201);
  });
});

describe('a voided invoice', () => {
  it('shows payment_status void and amount_due 0.00 in its view, the list, the filter and the CSV', async () => {
    const { key } = await newAccount();
    const voided = await createInvoice(key);
    const open = await createInvoice(key);
    const deleted = await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    expect(deleted.status).toBe(200);
    const read = await call('get-invoice', { key, pathParameters: { reference_code: voided.reference_code } });
    expect(read.body.data).toMatchObject({ payment_status: 'void', amount_due: '0.00', total: '50000.00' });
    const onlyVoid = await call('invoice-history', { key, body: { period: 'today', payment_status: 'void' } });
    expect(onlyVoid.body.data.invoices.map((i: { id: number }) => i.id)).toEqual([voided.id]);
    const unpaid = await call('invoice-history', { key, body: { period: 'today', payment_status: 'unpaid' } });
    expect(unpaid.body.data.invoices.map((i: { id: number }) => i.id)).toEqual([open.id]);
    const csv = await call('invoice-history', {
      key,
      body: { period: 'today', payment_status: 'void' },
      headers: { accept: 'text/csv' },
    });
    const [header, row] = csv.rawBody.trim().split('\r\n');
    const cells = Object.fromEntries(header!.split(',').map((name, i) => [name, row!.split(',')[i]]));
    expect(cells).toMatchObject({ amount_due: '0.00', payment_status: 'void', number: 'INV-000001' });
  });
});

describe('reminders_paused at creation', () => {
  it('creates the invoice with its reminders paused', async () => {
    const { key } = await newAccount();
    const paused = await createInvoice(key, { reminders_paused: true });
    const unpaused = await createInvoice(key, { reminders_paused: 'false' });
    expect(paused.reminders_paused).toBe(true);
    expect(unpaused.reminders_paused).toBe(false);
    const read = await call('get-invoice', { key, pathParameters: { reference_code: paused.reference_code } });
    expect(read.body.data.reminders_paused).toBe(true);
  });
});
