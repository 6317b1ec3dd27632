import { describe, expect, it } from 'vitest';
import {
  CREDIT_NOTE_PREFIX,
  DEFAULT_INVOICE_PREFIX,
  formatDocumentNumber,
  invoiceIrn,
  parseDocumentPrefix,
  parseServiceId,
} from '../../shared/domain/document-number.ts';

describe('formatDocumentNumber', () => {
  it.each([
    [DEFAULT_INVOICE_PREFIX, 1, 'INV-000001'],
    [CREDIT_NOTE_PREFIX, 1, 'CN-000001'],
    ['INV-', 999_999, 'INV-999999'],
    ['INV-', 1_000_000, 'INV-1000000'], // grows beyond six digits
    ['', 42, '000042'],
    ['ACME/2026/', 7, 'ACME/2026/000007'],
  ])('%j and %i make %j', (prefix, sequence, number) => {
    expect(formatDocumentNumber(prefix, sequence)).toBe(number);
  });

  it.each([[0], [-1], [1.5]])('refuses the sequence %j', (sequence) => {
    expect(() => formatDocumentNumber('INV-', sequence)).toThrow(RangeError);
  });
});

describe('invoiceIrn', () => {
  const issued = { year: 2026, month: 1, day: 5 };

  it.each([
    ['INV-000001', 'INV000001-94ND90NR-20260105'],
    ['ACME/2026/000007', 'ACME2026000007-94ND90NR-20260105'],
    ['inv.000012', 'inv000012-94ND90NR-20260105'],
    ['000042', '000042-94ND90NR-20260105'],
  ])('%j has the IRN %j (the number without punctuation, the service id, YYYYMMDD)', (number, irn) => {
    expect(invoiceIrn(number, '94ND90NR', issued)).toBe(irn);
  });
});

describe('parseDocumentPrefix and parseServiceId', () => {
  it.each([['INV-'], [''], ['ACME/2026/'], ['A_B.C-'], ['X'.repeat(20)]])('accepts the prefix %j', (prefix) => {
    expect(parseDocumentPrefix(prefix)).toEqual({ ok: true, value: prefix });
  });

  it.each([['INV '], ['INV#'], ['FACTURE–'], ['X'.repeat(21)], [5]])('refuses the prefix %j', (prefix) => {
    expect(parseDocumentPrefix(prefix).ok).toBe(false);
  });

  it('a service id is 8 letters or digits', () => {
    expect(parseServiceId(' 94ND90NR ')).toEqual({ ok: true, value: '94ND90NR' });
    expect(parseServiceId('94ND90N').ok).toBe(false);
    expect(parseServiceId('94ND-0NR').ok).toBe(false);
  });
});
