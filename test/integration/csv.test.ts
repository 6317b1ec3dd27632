/**
 * docs/api.md "CSV": `Accept: text/csv` on both histories, aging and statements — parsed back with a standard RFC 4180
 * parser (csv-parse), the rows hold exactly the JSON's numbers; formulas are neutralised; pages and errors.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { RouteName } from '../../shared/routes.ts';
import { type CallOptions, call, createInvoice, newAccount, todayMonthFirst } from '../support/api.ts';
import { dayOf } from '../support/days.ts';

const CSV = { accept: 'text/csv' };

const csvCall = (route: RouteName, options: CallOptions) =>
  call(route, { ...options, headers: { ...CSV, ...options.headers } });

const rowsOf = (text: string): Record<string, string>[] => parse(text, { columns: true, bom: false });

const pay = (key: string, reference_code: string, amount: string) =>
  call('add-payment', { key, body: { reference_code, date: todayMonthFirst(), amount, channel: 'POS' } });

/** Every page of a CSV listing, following `Link` (the same request with the query's cursor). */
async function csvPages(route: RouteName, key: string, body: Record<string, unknown>) {
  const pages: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await csvCall(route, { key, body, ...(cursor ? { query: { cursor } } : {}) });
    expect(page.status, page.rawBody).toBe(200);
    pages.push(page.rawBody);
    const link = page.headers.link;
    cursor = page.headers['x-next-cursor'];
    if (cursor)
      expect(link).toBe(
        `</${route === 'payment-history' ? 'payments' : 'invoices'}/history?cursor=${encodeURIComponent(cursor)}>; rel="next"`,
      );
    else expect(link).toBeUndefined();
  } while (cursor);
  return pages;
}

