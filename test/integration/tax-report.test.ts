/**
 * docs/tax.md "Tax report": POST /reports/tax through API Gateway-shaped events on DynamoDB Local — the report equals
 * the sum of the invoices, credit notes and payments made in the test, a void and a reversal are reversing entries on
 * their own day, another account sees nothing, the CSV holds the JSON's numbers, and a bad period is the envelope's 400.
 */
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { addDays, type CalendarDate, todayIn } from '../../shared/domain/dates.ts';
import { serviceLine, vatAccount } from '../support/accounts.ts';
import { call, invoiceBody, newAccount } from '../support/api.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const monthFirst = (d: CalendarDate) => `${pad(d.month)}/${pad(d.day)}/${d.year}`;
const dayFirst = (d: CalendarDate) => `${pad(d.day)}/${pad(d.month)}/${d.year}`;
const kobo = (amount: string) => {
  const [whole, cents] = amount.replace('-', '').split('.');
  const value = Number(whole) * 100 + Number(cents);
  return amount.startsWith('-') ? -value : value;
};
const money = (k: number) => `${k < 0 ? '-' : ''}${Math.floor(Math.abs(k) / 100)}.${pad(Math.abs(k) % 100)}`;

async function invoice(key: string, items: unknown[], extra: Record<string, unknown> = {}) {
  const created = await call('add-invoice', { key, body: invoiceBody({ items, ...extra }) });
  expect(created.status, created.rawBody).toBe(201);
  return created.body.data;
}

const report = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call('tax-report', { key, body, headers });

interface Taxed {
  total: string;
  tax_total: string;
  discount_total: string;
  taxes: { category: string; taxable: string; amount: string }[];
}

/** Σ of documents (credit notes with `sign` −1) as the report adds them up. */
function sumOf(documents: { document: Taxed; sign: number }[]) {
  const sum = { total: 0, vat: 0, discounts: 0, standard: 0, zero: 0, exempt: 0 };
  for (const { document, sign } of documents) {
    sum.total += sign * kobo(document.total);
    sum.vat += sign * kobo(document.tax_total);
    sum.discounts += sign * kobo(document.discount_total);
    for (const entry of document.taxes)
      sum[entry.category as 'standard' | 'zero' | 'exempt'] += sign * kobo(entry.taxable);
  }
  return sum;
}

