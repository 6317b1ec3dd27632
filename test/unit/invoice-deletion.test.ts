import { describe, expect, it } from 'vitest';
import { NO_CREDIT, receiveCredit } from '../../shared/domain/client-credit.ts';
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

  it('takes back from the client the credit its credit notes gave it, or refuses when the client holds less', () => {
    // A 400.00 credit note on a paid 1,000.00 invoice all went to the client; the payment was reversed since.
    const reversed = invoice({ creditNotesKobo: 40_000, creditedKobo: 0 });
    const held = receiveCredit(NO_CREDIT, 50_000);
    const decision = decideInvoiceDeletion(reversed, 1, NOW, held);
    expect(decision.ok && decision.value.kind === 'delete' && decision.value.credit).toMatchObject({
      amountKobo: 40_000,
      before: held,
      after: { balanceKobo: 10_000, appliedKobo: 40_000 },
    });
    const short = decideInvoiceDeletion(reversed, 1, NOW, receiveCredit(NO_CREDIT, 39_999));
    expect(short.ok || short.refusal.code).toBe('amount_exceeds_credit');
    const notedOnly = decideInvoiceDeletion(invoice({ creditNotesKobo: 40_000, creditedKobo: 40_000 }), 1, NOW);
    expect(notedOnly.ok && notedOnly.value.kind === 'delete' && notedOnly.value.credit).toBeUndefined();
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
