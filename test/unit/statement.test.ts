/**
 * Pure rules of client statements and of what each write adds to the receivables (docs/api.md "Client statement",
 * docs/data-design.md "Receivables").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildInvoice } from '../../shared/domain/invoice.ts';
import type { PaymentRecord } from '../../shared/domain/payment-record.ts';
import {
  invoiceIssuedChange,
  invoiceVoidedChange,
  type LedgerLine,
  paymentRecordedChange,
  paymentReversedChange,
} from '../../shared/domain/receivables.ts';
import { buildStatement, MAX_STATEMENT_LINES } from '../../shared/domain/statement.ts';
import { ledgerKeys } from '../../shared/store/keys.ts';
import { clientRecord } from '../support/fixtures.ts';

const line = (date: string, debitKobo: number, creditKobo: number, sourceId = 1): LedgerLine => ({
  companyId: 1,
  clientId: 2,
  date,
  recordedAt: `${date} 10:00:00`,
  type: debitKobo > 0 ? 'invoice' : 'payment',
  referenceCode: 'REF',
  description: 'd',
  debitKobo,
  creditKobo,
  sourceId,
});

describe('buildStatement', () => {
  it('opens at the balance before the period, runs through its lines, closes at the balance after it', () => {
    // Prepare: the client owes 700 now; since 2026-03-01: +1,000 (03-01), −500 (03-10), −100 (04-02, after the period)
    const lines = [line('2026-03-01', 1_000, 0), line('2026-03-10', 0, 500), line('2026-04-02', 0, 100)];
    // Act
    const built = buildStatement(700, lines, { from: '2026-03-01', to: '2026-03-31' });
    // Assess
    expect(built.ok && built.value).toEqual({
      openingKobo: 300,
      lines: [
        expect.objectContaining({ date: '2026-03-01', debitKobo: 1_000, balanceKobo: 1_300 }),
        expect.objectContaining({ date: '2026-03-10', creditKobo: 500, balanceKobo: 800 }),
      ],
      closingKobo: 800,
    });
  });

  it('closing − opening = Σ debits − Σ credits of the period, and the last line’s balance is the closing (property)', () => {
    const lineArbitrary = fc.record({
      day: fc.integer({ min: 1, max: 28 }),
      debit: fc.integer({ min: 0, max: 10_000 }),
      credit: fc.integer({ min: 0, max: 10_000 }),
    });
    fc.assert(
      fc.property(fc.array(lineArbitrary, { maxLength: 50 }), fc.integer({ min: -50_000, max: 50_000 }), (raw, now) => {
        const lines = raw
          .map((l, i) => line(`2026-02-${String(l.day).padStart(2, '0')}`, l.debit, l.credit, i))
          .sort((a, b) => a.date.localeCompare(b.date));
        const built = buildStatement(now, lines, { from: '2026-02-01', to: '2026-02-14' });
        if (!built.ok) throw built.refusal;
        const inPeriod = lines.filter((l) => l.date <= '2026-02-14');
        const net = inPeriod.reduce((s, l) => s + l.debitKobo - l.creditKobo, 0);
        expect(built.value.closingKobo - built.value.openingKobo).toBe(net);
        expect(built.value.lines.at(-1)?.balanceKobo ?? built.value.openingKobo).toBe(built.value.closingKobo);
        const after = lines.filter((l) => l.date > '2026-02-14').reduce((s, l) => s + l.debitKobo - l.creditKobo, 0);
        expect(built.value.closingKobo + after).toBe(now);
      }),
    );
  });

  it('refuses more than 5,000 lines in the period, not lines after it', () => {
    const many = Array.from({ length: MAX_STATEMENT_LINES + 1 }, (_, i) => line('2026-01-05', 1, 0, i));
    const refused = buildStatement(0, many, { from: '2026-01-01', to: '2026-01-31' });
    expect(!refused.ok && refused.refusal.code).toBe('statement_too_large');
    expect(buildStatement(0, many, { from: '2026-01-01', to: '2026-01-04' }).ok).toBe(true);
  });
});

describe('what each write adds to the receivables', () => {
  const client = clientRecord({
    email: 'a@example.com',
    createdAt: '2026-03-01 23:30:00',
    updatedAt: '2026-03-01 23:30:00',
  });
  const invoice = buildInvoice(
    {
      client_id: 7,
      due_date: { year: 2026, month: 3, day: 15 },
      fee_bearer: 'client',
      items: [
        { item: 'Bags', description: 'x', unit_cost: 1_000, quantity: 2 },
        { item: 'Hats', description: 'y', unit_cost: 500, quantity: 1 },
      ],
    },
    client,
    { invoiceId: 12, referenceCode: 'REFERENCE00000000012', hostedToken: 'token-of-invoice-12' },
    'NGN',
    '2026-03-01 23:30:00',
  );
  const payment = (amountKobo: number): PaymentRecord => ({
    id: 40,
    companyId: 1,
    clientId: 7,
    invoiceId: 12,
    referenceCode: invoice.details.referenceCode,
    amountKobo,
    currency: 'NGN',
    transactionDate: Date.UTC(2026, 1, 20) / 1000,
    channel: 'Cash',
    createdAt: '2026-03-02 09:00:00',
    recordedId: '01J',
  });

  it('an invoice: its total outstanding and open, dated its issue day in the account’s zone', () => {
    const change = invoiceIssuedChange(invoice, 'Africa/Lagos'); // 23:30 UTC is 00:30 the next day in Lagos
    expect(change).toMatchObject({
      dueDate: '2026-03-15',
      outstandingDeltaKobo: 2_500,
      openCountDelta: 1,
      openInvoice: 'put',
    });
    expect(change.line).toMatchObject({
      date: '2026-03-02',
      type: 'invoice',
      debitKobo: 2_500,
      description: 'Bags, Hats',
    });
    expect(invoiceIssuedChange(invoice, 'UTC').line.date).toBe('2026-03-01');
  });

  it('a payment: less outstanding, dated its transaction date; the settling one closes the invoice', () => {
    const after = { ...invoice.balance, amountPaidKobo: 2_500, amountDueKobo: 0, paymentStatus: 'paid' as const };
    const settles = paymentRecordedChange(invoice, after, payment(2_500))!;
    expect(settles).toMatchObject({ outstandingDeltaKobo: -2_500, openCountDelta: -1, openInvoice: 'delete' });
    expect(settles.line).toMatchObject({ date: '2026-02-20', type: 'payment', creditKobo: 2_500 });
    const partial = { ...invoice.balance, amountPaidKobo: 100, amountDueKobo: 2_400 };
    expect(paymentRecordedChange(invoice, partial, payment(100))).toMatchObject({
      openCountDelta: 0,
      openInvoice: 'keep',
    });
  });

  it('a reversal re-opens a settled invoice; a void closes it with a credit of what was due', () => {
    const settled = { ...invoice, balance: { ...invoice.balance, amountPaidKobo: 2_500, amountDueKobo: 0 } };
    const reversed = { ...payment(2_500), reversal: { reversedAt: '2026-03-05 08:00:00', reason: 'Bounced' } };
    const change = paymentReversedChange(settled, invoice.balance, reversed, 'Africa/Lagos')!;
    expect(change).toMatchObject({ outstandingDeltaKobo: 2_500, openCountDelta: 1, openInvoice: 'put' });
    expect(change.line).toMatchObject({ date: '2026-03-05', type: 'reversal', debitKobo: 2_500 });
    expect(change.line.description).toBe('Reversal of payment 40: Bounced');
    const voided = { ...invoice.balance, deletedAt: '2026-03-06 12:00:00' };
    expect(invoiceVoidedChange(invoice, voided, 'Africa/Lagos')).toMatchObject({
      outstandingDeltaKobo: -2_500,
      openCountDelta: -1,
      openInvoice: 'delete',
      line: { type: 'void', creditKobo: 2_500, date: '2026-03-06' },
    });
  });

  it('an invoice written before aging changes nothing until migrated', () => {
    const legacy = { ...invoice, balance: { ...invoice.balance, inAging: undefined } };
    expect(paymentRecordedChange(legacy, legacy.balance, payment(1))).toBeUndefined();
    expect(paymentReversedChange(legacy, legacy.balance, payment(1), 'UTC')).toBeUndefined();
    expect(invoiceVoidedChange(legacy, legacy.balance, 'UTC')).toBeUndefined();
  });

  it('ledger keys sort by date, then recording time, then the suffix (a ULID live, type and id when migrated)', () => {
    const keys = [
      ledgerKeys.sort('2026-03-02', '2026-03-01 10:00:00', ledgerKeys.migrated('payment', 9)),
      ledgerKeys.sort('2026-03-01', '2026-03-02 10:00:00', ledgerKeys.migrated('payment', 10)),
      ledgerKeys.sort('2026-03-01', '2026-03-02 10:00:00', ledgerKeys.migrated('invoice', 100)),
      ledgerKeys.sort('2026-03-01', '2026-03-01 10:00:00', ledgerKeys.migrated('void', 2)),
      ledgerKeys.sort('2026-03-01', '2026-03-02 10:00:00', '01JZZZZZZZZZZZZZZZZZZZZZZZ'),
      ledgerKeys.sort('2026-03-01', '2026-03-02 10:00:00', '01JAAAAAAAAAAAAAAAAAAAAAAA'),
    ];
    expect([...keys].sort()).toEqual([keys[3], keys[5], keys[4], keys[2], keys[1], keys[0]]);
    expect(ledgerKeys.migrated('payment', 10) > ledgerKeys.migrated('payment', 9)).toBe(true);
    expect(keys[0]! >= ledgerKeys.from('2026-03-02')).toBe(true);
    expect(keys[1]! < ledgerKeys.from('2026-03-02')).toBe(true);
  });
});