describe('POST /reports/tax', () => {
  it('equals the sum of the period’s invoices, credit notes and withholding tax; voids and reversals net out', async () => {
    // Prepare
    const { key } = await vatAccount();
    const today = todayIn('Africa/Lagos');
    const first = await invoice(key, [
      serviceLine('1000.00'),
      serviceLine('100.00', { tax: 'zero' }),
      serviceLine('60.00', { tax: 'exempt', discount: '10.00' }),
    ]);
    const backDated = await invoice(key, [serviceLine('200.00')], { issue_date: monthFirst(addDays(today, -1)) });
    const voided = await invoice(key, [serviceLine('500.00')]);
    const note = await call('create-credit-note', {
      key,
      pathParameters: { reference_code: first.reference_code },
      body: { reason: 'Returned', items: [serviceLine('100.00')] },
    });
    expect(note.status, note.rawBody).toBe(201);
    expect(
      (await call('delete-invoice', { key, pathParameters: { reference_code: voided.reference_code } })).status,
    ).toBe(200);
    const pay = (amount: string, wht_amount: string) =>
      call('add-payment', {
        key,
        body: { reference_code: first.reference_code, date: monthFirst(today), amount, channel: 'Cash', wht_amount },
      });
    expect((await pay('100.00', '10.00')).status).toBe(201);
    const reversed = await pay('50.00', '5.00');
    const reversal = await call('reverse-payment', {
      key,
      pathParameters: { id: String(reversed.body.data.id) },
      body: { reason: 'Recorded twice' },
    });
    expect(reversal.status, reversal.rawBody).toBe(200);

    // Act
    const todays = await report(key, { period: 'today' });
    const both = await report(key, { period: 'custom', start: dayFirst(addDays(today, -1)), end: dayFirst(today) });

    // Assert
    expect(todays.status, todays.rawBody).toBe(200);
    const expected = sumOf([
      { document: first, sign: 1 },
      { document: note.body.data, sign: -1 },
    ]);
    const data = todays.body.data;
    expect(data).toMatchObject({ period: 'today', start: dayFirst(today), end: dayFirst(today), currency: 'NGN' });
    expect(data.output_vat).toEqual([{ rate: '7.5', taxable: money(expected.standard), vat: money(expected.vat) }]);
    expect(data).toMatchObject({
      vat_total: money(expected.vat),
      taxable: money(expected.standard),
      zero_rated: money(expected.zero),
      exempt: money(expected.exempt),
      outside_vat: '0.00',
      discounts: money(expected.discounts),
      total: money(expected.total),
      wht_suffered: '10.00',
      counts: { invoices: 2, credit_notes: 1, voids: 1, wht_payments: 2, wht_reversals: 1 },
    });
    // The back-dated invoice counts on its issue day, yesterday.
    const withYesterday = sumOf([
      { document: first, sign: 1 },
      { document: note.body.data, sign: -1 },
      { document: backDated, sign: 1 },
    ]);
    expect(both.body.data).toMatchObject({ total: money(withYesterday.total), vat_total: money(withYesterday.vat) });
    expect(both.body.data.counts.invoices).toBe(3);
  });

  it('a void of an invoice with a credit note takes off only what the invoice still counted for', async () => {
    // Prepare
    const { key } = await vatAccount();
    const credited = await invoice(key, [serviceLine('400.00'), serviceLine('100.00', { tax: 'zero' })]);
    const note = await call('create-credit-note', {
      key,
      pathParameters: { reference_code: credited.reference_code },
      body: { reason: 'Discount agreed', amount: '53.75' },
    });
    expect(note.status, note.rawBody).toBe(201);

    // Act
    const before = await report(key, { period: 'today' });
    await call('delete-invoice', { key, pathParameters: { reference_code: credited.reference_code } });
    const after = await report(key, { period: 'today' });

    // Assert
    expect(before.body.data.total).toBe(money(kobo(credited.total) - kobo(note.body.data.total)));
    expect(after.body.data).toMatchObject({
      output_vat: [],
      vat_total: '0.00',
      zero_rated: '0.00',
      total: '0.00',
      counts: { invoices: 1, credit_notes: 1, voids: 1 },
    });
  });

  it('credit notes racing a void: whatever commits, the invoice nets to nothing', async () => {
    // Prepare
    const { key } = await vatAccount();
    const raced = await invoice(key, [serviceLine('1000.00'), serviceLine('300.00', { tax: 'exempt' })]);
    const credit = (amount: string) =>
      call('create-credit-note', {
        key,
        pathParameters: { reference_code: raced.reference_code },
        body: { reason: 'Race', amount },
      });

    // Act
    const results = await Promise.all([
      credit('10.00'),
      credit('20.00'),
      call('delete-invoice', { key, pathParameters: { reference_code: raced.reference_code } }),
      credit('30.00'),
    ]);
    const after = await report(key, { period: 'today' });

    // Assert
    const notes = results.filter((result) => result.status === 201).length;
    expect(results.map((result) => result.status).sort()).toEqual(
      [...Array(notes).fill(201), 200, ...Array(3 - notes).fill(409)].sort(),
    );
    expect(after.body.data).toMatchObject({
      vat_total: '0.00',
      exempt: '0.00',
      total: '0.00',
      counts: { invoices: 1, credit_notes: notes, voids: 1 },
    });
  });

  it('counts an account with VAT off outside VAT; another account sees none of it', async () => {
    // Prepare
    const { key } = await newAccount();
    const other = await newAccount();
    const created = await invoice(key, [serviceLine('300.00', { discount: '50.00' })]);

    // Act
    const own = await report(key, { period: 'month' });
    const foreign = await report(other.key, { period: 'month' });

    // Assert
    expect(own.status, own.rawBody).toBe(200);
    expect(own.body.data).toMatchObject({
      output_vat: [],
      vat_total: '0.00',
      outside_vat: created.total,
      discounts: '50.00',
      total: created.total,
      counts: { invoices: 1 },
    });
    expect(foreign.body.data).toMatchObject({ output_vat: [], total: '0.00', wht_suffered: '0.00' });
    expect(foreign.body.data.counts).toEqual({
      invoices: 0,
      credit_notes: 0,
      voids: 0,
      wht_payments: 0,
      wht_reversals: 0,
    });
  });

  it('answers Accept: text/csv with the JSON’s numbers, one line per rate and category', async () => {
    // Prepare
    const { key } = await vatAccount();
    await invoice(key, [serviceLine('1000.00'), serviceLine('40.00', { tax: 'exempt' })]);
    const json = (await report(key, { period: 'year' })).body.data;

    // Act
    const csv = await report(key, { period: 'year' }, { accept: 'text/csv' });

    // Assert
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows: Record<string, string>[] = parse(csv.rawBody, { columns: true });
    const byLine = Object.fromEntries(rows.map((row) => [row.line, row]));
    expect(rows.map((row) => row.line)).toEqual([
      'standard',
      'zero_rated',
      'exempt',
      'outside_vat',
      'discounts',
      'wht_suffered',
      'total',
    ]);
    expect(byLine.standard).toMatchObject({ rate: '7.5', net: json.taxable, vat: json.vat_total });
    expect(byLine.exempt).toMatchObject({ net: json.exempt, vat: '' });
    expect(byLine.total).toMatchObject({ net: money(kobo(json.total) - kobo(json.vat_total)), vat: json.vat_total });
    expect(rows[0]!.start).toMatch(/^\d{4}-01-01$/);
  });

  it('refuses a bad period with the envelope’s 400', async () => {
    // Prepare
    const { key } = await newAccount();

    // Act
    const unknown = await report(key, { period: 'decade' });
    const missing = await report(key, { period: 'custom', start: '01/01/2026' });

    // Assert
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ status: 'error', code: 'invalid_period' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ status: 'error', code: 'invalid_period', errors: [{ field: 'end' }] });
  });
});
