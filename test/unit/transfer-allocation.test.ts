import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromIsoDate } from '../../shared/domain/dates.ts';
import {
  allocateTransfer,
  applyCredit,
  narrationNames,
  type OpenInvoice,
} from '../../shared/domain/transfer-allocation.ts';

const invoice = (sequence: number, amountDueKobo: number, dueDate: string, issueDate = '2026-01-01'): OpenInvoice => ({
  referenceCode: `REF${String(sequence).padStart(17, '0')}`,
  number: `INV-${String(sequence).padStart(6, '0')}`,
  amountDueKobo,
  dueDate: fromIsoDate(dueDate),
  issueDate: fromIsoDate(issueDate),
});

const ref = (sequence: number) => `REF${String(sequence).padStart(17, '0')}`;
const A = invoice(1, 50_000, '2026-02-01'); // oldest due
const B = invoice(2, 30_000, '2026-03-01');
const C = invoice(3, 20_000, '2026-04-01');
const OPEN = [C, A, B]; // read in any order

describe('narrationNames', () => {
  const twelve = { referenceCode: 'Ab3dE5gH7jK9mN1pQ3sT', number: 'INV-000012' };

  it.each([
    ['Payment for INV-000012'],
    ['TRF/INV000012/FROM ADA OBI'],
    ['inv 000012'],
    ['INV/000012'],
    ['INV-000012PAYMENT'],
    ['ref ab3de5gh7jk9mn1pq3st'],
    ['AB3DE5GH7JK9MN1PQ3ST'],
  ])('%j names INV-000012', (narration) => {
    expect(narrationNames(narration, twelve)).toBe(true);
  });

  it.each([['INV-0000123'], ['INV-12'], ['XINV-000012'], ['000012'], ['INV-000013'], ['']])(
    '%j does not name INV-000012',
    (narration) => {
      expect(narrationNames(narration, twelve)).toBe(false);
    },
  );
});

describe('allocateTransfer', () => {
  it('a narration naming an invoice pays it, though another is older', () => {
    expect(allocateTransfer({ amountKobo: 20_000, narration: 'INV-000003' }, OPEN)).toEqual({
      payments: [{ referenceCode: ref(3), amountKobo: 20_000, allocation: 'narration' }],
      creditKobo: 0,
    });
  });

  it('a narration takes precedence over an exact amount', () => {
    const result = allocateTransfer({ amountKobo: 30_000, narration: `for ${ref(3)}` }, OPEN);
    expect(result.payments[0]).toEqual({ referenceCode: ref(3), amountKobo: 20_000, allocation: 'narration' });
  });

  it('less than the named invoice is due: a partial payment on it, nothing else', () => {
    expect(allocateTransfer({ amountKobo: 5_000, narration: 'INV-000002' }, OPEN)).toEqual({
      payments: [{ referenceCode: ref(2), amountKobo: 5_000, allocation: 'narration' }],
      creditKobo: 0,
    });
  });

  it('more than the named invoice is due: the rest goes to the other open invoices oldest due first, then credit', () => {
    expect(allocateTransfer({ amountKobo: 120_000, narration: 'INV-000003' }, OPEN)).toEqual({
      payments: [
        { referenceCode: ref(3), amountKobo: 20_000, allocation: 'narration' },
        { referenceCode: ref(1), amountKobo: 50_000, allocation: 'oldest_due' },
        { referenceCode: ref(2), amountKobo: 30_000, allocation: 'oldest_due' },
      ],
      creditKobo: 20_000,
    });
  });

  it('a narration naming two invoices pays both, oldest due first', () => {
    const result = allocateTransfer({ amountKobo: 50_000, narration: 'INV-000003 and INV-000002' }, OPEN);
    expect(result.payments).toEqual([
      { referenceCode: ref(2), amountKobo: 30_000, allocation: 'narration' },
      { referenceCode: ref(3), amountKobo: 20_000, allocation: 'narration' },
    ]);
  });

  it('no narration match: the invoice whose amount due equals the amount', () => {
    expect(allocateTransfer({ amountKobo: 30_000, narration: 'school fees' }, OPEN)).toEqual({
      payments: [{ referenceCode: ref(2), amountKobo: 30_000, allocation: 'exact_amount' }],
      creditKobo: 0,
    });
  });

  it('several with that amount due: the oldest due of them', () => {
    const twins = [invoice(7, 30_000, '2026-05-01'), invoice(8, 30_000, '2026-04-15')];
    const result = allocateTransfer({ amountKobo: 30_000, narration: '' }, twins);
    expect(result.payments).toEqual([{ referenceCode: ref(8), amountKobo: 30_000, allocation: 'exact_amount' }]);
  });

  it('no match at all: oldest due first, the last one partly', () => {
    expect(allocateTransfer({ amountKobo: 60_000, narration: 'from Ada' }, OPEN)).toEqual({
      payments: [
        { referenceCode: ref(1), amountKobo: 50_000, allocation: 'oldest_due' },
        { referenceCode: ref(2), amountKobo: 10_000, allocation: 'oldest_due' },
      ],
      creditKobo: 0,
    });
  });

  it('a narration naming an invoice that is no longer open is no match (the caller passes open invoices only)', () => {
    const result = allocateTransfer({ amountKobo: 50_000, narration: 'INV-000009' }, OPEN);
    expect(result.payments).toEqual([{ referenceCode: ref(1), amountKobo: 50_000, allocation: 'exact_amount' }]);
  });

  it('no open invoice: all of it is credit; a fully paid one in the list takes nothing', () => {
    expect(allocateTransfer({ amountKobo: 10_000, narration: 'INV-000001' }, [])).toEqual({
      payments: [],
      creditKobo: 10_000,
    });
    expect(allocateTransfer({ amountKobo: 10_000, narration: '' }, [invoice(4, 0, '2026-01-01')]).creditKobo).toBe(
      10_000,
    );
  });

  it('ties on the due date go by issue date, then by the number as a number', () => {
    const tied = [
      invoice(1_000_000, 100, '2026-02-01', '2026-01-01'),
      invoice(999_999, 100, '2026-02-01', '2026-01-01'),
      invoice(5, 100, '2026-02-01', '2026-01-02'),
    ];
    const result = allocateTransfer({ amountKobo: 300, narration: '' }, tied);
    expect(result.payments.map((p) => p.referenceCode)).toEqual([ref(999_999), ref(1_000_000), ref(5)]);
  });
});

