/** Pure rules of a payment's reversal (docs/api.md "Reversing a payment"). */
import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../shared/domain/invoice.ts';
import type { PaymentRecord } from '../../shared/domain/payment-record.ts';
import { decideReversal, newestStanding, type ReversalReading } from '../../shared/domain/payment-reversal.ts';

const NOW = '2026-11-25 10:00:00';
const payment = (id: number, overrides: Partial<PaymentRecord> = {}): PaymentRecord => ({
  id,
  companyId: 1,
  clientId: 2,
  invoiceId: 3,
  referenceCode: 'REFERENCEREFERENCE01',
  amountKobo: 1_000,
  currency: 'NGN',
  transactionDate: 86_400,
  channel: 'Cash',
  createdAt: '2026-11-20 10:00:00',
  recordedId: `01J${id}`,
  inTotals: true,
  ...(id > 1 ? { previousPaymentId: id - 1 } : {}),
  ...overrides,
});
const invoice = (amountPaidKobo: number): Invoice =>
  ({
    details: { companyId: 1, referenceCode: 'REFERENCEREFERENCE01' },
    balance: {
      totalKobo: 3_000,
      amountPaidKobo,
      amountDueKobo: 3_000 - amountPaidKobo,
      paymentStatus: amountPaidKobo >= 3_000 ? 'paid' : 'partially_paid',
      paidAt: amountPaidKobo >= 3_000 ? '2026-11-21 09:00:00' : null,
      paymentsCount: 3,
      deletedAt: null,
      version: 7,
      updatedAt: '2026-11-21 09:00:00',
    },
  }) as Invoice;
const reading = (
  target: PaymentRecord | undefined,
  latestPaymentId: number,
  earlier: PaymentRecord[],
): ReversalReading => ({
  payment: target,
  invoice: invoice(3_000),
  latestPaymentId,
  earlier: new Map(earlier.map((p) => [p.id, p])),
});
const request = { paymentId: 3, reason: 'typo' };

describe('decideReversal', () => {
  it('reverses the payment and restores the invoice as if it had not been recorded', () => {
    // Act
    const decision = decideReversal(reading(payment(3), 3, [payment(2)]), 1, request, NOW);
    // Assess
    expect(decision).toMatchObject({ ok: true });
    if (!('ok' in decision) || !decision.ok) return;
    expect(decision.value.payment.reversal).toEqual({ reversedAt: NOW, reason: 'typo' });
    expect(decision.value.balance).toMatchObject({
      amountPaidKobo: 2_000,
      amountDueKobo: 1_000,
      paymentStatus: 'partially_paid',
      paidAt: null,
      paymentsCount: 2,
      version: 8,
      updatedAt: NOW,
    });
    expect(decision.value.latest).toEqual({ kind: 'set', payment: payment(2) });
  });

  it('keeps the latest payment when another payment is reversed, and removes it when none stands before', () => {
    const older = decideReversal(reading(payment(2), 3, [payment(1)]), 1, request, NOW);
    expect(older).toMatchObject({ ok: true, value: { latest: { kind: 'keep' } } });
    const first = decideReversal(reading(payment(1), 1, []), 1, request, NOW);
    expect(first).toMatchObject({ ok: true, value: { latest: { kind: 'remove' } } });
  });

  it('refuses another account’s or an unknown payment (payment_not_found) and a reversed one', () => {
    const foreign = decideReversal(reading(payment(3, { companyId: 2 }), 3, []), 1, request, NOW);
    expect(foreign).toMatchObject({ ok: false, refusal: { code: 'payment_not_found' } });
    expect(decideReversal(reading(undefined, 3, []), 1, request, NOW)).toMatchObject({ ok: false });
    const twice = decideReversal(
      reading(payment(3, { reversal: { reversedAt: NOW, reason: 'x' } }), 3, []),
      1,
      request,
      NOW,
    );
    expect(twice).toMatchObject({ ok: false, refusal: { code: 'payment_already_reversed' } });
  });

  it('asks for an earlier payment it needs and was not given', () => {
    expect(decideReversal(reading(payment(3), 3, []), 1, request, NOW)).toEqual({ missing: 2 });
  });
});

describe('newestStanding', () => {
  it('skips reversed payments back along the chain', () => {
    const reversed = { reversal: { reversedAt: NOW, reason: 'x' } };
    const earlier = new Map([
      [4, payment(4, reversed)],
      [3, payment(3, reversed)],
      [2, payment(2)],
    ]);
    expect(newestStanding(4, earlier)).toEqual({ payment: payment(2) });
    expect(newestStanding(undefined, earlier)).toEqual({ payment: undefined });
    expect(newestStanding(4, new Map([[4, payment(4, reversed)]]))).toEqual({ missing: 3 });
  });
});
