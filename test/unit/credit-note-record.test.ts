/**
 * A credit note as issued (shared/domain/credit-note-record.ts): its split by items or by amount, its number, the
 * balance after it, and how payments, reversals and the statement's lines agree with it (docs/tax.md "Credit notes").
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CreditNoteIssue, issueCreditNote } from '../../shared/domain/credit-note-record.ts';
import type { Invoice, InvoiceBalance } from '../../shared/domain/invoice.ts';
import { applyPayment } from '../../shared/domain/payment-acceptance.ts';
import { withoutPayment } from '../../shared/domain/payment-reversal.ts';
import { creditNoteChange } from '../../shared/domain/receivables.ts';
import type { VatSetting } from '../../shared/domain/tax.ts';
import { creditNoteFromItem, newCreditNoteActions } from '../../shared/store/credit-notes.ts';
import { clientRecord } from '../support/fixtures.ts';

const NOW = '2026-11-22 10:00:00';
const TODAY = { year: 2026, month: 11, day: 22 };
const issue = (lastNumber = 0): CreditNoteIssue => ({ companyId: 5, id: 'cn_X', lastNumber, today: TODAY, now: NOW });

const balance = (totalKobo: number): InvoiceBalance => ({
  totalKobo,
  amountPaidKobo: 0,
  amountDueKobo: totalKobo,
  paymentStatus: 'unpaid',
  paidAt: null,
  paymentsCount: 0,
  deletedAt: null,
  version: 1,
  updatedAt: NOW,
  inAging: true,
});

/** An invoice of one standard line of `amountKobo` (VAT added when exclusive) and, optionally, one exempt line. */
function invoiceOf(amountKobo: number, vat: VatSetting = { mode: 'off', rateUnits: 0 }, exemptKobo = 0): Invoice {
  const vatKobo = vat.mode === 'exclusive' ? Math.round((amountKobo * vat.rateUnits) / 1_000_000) : 0;
  const taxes =
    vat.mode === 'off'
      ? []
      : [
          {
            name: 'VAT' as const,
            category: 'standard' as const,
            rate: '7.5',
            taxableKobo: amountKobo,
            amountKobo: vatKobo,
          },
          ...(exemptKobo > 0
            ? [{ name: 'VAT' as const, category: 'exempt' as const, rate: '0', taxableKobo: exemptKobo, amountKobo: 0 }]
            : []),
        ];
  const total = amountKobo + vatKobo + exemptKobo;
  return {
    details: {
      id: 12,
      companyId: 5,
      clientId: 7,
      referenceCode: 'REFERENCEREFERENCE01',
      feeBearer: 'client',
      dueDate: 0,
      currency: 'NGN',
      createdAt: NOW,
      lines: [],
      client: clientRecord({ createdAt: NOW, updatedAt: NOW }),
      number: 'INV-000009',
      tax: { vat, subtotalKobo: amountKobo + exemptKobo, discountTotalKobo: 0, taxTotalKobo: vatKobo, taxes },
    },
    balance: balance(total),
  };
}

const line = (unit_cost: number, quantity = 1) => ({ item: 'Chair', description: 'Oak', unit_cost, quantity });

describe('issueCreditNote', () => {
  it('by amount: CN- and the next number, the amount off what is due, the invoice’s number kept', () => {
    const decided = issueCreditNote(invoiceOf(100_000), { reason: 'Damaged', amount: 25_000 }, issue(41));
    expect(decided.ok).toBe(true);
    if (!decided.ok) return;
    expect(decided.value.note).toMatchObject({
      number: 'CN-000042',
      invoiceNumber: 'INV-000009',
      totalKobo: 25_000,
      taxTotalKobo: 0,
      lines: [],
      effect: { amountDueReductionKobo: 25_000, clientCreditKobo: 0 },
    });
    expect(decided.value.balance).toMatchObject({
      amountDueKobo: 75_000,
      amountPaidKobo: 0,
      creditedKobo: 25_000,
      creditNotesKobo: 25_000,
      paymentStatus: 'unpaid',
      version: 2,
    });
  });

  it('by items: taxed with the invoice’s VAT setting, not the account’s now', () => {
    const invoice = invoiceOf(200_000, { mode: 'exclusive', rateUnits: 75_000 });
    const decided = issueCreditNote(invoice, { reason: 'Returned', items: [line(100_000)] }, issue());
    expect(decided.ok && decided.value.note).toMatchObject({
      vatMode: 'exclusive',
      subtotalKobo: 100_000,
      taxTotalKobo: 7_500,
      totalKobo: 107_500,
      lines: [{ name: 'Chair', netKobo: 100_000, tax: 'standard', discountKobo: 0 }],
    });
  });

  it('by amount on a VAT invoice with an exempt line: split over its categories, VAT taken out once', () => {
    const invoice = invoiceOf(100_000, { mode: 'exclusive', rateUnits: 75_000 }, 50_000); // 107,500 + 50,000
    const decided = issueCreditNote(invoice, { reason: 'All', amount: 157_500 }, issue());
    expect(decided.ok && decided.value.note.taxes).toEqual(invoice.details.tax!.taxes);
  });

  it('a paid invoice: nothing is due, so all of it goes to the client’s credit; the status stays paid', () => {
    const invoice = invoiceOf(100_000);
    const paid = applyPayment(invoice.balance, 100_000, NOW);
    if (!paid.ok) throw new Error('payment refused');
    const decided = issueCreditNote({ ...invoice, balance: paid.value }, { reason: 'Late', amount: 30_000 }, issue());
    expect(decided.ok && decided.value.note.effect).toEqual({ amountDueReductionKobo: 0, clientCreditKobo: 30_000 });
    expect(decided.ok && decided.value.balance).toMatchObject({ amountDueKobo: 0, paymentStatus: 'paid' });
  });

  it('settling what is due by credit note: paid, paid_at now', () => {
    const decided = issueCreditNote(invoiceOf(100_000), { reason: 'Waived', amount: 100_000 }, issue());
    expect(decided.ok && decided.value.balance).toMatchObject({ amountDueKobo: 0, paymentStatus: 'paid', paidAt: NOW });
  });

  it('refuses another account’s invoice as not found, a voided one, and more than is left to credit', () => {
    const invoice = invoiceOf(100_000);
    const other = issueCreditNote(invoice, { reason: 'x', amount: 1 }, { ...issue(), companyId: 6 });
    expect(!other.ok && other.refusal.code).toBe('invoice_not_found');
    const voided = { ...invoice, balance: { ...invoice.balance, deletedAt: NOW } };
    const onVoided = issueCreditNote(voided, { reason: 'x', amount: 1 }, issue());
    expect(!onVoided.ok && onVoided.refusal.code).toBe('invoice_deleted');
    const credited = { ...invoice, balance: { ...invoice.balance, creditNotesKobo: 90_000, creditedKobo: 90_000 } };
    const beyond = issueCreditNote(credited, { reason: 'x', items: [line(10_001)] }, issue());
    expect(!beyond.ok && beyond.refusal.code).toBe('credit_exceeds_invoice');
    expect(!beyond.ok && beyond.refusal.errors[0]).toMatchObject({ field: 'items', creditable: '100.00' });
  });

  it('refuses a discount above its line as validation_failed', () => {
    const decided = issueCreditNote(
      invoiceOf(100_000),
      { reason: 'x', items: [{ ...line(1_000), discount: 1_001 }] },
      issue(),
    );
    expect(!decided.ok && decided.refusal.code).toBe('validation_failed');
  });
});

