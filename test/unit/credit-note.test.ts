import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CreditNoteFacts, decideCreditNote } from '../../shared/domain/credit-note.ts';
import { MAX_AMOUNT_KOBO } from '../../shared/domain/money.ts';

const facts = (more: Partial<CreditNoteFacts> = {}): CreditNoteFacts => ({
  invoiceTotalKobo: 100_000,
  earlierCreditNotesKobo: 0,
  amountDueKobo: 100_000,
  voided: false,
  ...more,
});

describe('decideCreditNote', () => {
  it('an unpaid invoice: the credit note reduces the amount due', () => {
    expect(decideCreditNote(facts(), 30_000, 'amount')).toEqual({
      ok: true,
      value: { amountDueReductionKobo: 30_000, clientCreditKobo: 0 },
    });
  });

  it('a paid invoice: what exceeds the amount due becomes client credit', () => {
    const decision = decideCreditNote(facts({ amountDueKobo: 10_000 }), 30_000, 'items');
    expect(decision).toEqual({ ok: true, value: { amountDueReductionKobo: 10_000, clientCreditKobo: 20_000 } });
  });

  it('credits the whole total less earlier credit notes, and refuses one kobo more with credit_exceeds_invoice', () => {
    const earlier = facts({ earlierCreditNotesKobo: 40_000, amountDueKobo: 60_000 });
    expect(decideCreditNote(earlier, 60_000, 'amount').ok).toBe(true);
    const refused = decideCreditNote(earlier, 60_001, 'amount');
    expect(!refused.ok && refused.refusal.code).toBe('credit_exceeds_invoice');
    expect(!refused.ok && refused.refusal.errors).toEqual([
      { code: 'credit_exceeds_invoice', field: 'amount', message: 'must be at most 600.00', creditable: '600.00' },
    ]);
  });

  it('refuses a voided invoice with invoice_deleted, and a zero credit note as invalid', () => {
    const voided = decideCreditNote(facts({ voided: true, amountDueKobo: 0 }), 1, 'amount');
    expect(!voided.ok && voided.refusal.code).toBe('invoice_deleted');
    const zero = decideCreditNote(facts(), 0, 'items');
    expect(!zero.ok && zero.refusal.errors[0]).toMatchObject({ code: 'invalid_amount', field: 'items' });
  });

  it('never credits beyond the invoice; due reduction + client credit = the credit note (property)', () => {
    const state = fc
      .integer({ min: 1, max: MAX_AMOUNT_KOBO })
      .chain((total) =>
        fc.tuple(fc.constant(total), fc.integer({ min: 0, max: total }), fc.integer({ min: 0, max: total })),
      );
    fc.assert(
      fc.property(state, fc.integer({ min: 1, max: MAX_AMOUNT_KOBO }), ([total, earlier, due], credit) => {
        const decision = decideCreditNote(
          facts({ invoiceTotalKobo: total, earlierCreditNotesKobo: earlier, amountDueKobo: due }),
          credit,
          'amount',
        );
        expect(decision.ok).toBe(credit <= total - earlier);
        if (!decision.ok) return;
        const { amountDueReductionKobo, clientCreditKobo } = decision.value;
        expect(amountDueReductionKobo + clientCreditKobo).toBe(credit);
        expect(amountDueReductionKobo).toBe(Math.min(credit, due));
      }),
    );
  });
});