describe('Accept: text/csv', () => {
  it('payment history: RFC 4180 with CRLF and a header row on every page, the same rows and amounts as the JSON', async () => {
    // Prepare: 5 payments, one reversed
    const { key } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: 'Rice', description: 'Bags', unit_cost: '1000', quantity: 9 }],
    });
    const ids = [];
    for (const amount of ['100.50', '200', '1,000.00', '0.01', '42'])
      ids.push((await pay(key, invoice.reference_code, amount)).body.data.id);
    await call('reverse-payment', { key, pathParameters: { id: String(ids[0]) }, body: { reason: '=1+1 typo' } });

    // Act
    const json = (await call('payment-history', { key, body: { period: 'today', limit: 500 } })).body.data.payments;
    const pages = await csvPages('payment-history', key, { period: 'today', limit: 2 });

    // Assess
    expect(pages).toHaveLength(3);
    for (const page of pages) {
      expect(page.startsWith('id,transaction_date,amount,currency,channel,status,reference_code,')).toBe(true);
      expect(page.endsWith('\r\n')).toBe(true);
      expect(page.replace(/\r\n/g, '')).not.toContain('\n');
    }
    const rows = pages.flatMap(rowsOf);
    expect(rows.map((r) => Number(r.id))).toEqual(json.map((p: { id: number }) => p.id));
    expect(rows.map((r) => r.amount)).toEqual(json.map((p: { amount: string }) => p.amount));
    expect(rows.map((r) => r.status)).toEqual(json.map((p: { status: string }) => p.status));
    expect(new Set(rows.map((r) => r.transaction_date))).toEqual(new Set([dayOf(0).iso]));
    expect(rows.find((r) => r.status === 'reversed')?.reversal_reason).toBe("'=1+1 typo");
    expect(rows[0]).toMatchObject({
      currency: 'NGN',
      channel: 'POS',
      client_name: 'Ada Obi',
      reference_code: invoice.reference_code,
    });
  });

  it('invoice history: a hostile item or client name is neutralised; amounts and ids stay plain numbers', async () => {
    const { key } = await newAccount();
    const hostile = await createInvoice(key, {
      client: { first_name: '@SUM(A1)', last_name: 'x', email: `h${Date.now()}@example.com`, phone: '+2348012345678' },
      items: [
        { item: '=HYPERLINK("http://evil.example","Click")', description: 'd', unit_cost: '10', quantity: 1 },
        { item: 'Plain', description: 'd', unit_cost: '5', quantity: 2 },
      ],
    });
    const page = await csvCall('invoice-history', { key, body: { period: 'today' } });
    expect(page.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [row] = rowsOf(page.rawBody);
    expect(row).toMatchObject({
      id: String(hostile.id),
      reference_code: hostile.reference_code,
      items: `'=HYPERLINK("http://evil.example","Click"); Plain`,
      client_name: "'@SUM(A1) x",
      total: '20.00',
      amount_paid: '0.00',
      amount_due: '20.00',
      payment_status: 'unpaid',
    });
    expect(page.rawBody).toContain('"\'=HYPERLINK(""http://evil.example"",""Click""); Plain"');
  });

  it('aging and statements: CSV rows hold the JSON numbers, a negative balance stays -300.00', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key, {
      items: [{ item: '+Tea', description: 'd', unit_cost: '500', quantity: 1 }],
    });
    const clientId = invoice.client.id;
    const earlier = dayOf(-5);
    await call('add-payment', {
      key,
      body: { reference_code: invoice.reference_code, date: earlier.monthFirst, amount: '300', channel: 'Cash' },
    });

    const agingJson = (await call('aging-report', { key, body: {} })).body.data.clients;
    const agingCsv = rowsOf((await csvCall('aging-report', { key, body: {} })).rawBody);
    expect(agingCsv).toEqual(
      agingJson.map((c: Record<string, any>) => ({
        client_id: String(c.client_id),
        name: c.name,
        total_outstanding: c.total_outstanding,
        ...c.buckets,
        unapplied_credit: c.unapplied_credit,
      })),
    );
    const listed = rowsOf((await csvCall('aging-report', { key, body: { invoices: true } })).rawBody);
    expect(listed).toEqual([
      expect.objectContaining({
        reference_code: invoice.reference_code,
        days_overdue: '0',
        amount_due: '200.00',
        items: "'+Tea",
      }),
    ]);

    const start = earlier.dayFirst;
    const body = { period: 'custom', start, end: start };
    const json = (await call('client-statement', { key, pathParameters: { id: String(clientId) }, body })).body.data;
    const csv = await csvCall('client-statement', { key, pathParameters: { id: String(clientId) }, body });
    expect(csv.headers['x-next-cursor']).toBeUndefined();
    expect(rowsOf(csv.rawBody)).toEqual(
      json.lines.map((l: Record<string, string>) => ({
        ...l,
        date: l.date!.split('/').reverse().join('-'),
        // An invoice line's split (docs/tax.md); empty cells on the lines that have none.
        number: l.number ?? '',
        subtotal: l.subtotal ?? '',
        discount: l.discount ?? '',
        tax: l.tax ?? '',
      })),
    );
    expect(rowsOf(csv.rawBody)[0]).toMatchObject({ type: 'payment', credit: '300.00', balance: '-300.00' });
  });

  it('answers errors in JSON, and JSON for an Accept that prefers it or names neither', async () => {
    const { key } = await newAccount();
    const error = await csvCall('payment-history', { key, body: { period: 'decade' } });
    expect(error.status).toBe(400);
    expect(error.headers['content-type']).toMatch(/^application\/json/);
    expect(error.body.code).toBe('invalid_period');
    for (const accept of ['application/json, text/csv;q=0.5', 'application/xml', '*/*', 'text/html'])
      expect(
        (await call('payment-history', { key, body: { period: 'today' }, headers: { accept } })).headers[
          'content-type'
        ],
      ).toMatch(/^application\/json/);
    for (const accept of ['text/csv;q=0.9, application/json;q=0.1', 'text/*', 'TEXT/CSV'])
      expect(
        (await call('payment-history', { key, body: { period: 'today' }, headers: { accept } })).headers[
          'content-type'
        ],
      ).toBe('text/csv; charset=utf-8');
    const unauthenticated = await csvCall('aging-report', { key: 'sk_nope', body: {} });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.code).toBe('invalid_api_key');
  });

  it('matches text/csv whatever its parameters, q-values and case say (RFC 9110), on every route that answers CSV', async () => {
    const { key } = await newAccount();
    const invoice = await createInvoice(key);
    const requests: [RouteName, CallOptions][] = [
      ['payment-history', { key, body: { period: 'today' } }],
      ['invoice-history', { key, body: { period: 'today' } }],
      ['aging-report', { key, body: {} }],
      ['client-statement', { key, pathParameters: { id: String(invoice.client.id) }, body: { period: 'today' } }],
    ];
    const asCsv = [
      'text/csv; charset=utf-8',
      'text/csv;charset=UTF-8',
      'Text/CSV; Charset="utf-8"',
      'text/csv; header=present; q=0.9, application/json; q=0.5',
      'application/json;q=0.1, text/csv;charset=utf-8',
      'text/*; charset=utf-8',
    ];
    const asJson = [
      'text/csv; charset=utf-8; q=0.1, application/json',
      'text/csv; charset=utf-8; q=0',
      'application/json; charset=utf-8, text/csv; charset=utf-8; q=0.5',
    ];
    for (const [route, options] of requests)
      for (const accept of [...asCsv, ...asJson]) {
        const result = await call(route, { ...options, headers: { accept } });
        expect(result.status, `${route} ${accept}: ${result.rawBody}`).toBe(200);
        expect(result.headers['content-type'], `${route} ${accept}`).toBe(
          asCsv.includes(accept) ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        );
      }
  });
});
