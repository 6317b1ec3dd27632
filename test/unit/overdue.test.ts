import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, type CalendarDate, todayIn, toEpochSeconds } from '../../shared/domain/dates.ts';
import type { PaymentStatus } from '../../shared/domain/invoice.ts';
import { displayedPaymentStatus, isOverdue, storedStatesShownAs } from '../../shared/domain/overdue.ts';

const DUE: CalendarDate = { year: 2026, month: 3, day: 10 };
const dueDate = toEpochSeconds(DUE);
const open = (status: PaymentStatus = 'unpaid', amountDueKobo = 5000) => ({
  amountDueKobo,
  deletedAt: null as string | null,
  paymentStatus: status,
});

describe('isOverdue', () => {
  it('is not overdue on the due date itself, overdue from the next day', () => {
    // Act / Assess
    expect(isOverdue(open(), dueDate, DUE)).toBe(false);
    expect(isOverdue(open(), dueDate, addDays(DUE, -1))).toBe(false);
    expect(isOverdue(open(), dueDate, addDays(DUE, 1))).toBe(true);
    expect(isOverdue(open(), dueDate, addDays(DUE, 400))).toBe(true);
  });

  it('is never overdue when nothing is due or the invoice is deleted', () => {
    // Prepare
    const later = addDays(DUE, 30);
    // Act / Assess
    expect(isOverdue({ ...open('paid', 0) }, dueDate, later)).toBe(false);
    expect(isOverdue({ ...open(), deletedAt: '2026-03-01 10:00:00' }, dueDate, later)).toBe(false);
  });

  it('decides on the account’s calendar date: the same instant is overdue in Kiritimati (UTC+14), not in Pago Pago (UTC−11)', () => {
    // Prepare: 10:30 UTC on the due date is 00:30 the next day in Kiritimati and 23:30 the day before in Pago Pago.
    const instant = new Date(Date.UTC(2026, 2, 10, 10, 30));
    // Act
    const kiritimati = todayIn('Pacific/Kiritimati', instant);
    const pagoPago = todayIn('Pacific/Pago_Pago', instant);
    // Assess
    expect(kiritimati).toEqual(addDays(DUE, 1));
    expect(pagoPago).toEqual(addDays(DUE, -1));
    expect(isOverdue(open(), dueDate, kiritimati)).toBe(true);
    expect(isOverdue(open(), dueDate, pagoPago)).toBe(false);
    // A day later Pago Pago is on the due date (still not overdue), two days later it is overdue.
    expect(isOverdue(open(), dueDate, todayIn('Pacific/Pago_Pago', new Date(instant.getTime() + 86_400_000)))).toBe(
      false,
    );
    expect(isOverdue(open(), dueDate, todayIn('Pacific/Pago_Pago', new Date(instant.getTime() + 2 * 86_400_000)))).toBe(
      true,
    );
  });
});

describe('displayedPaymentStatus', () => {
  it('shows overdue for an open unpaid or partially paid invoice past its due date, the stored status otherwise', () => {
    // Prepare
    const after = addDays(DUE, 1);
    // Act / Assess
    expect(displayedPaymentStatus(open('unpaid'), dueDate, after)).toBe('overdue');
    expect(displayedPaymentStatus(open('partially_paid', 100), dueDate, after)).toBe('overdue');
    expect(displayedPaymentStatus(open('partially_paid', 100), dueDate, DUE)).toBe('partially_paid');
    expect(displayedPaymentStatus(open('paid', 0), dueDate, after)).toBe('paid');
    expect(displayedPaymentStatus({ ...open(), deletedAt: '2026-03-01 10:00:00' }, dueDate, after)).toBe('void');
  });

  it('property: void when deleted; overdue exactly when something is due, not deleted and today is after the due date', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.boolean(),
        (offset, due, deleted) => {
          // Prepare
          const balance = { amountDueKobo: due, deletedAt: deleted ? '2026-01-01 00:00:00' : null };
          const status: PaymentStatus = due === 0 ? 'paid' : 'unpaid';
          // Act
          const shown = displayedPaymentStatus({ ...balance, paymentStatus: status }, dueDate, addDays(DUE, offset));
          // Assess
          expect(shown === 'overdue').toBe(due > 0 && !deleted && offset > 0);
          if (shown !== 'overdue') expect(shown).toBe(deleted ? 'void' : status);
        },
      ),
    );
  });
});

describe('storedStatesShownAs', () => {
  it('narrows the history filter to the stored states an invoice shown so can be in', () => {
    expect(storedStatesShownAs('overdue')).toEqual({ statuses: ['unpaid', 'partially_paid'], voided: false });
    expect(storedStatesShownAs('unpaid')).toEqual({ statuses: ['unpaid'], voided: false });
    expect(storedStatesShownAs('paid')).toEqual({ statuses: ['paid'], voided: false });
    expect(storedStatesShownAs('void')).toEqual({ statuses: ['unpaid', 'partially_paid', 'paid'], voided: true });
  });
});
