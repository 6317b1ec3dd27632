/**
 * CSV answers (docs/api.md "CSV"): RFC 4180 by csv-stringify — a header row on every page, CRLF line ends, UTF-8 —
 * with amounts as plain decimals and every text cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`,
 * tab, carriage return, and their full-width look-alikes) prefixed with `'`. Amount cells are numbers, so a negative
 * amount stays `-300.00`. Paged as the JSON: the next page's cursor in `Link` (rel="next") and `X-Next-Cursor`.
 */
import { stringify } from 'csv-stringify/sync';
import { formatKobo } from '../domain/money.ts';
import type { HttpResponse } from './envelope.ts';

export type CsvCell = string | number | null | undefined;

export interface CsvColumn<R> {
  header: string;
  /** An amount: the cell is the value in kobo, written as a plain decimal (`-300.00`) and never prefixed. */
  amount?: boolean;
  value(row: R): CsvCell;
}

/** The rows under a header row. Text cells are strings; numbers (ids, counts, amounts) are never prefixed. */
export function csvText<R>(columns: readonly CsvColumn<R>[], rows: readonly R[]): string {
  const amountColumns = new Set(columns.flatMap((column, index) => (column.amount ? [index] : [])));
  return stringify(
    rows.map((row) => columns.map((column) => column.value(row) ?? '')),
    {
      header: true,
      columns: columns.map((column, index) => ({ key: String(index), header: column.header })),
      record_delimiter: 'windows',
      // csv-stringify quotes a cell holding the record delimiter (CRLF), not a bare LF or CR, which most readers
      // (Excel, Python's csv) take as the end of the row: the rest of the cell would start a row of its own.
      quoted_match: /[\r\n]/,
      escape_formulas: true,
      cast: {
        number: (value, context) =>
          typeof context.index === 'number' && amountColumns.has(context.index) ? formatKobo(value) : String(value),
      },
    },
  );
}

/** A page of CSV; `next` names where the following page starts (the same request, with this cursor). */
export function csvResponse(text: string, next: { cursor: string; path: string } | undefined): HttpResponse {
  const headers: Record<string, string> = { 'content-type': 'text/csv; charset=utf-8' };
  if (next) {
    headers.link = `<${next.path}?cursor=${encodeURIComponent(next.cursor)}>; rel="next"`;
    headers['x-next-cursor'] = next.cursor;
  }
  return { statusCode: 200, headers, body: text };
}