describe('credit notes among payments and reversals', () => {
  type Step = { kind: 'credit' | 'pay'; kobo: number } | { kind: 'reverse' };
  const steps = fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('credit' as const), kobo: fc.integer({ min: 1, max: 60_000 }) }),
      fc.record({ kind: fc.constant('pay' as const), kobo: fc.integer({ min: 1, max: 60_000 }) }),
      fc.record({ kind: fc.constant('reverse' as const) }),
    ),
    { maxLength: 12 },
  );

  it('due = total − paid − credited ≥ 0, Σ credit notes ≤ total, and the ledger moves as outstanding does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), steps, (total, plan: Step[]) => {
        let invoice = invoiceOf(total);
        const payments: number[] = [];
        let notes = 0;
        for (const step of plan) {
          if (step.kind === 'credit') {
            const decided = issueCreditNote(invoice, { reason: 'r', amount: step.kobo }, issue(notes));
            if (!decided.ok) {
              expect(decided.refusal.code).toBe('credit_exceeds_invoice');
              continue;
            }
            notes += 1;
            const change = creditNoteChange(invoice, decided.value.balance, decided.value.note)!;
            const lines = [change.line, ...(change.creditExcessLine ? [change.creditExcessLine] : [])];
            const net = lines.reduce((sum, l) => sum + l.debitKobo - l.creditKobo, 0);
            expect(net).toBe(change.outstandingDeltaKobo);
            expect(change.outstandingDeltaKobo).toBe(
              decided.value.balance.amountDueKobo - invoice.balance.amountDueKobo,
            );
            invoice = { ...invoice, balance: decided.value.balance };
          } else if (step.kind === 'pay') {
            const paid = applyPayment(invoice.balance, step.kobo, NOW);
            if (!paid.ok) continue;
            payments.push(step.kobo);
            invoice = { ...invoice, balance: { ...paid.value, inAging: true } }; // as read back from its header
          } else if (payments.length > 0) {
            invoice = { ...invoice, balance: withoutPayment(invoice.balance, payments.pop()!, NOW) };
          }
          const b = invoice.balance;
          expect(b.amountDueKobo).toBe(b.totalKobo - b.amountPaidKobo - (b.creditedKobo ?? 0));
          expect(b.amountDueKobo).toBeGreaterThanOrEqual(0);
          expect(b.creditNotesKobo ?? 0).toBeLessThanOrEqual(b.totalKobo);
          expect(b.paymentStatus === 'paid').toBe(b.amountDueKobo === 0);
        }
      }),
    );
  });
});

describe('the credit note item', () => {
  it('reads back as it was put, with its hosted line beside it', () => {
    const invoice = invoiceOf(200_000, { mode: 'exclusive', rateUnits: 75_000 });
    const decided = issueCreditNote(invoice, { reason: 'Returned', items: [line(100_000)] }, issue(6));
    if (!decided.ok) throw new Error('refused');
    const [note, hosted] = newCreditNoteActions('table', decided.value.note, 'TOKEN');
    expect(creditNoteFromItem(note!.Put!.Item!)).toEqual(decided.value.note);
    expect(hosted!.Put!.Item).toMatchObject({ PK: 'HOSTED#TOKEN', SK: 'CREDITNOTE#CN-000007', total: 107_500 });
    expect(newCreditNoteActions('table', decided.value.note, undefined)).toHaveLength(1);
  });
});
