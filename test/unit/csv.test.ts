/** CSV answers (docs/api.md "CSV"): RFC 4180 by csv-stringify, formulas neutralised, amounts plain; parsed back by csv-parse. */
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKobo } from '../../shared/domain/money.ts';
import { type CsvColumn, csvResponse, csvText } from '../../shared/http/csv.ts';
import { koboOf } from '../../shared/http/csv-tables.ts';

interface Row {
  name: string;
  kobo: number;
  id: number;
}

const columns: CsvColumn<Row>[] = [
  { header: 'name', value: (row) => row.name },
  { header: 'amount', amount: true, value: (row) => row.kobo },
  { header: 'id', value: (row) => row.id },
];

/** Any text, and text of what CSV and spreadsheets treat specially (separators, quotes, line ends, formula starts). */
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ maxLength: 30, unit: fc.constantFrom('a', ' ', ',', '"', '\n', '\r', '\t', '=', '+', '-', '@', '＝') }),
);

describe('csvText', () => {
  it('writes a header row, CRLF line ends, quotes where RFC 4180 needs them', () => {
    const text = csvText(columns, [
      { name: 'Plain', kobo: 150_050, id: 1 },
      { name: 'Comma, "quoted"\nnew line', kobo: 0, id: 2 },
    ]);
    expect(text).toBe('name,amount,id\r\nPlain,1500.50,1\r\n"Comma, ""quoted""\nnew line",0.00,2\r\n');
  });

  it('quotes a cell holding a bare line feed or carriage return: the row stays one row, no formula starts a line', () => {
    const text = csvText(columns, [
      { name: 'Rice\n=cmd', kobo: 0, id: 1 },
      { name: 'a\r=1+1', kobo: 0, id: 2 },
    ]);
    expect(text).toBe('name,amount,id\r\n"Rice\n=cmd",0.00,1\r\n"a\r=1+1",0.00,2\r\n');
  });

  it('answers the header row alone for an empty page', () => {
    expect(csvText(columns, [])).toBe('name,amount,id\r\n');
  });

  it('prefixes text that a spreadsheet would run with a quote; a negative amount stays a number', () => {
    const dangerous = ['=1+1', '+cmd', '-2+3', '@SUM(A1)', '\tx', '\rx', '＝1'];
    const rows = dangerous.map((name, id) => ({ name, kobo: -30_000, id }));
    const parsed: Record<string, string>[] = parse(csvText(columns, rows), { columns: true });
    expect(parsed.map((r: Record<string, string>) => r.name)).toEqual(dangerous.map((name) => `'${name}`));
    expect(new Set(parsed.map((r: Record<string, string>) => r.amount))).toEqual(new Set(['-300.00']));
  });

  it('round-trips any text and amount through a standard parser (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: text, kobo: fc.integer({ min: -1e12, max: 1e12 }), id: fc.nat() }), {
          maxLength: 20,
        }),
        (rows) => {
          const parsed: Record<string, string>[] = parse(csvText(columns, rows), { columns: true });
          expect(parsed).toHaveLength(rows.length);
          parsed.forEach((cell, i) => {
            const row = rows[i]!;
            const name = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(row.name) ? `'${row.name}` : row.name;
            expect(cell).toEqual({ name, amount: formatKobo(row.kobo), id: String(row.id) });
            expect(koboOf(cell.amount)).toBe(row.kobo);
          });
        },
      ),
    );
  });
});

describe('csvResponse', () => {
  it('names the next page in Link and X-Next-Cursor, and nothing on the last page', () => {
    const paged = csvResponse('a\r\n', { cursor: 'abc.d_e', path: '/prod/payments/history' });
    expect(paged.headers).toEqual({
      'content-type': 'text/csv; charset=utf-8',
      link: '</prod/payments/history?cursor=abc.d_e>; rel="next"',
      'x-next-cursor': 'abc.d_e',
    });
    expect(csvResponse('a\r\n', undefined).headers).toEqual({ 'content-type': 'text/csv; charset=utf-8' });
  });
});
