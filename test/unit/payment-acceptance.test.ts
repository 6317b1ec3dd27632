import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Invoice, InvoiceBalance } from '../../shared/domain/invoice.ts';
import { MAX_AMOUNT_KOBO } from '../../shared/domain/money.ts';
import {
  applyPayment,
  decidePayment,
  futureDateError,
  newPayment,
  withholdingError,
} from '../../shared/domain/payment-acceptance.ts';
import { clientRecord } from '../support/fixtures.ts';

const NOW = '2026-11-22 10:00:00';

const balance = (totalKobo: number, amountPaidKobo: number, version = 3): InvoiceBalance => ({
  totalKobo,
  amountPaidKobo,
  amountDueKobo: totalKobo - amountPaidKobo,
  paymentStatus: amountPaidKobo === 0 ? 'unpaid' : amountPaidKobo >= totalKobo ? 'paid' : 'partially_paid',
  paidAt: amountPaidKobo >= totalKobo ? '2026-01-01 00:00:00' : null,
  paymentsCount: amountPaidKobo > 0 ? 1 : 0,
  deletedAt: null,
  version,
  updatedAt: '2026-01-01 00:00:00',
});

const client = clientRecord({ createdAt: NOW, updatedAt: NOW });

const invoice = (companyId: number, state: InvoiceBalance): Invoice => ({
  details: {
    id: 12,
    companyId,
    clientId: 7,
    referenceCode: 'REFERENCEREFERENCE01',
    feeBearer: 'client',
    dueDate: 0,
    currency: 'NGN',
    createdAt: NOW,
    lines: [],
    client,
  },
  balance: state,
});

/** A total above zero and a paid amount within it. */
const balances = fc
  .integer({ min: 1, max: MAX_AMOUNT_KOBO })
  .chain((total) => fc.tuple(fc.constant(total), fc.integer({ min: 0, max: total })))
  .map(([total, paid]) => balance(total, paid));

describe('applyPayment', () => {
  it('accepts a partial payment: paid grows, due shrinks, one more payment, version moves on, not yet paid', () => {
    // Prepare
    const before = balance(100_000, 20_000);
    // Act
    const result = applyPayment(before, 30_000, NOW);
    // Assess
    expect(result).toEqual({
      ok: true,
      value: {
        totalKobo: 100_000,
        amountPaidKobo: 50_000,
        amountDueKobo: 50_000,
        paymentStatus: 'partially_paid',
        paidAt: null,
        paymentsCount: 2,
        deletedAt: null,
        version: 4,
        updatedAt: NOW,
      },
    });
  });

  it('marks the invoice paid, with paid_at, when the payment settles the amount due exactly', () => {
    // Act
    const result = applyPayment(balance(100_000, 20_000), 80_000, NOW);
    // Assess
    expect(result.ok && result.value).toMatchObject({ amountDueKobo: 0, paymentStatus: 'paid', paidAt: NOW });
  });

  it('refuses one kobo more than the amount due with amount_exceeds_balance', () => {
    // Act
    const result = applyPayment(balance(100_000, 20_000), 80_001, NOW);
    // Assess
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.refusal.code).toBe('amount_exceeds_balance');
      expect(result.refusal.errors[0]).toMatchObject({ field: 'amount', amount_due: '800.00' });
    }
  });

  it('refuses any payment on a paid invoice with invoice_already_paid', () => {
    // Act
    const result = applyPayment(balance(100_000, 100_000), 1, NOW);
    // Assess
    expect(!result.ok && result.refusal.code).toBe('invoice_already_paid');
  });

  it('never overpays, keeps paid + due = total, and derives the status from them (property)', () => {
    fc.assert(
      fc.property(balances, fc.integer({ min: 1, max: MAX_AMOUNT_KOBO }), (before, amount) => {
        // Act
        const result = applyPayment(before, amount, NOW);
        // Assess
        if (before.amountDueKobo === 0) return !result.ok && result.refusal.code === 'invoice_already_paid';
        if (amount > before.amountDueKobo) return !result.ok && result.refusal.code === 'amount_exceeds_balance';
        if (!result.ok) return false;
        const after = result.value;
        const paid = after.amountDueKobo === 0;
        return (
          after.amountPaidKobo === before.amountPaidKobo + amount &&
          after.amountPaidKobo + after.amountDueKobo === after.totalKobo &&
          after.amountDueKobo >= 0 &&
          after.version === before.version + 1 &&
          after.paymentStatus === (paid ? 'paid' : 'partially_paid') &&
          after.paidAt === (paid ? NOW : null)
        );
      }),
    );
  });
});

describe('decidePayment', () => {
  it('answers invoice_not_found when there is no invoice', () => {
    // Act
    const result = decidePayment(undefined, 1, 100, NOW);
    // Assess
    expect(!result.ok && result.refusal.code).toBe('invoice_not_found');
  });

  it("answers invoice_not_found for another account's invoice, exactly as for a missing one", () => {
    // Prepare
    const missing = decidePayment(undefined, 1, 100, NOW);
    // Act
    const foreign = decidePayment(invoice(2, balance(100_000, 0)), 1, 100, NOW);
    // Assess
    expect(foreign).toEqual(missing);
  });

  it('returns the invoice as read and its balance after the payment', () => {
    // Prepare
    const read = invoice(1, balance(100_000, 0));
    // Act
    const result = decidePayment(read, 1, 100, NOW);
    // Assess
    expect(result.ok && result.value.invoice).toBe(read);
    expect(result.ok && result.value.balance.amountPaidKobo).toBe(100);
  });

  it('says whether the payment settles the invoice: exactly when it leaves nothing due (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (total, paidRaw) => {
          const paid = paidRaw % total;
          const due = total - paid;
          for (const amount of [1, due, Math.max(1, Math.floor(due / 2))].filter((a) => a <= due)) {
            const result = decidePayment(invoice(1, balance(total, paid)), 1, amount, NOW);
            expect(result.ok && result.value.settles).toBe(amount === due);
            expect(result.ok && result.value.balance.paymentStatus === 'paid').toBe(amount === due);
          }
        },
      ),
    );
  });

  it('checks ownership before the balance (a paid foreign invoice is not found, not paid)', () => {
    // Act
    const result = decidePayment(invoice(2, balance(100, 100)), 1, 1, NOW);
    // Assess
    expect(!result.ok && result.refusal.code).toBe('invoice_not_found');
  });
});