const openInvoices = fc.uniqueArray(fc.integer({ min: 1, max: 40 }), { maxLength: 8 }).chain((sequences) =>
  fc.tuple(
    ...sequences.map((sequence) =>
      fc
        .record({
          due: fc.integer({ min: 0, max: 200_000 }),
          dueDay: fc.integer({ min: 1, max: 5 }),
          issueDay: fc.integer({ min: 1, max: 3 }),
        })
        .map(({ due, dueDay, issueDay }) => invoice(sequence, due, `2026-03-0${dueDay}`, `2026-01-0${issueDay}`)),
    ),
  ),
);
const narration = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 1, max: 40 }).map((n) => `INV-${String(n).padStart(6, '0')}`),
  fc.integer({ min: 1, max: 40 }).map((n) => `paying ${ref(n).toLowerCase()} and INV${String(n + 1).padStart(6, '0')}`),
  fc.string(),
);

describe('allocateTransfer: properties', () => {
  it('adds up exactly, overpays nothing, pays above zero once per invoice, and does not depend on read order', () => {
    fc.assert(
      fc.property(openInvoices, fc.integer({ min: 0, max: 1_000_000 }), narration, (invoices, amountKobo, text) => {
        const result = allocateTransfer({ amountKobo, narration: text }, invoices);
        const paid = result.payments.reduce((sum, p) => sum + p.amountKobo, 0);
        expect(paid + result.creditKobo).toBe(amountKobo);
        expect(result.creditKobo).toBeGreaterThanOrEqual(0);
        expect(new Set(result.payments.map((p) => p.referenceCode)).size).toBe(result.payments.length);
        for (const payment of result.payments) {
          const due = invoices.find((i) => i.referenceCode === payment.referenceCode)!.amountDueKobo;
          expect(payment.amountKobo).toBeGreaterThan(0);
          expect(payment.amountKobo).toBeLessThanOrEqual(due);
        }
        const open = invoices.reduce((sum, i) => sum + i.amountDueKobo, 0);
        if (result.creditKobo > 0) expect(paid).toBe(open); // credit only when every open invoice is paid
        expect(allocateTransfer({ amountKobo, narration: text }, [...invoices].reverse())).toEqual(result);
      }),
    );
  });
});

describe('applyCredit', () => {
  it('pays the open invoices oldest due first and keeps the rest', () => {
    expect(applyCredit(60_000, OPEN)).toEqual({
      payments: [
        { referenceCode: ref(1), amountKobo: 50_000 },
        { referenceCode: ref(2), amountKobo: 10_000 },
      ],
      creditKobo: 0,
    });
    expect(applyCredit(150_000, [B])).toEqual({
      payments: [{ referenceCode: ref(2), amountKobo: 30_000 }],
      creditKobo: 120_000,
    });
    expect(applyCredit(0, OPEN)).toEqual({ payments: [], creditKobo: 0 });
  });

  it('adds up and overpays nothing (property)', () => {
    fc.assert(
      fc.property(openInvoices, fc.integer({ min: 0, max: 1_000_000 }), (invoices, credit) => {
        const result = applyCredit(credit, invoices);
        expect(result.payments.reduce((sum, p) => sum + p.amountKobo, 0) + result.creditKobo).toBe(credit);
        for (const payment of result.payments) {
          const due = invoices.find((i) => i.referenceCode === payment.referenceCode)!.amountDueKobo;
          expect(payment.amountKobo > 0 && payment.amountKobo <= due).toBe(true);
        }
      }),
    );
  });
});
