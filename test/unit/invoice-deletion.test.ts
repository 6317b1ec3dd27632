import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../shared/domain/invoice.ts';
import { acceptsPayments, decideInvoiceDeletion } from '../../shared/domain/invoice-deletion.ts';
import { openBalance } from '../support/fixtures.ts';

const NOW = '2026-11-25 10:00:00';
const invoice = (balance: Partial<Invoice['balance']> = {}): Invoice =>
  ({ details: { companyId: 1 }, balance: openBalance({ version: 4, ...balance }) }) as Invoice;

describe('decideInvoiceDeletion', () => {
  it('voids an invoice without payments: deleted_at now, the version moves on', () => {
    // Act
    const decision = decideInvoiceDeletion(invoice(), 1, NOW);
    // Assess
    expect(decision).toEqual({
      ok: true,
      value: { kind: 'delete', balance: { ...invoice().balance, deletedAt: NOW, version: 5, updatedAt: NOW } },
    });
  });

  it('answers a repeated delete without writing', () => {
    expect(decideInvoiceDeletion(invoice({ deletedAt: '2026-02-02 00:00:00' }), 1, NOW)).toEqual({
      ok: true,
      value: { kind: 'already_deleted' },
    });
  });

  it('refuses an invoice with a payment (by count, or by amount for invoices paid before the count existed)', () => {
    for (const balance of [
      { paymentsCount: 1, amountPaidKobo: 10 },
      { paymentsCount: 0, amountPaidKobo: 10 },
    ]) {
      const decision = decideInvoiceDeletion(invoice(balance), 1, NOW);
      expect(decision.ok || decision.refusal.code).toBe('invoice_has_payments');
    }
  });

  it('treats another account’s invoice as absent', () => {
    const decision = decideInvoiceDeletion(invoice(), 2, NOW);
    expect(decision.ok || decision.refusal.code).toBe('invoice_not_found');
  });

  it('a voided invoice accepts no payments', () => {
    expect(acceptsPayments({ deletedAt: null })).toBe(true);
    expect(acceptsPayments({ deletedAt: NOW })).toBe(false);
  });
});