describe('futureDateError', () => {
  const today = { year: 2026, month: 11, day: 22 };

  it.each([
    [{ year: 2026, month: 11, day: 22 }],
    [{ year: 2026, month: 11, day: 21 }],
    [{ year: 2020, month: 1, day: 1 }],
  ])('accepts %j (today or earlier)', (date) => {
    // Act, Assess
    expect(futureDateError(date, today, 'Africa/Lagos')).toBeUndefined();
  });

  it('refuses tomorrow with validation_failed on date, naming the time zone', () => {
    // Act
    const error = futureDateError({ year: 2026, month: 11, day: 23 }, today, 'Africa/Lagos');
    // Assess
    expect(error?.code).toBe('validation_failed');
    expect(error?.errors).toEqual([
      { code: 'invalid_date', field: 'date', message: 'must not be after today (Africa/Lagos), format MM/DD/YYYY' },
    ]);
  });
});

describe('newPayment', () => {
  it('takes ids, amount, date and channel from the request and the rest from the invoice', () => {
    // Act
    const payment = newPayment(
      invoice(1, balance(100, 0)),
      { id: 5, recordedId: '01J', previousPaymentId: 4 },
      { amountKobo: 100, date: { year: 1970, month: 1, day: 2 }, channel: 'POS' },
      'NGN',
      NOW,
    );
    // Assess
    expect(payment).toEqual({
      id: 5,
      companyId: 1,
      clientId: 7,
      invoiceId: 12,
      referenceCode: 'REFERENCEREFERENCE01',
      amountKobo: 100,
      currency: 'NGN',
      transactionDate: 86_400,
      channel: 'POS',
      createdAt: NOW,
      recordedId: '01J',
      previousPaymentId: 4,
      inTotals: true,
    });
  });
});

describe('withholding tax', () => {
  it('credits the invoice the amount and the tax withheld together', () => {
    // Act: ₦950 paid, ₦50 withheld on a ₦1,000 invoice.
    const result = applyPayment(balance(100_000, 0), 95_000, NOW, 5_000);
    // Assess
    expect(result.ok && result.value).toMatchObject({
      amountPaidKobo: 100_000,
      amountDueKobo: 0,
      paymentStatus: 'paid',
    });
  });

  it('refuses an amount plus wht_amount above the amount due, saying so', () => {
    // Act
    const result = applyPayment(balance(100_000, 0), 95_000, NOW, 5_001);
    // Assess
    expect(!result.ok && result.refusal.code).toBe('amount_exceeds_balance');
    expect(!result.ok && result.refusal.message).toBe(
      'The amount plus wht_amount exceeds the amount due on this invoice (1000.00).',
    );
  });

  it('decidePayment passes the tax withheld on', () => {
    // Act
    const result = decidePayment(invoice(1, balance(100_000, 0)), 1, 60_000, NOW, 4_000);
    // Assess
    expect(result.ok && result.value.balance.amountPaidKobo).toBe(64_000);
  });

  it('is what a payment without withholding tax is, for a wht_amount of zero (property)', () => {
    fc.assert(
      fc.property(balances, fc.integer({ min: 1, max: MAX_AMOUNT_KOBO }), (before, amount) => {
        expect(applyPayment(before, amount, NOW, 0)).toEqual(applyPayment(before, amount, NOW));
      }),
    );
  });

  it('accepts exactly when amount + wht_amount fits the amount due (property)', () => {
    const amounts = fc.integer({ min: 1, max: MAX_AMOUNT_KOBO });
    fc.assert(
      fc.property(balances, amounts, fc.integer({ min: 0, max: MAX_AMOUNT_KOBO }), (before, amount, wht) => {
        const result = applyPayment(before, amount, NOW, wht);
        const fits = before.amountDueKobo > 0 && amount + wht <= before.amountDueKobo;
        expect(result.ok).toBe(fits);
        if (result.ok) expect(result.value.amountPaidKobo).toBe(before.amountPaidKobo + amount + wht);
      }),
    );
  });

  it.each([
    [{}, undefined],
    [{ whtKobo: 0 }, undefined],
    [{ whtKobo: 5_000, whtReference: 'WHT/2026/0042' }, undefined],
    [{ whtKobo: 5_000, whtReference: 'x'.repeat(64) }, undefined],
    [{ whtKobo: -1 }, 'wht_amount'],
    [{ whtKobo: 1.5 }, 'wht_amount'],
    [{ whtKobo: 5_000, whtReference: 'x'.repeat(65) }, 'wht_reference'],
    [{ whtReference: 'WHT/1' }, 'wht_reference'],
    [{ whtKobo: 0, whtReference: 'WHT/1' }, 'wht_reference'],
  ])('withholdingError(%j) is on %s', (input, field) => {
    // Act
    const error = withholdingError(input);
    // Assess
    expect(error?.errors[0]?.field).toBe(field);
    if (error) expect(error.code).toBe('validation_failed');
  });
});
