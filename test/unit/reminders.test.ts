/** docs/receivables.md "Reminders": which reminder is due on a day, and when the sweep looks at an invoice next. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, type CalendarDate, compareDates, toEpochSeconds } from '../../shared/domain/dates.ts';
import type { Invoice, ReminderRecord } from '../../shared/domain/invoice.ts';
import {
  decideRemindersChange,
  dueReminderOffset,
  nextReminderDay,
  planSweep,
  reminderDueText,
  type SweepFacts,
  wakesOnFirstSend,
} from '../../shared/domain/reminders.ts';
import { openBalance } from '../support/fixtures.ts';

const DUE: CalendarDate = { year: 2026, month: 3, day: 10 };
const SCHEDULE = [-3, 0, 7, 14];
const sent = (...offsets: number[]): ReminderRecord[] =>
  offsets.map((offset) => ({ offset, sentAt: '2026-03-01 09:00:00' }));

function invoice(balance: Partial<Invoice['balance']> = {}): Invoice {
  return {
    details: { companyId: 7, dueDate: toEpochSeconds(DUE), referenceCode: 'R' } as Invoice['details'],
    balance: openBalance({ updatedAt: '2026-03-01 09:00:00', everSent: true, ...balance }),
  };
}

const facts = (today: CalendarDate, extra: Partial<SweepFacts> = {}): SweepFacts => ({
  invoice: invoice(),
  offsets: SCHEDULE,
  today,
  overdueNotified: false,
  canRemind: true,
  ...extra,
});

describe('dueReminderOffset', () => {
  it('is the offset whose day is today, on each day of the schedule', () => {
    // Act / Assess
    expect(SCHEDULE.map((offset) => dueReminderOffset(SCHEDULE, DUE, addDays(DUE, offset), []))).toEqual(SCHEDULE);
  });

  it('is none before the first offset, and none once the latest come is sent', () => {
    // Act / Assess
    expect(dueReminderOffset(SCHEDULE, DUE, addDays(DUE, -4), [])).toBeUndefined();
    expect(dueReminderOffset(SCHEDULE, DUE, addDays(DUE, 9), sent(7))).toBeUndefined();
  });

  it('skips missed offsets: only the latest whose day has come, never an earlier one', () => {
    // Act / Assess: ten days late, nothing sent yet — only 7; with 7 sent, not 0 nor −3.
    expect(dueReminderOffset(SCHEDULE, DUE, addDays(DUE, 10), [])).toBe(7);
    expect(dueReminderOffset(SCHEDULE, DUE, addDays(DUE, 13), sent(7))).toBeUndefined();
    expect(dueReminderOffset(SCHEDULE, DUE, addDays(DUE, 400), sent(-3))).toBe(14);
  });

  it('never names an offset already sent, nor one whose day is still to come (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -365, max: 365 }), { maxLength: 10 }),
        fc.integer({ min: -400, max: 400 }),
        fc.uniqueArray(fc.integer({ min: -365, max: 365 }), { maxLength: 10 }),
        (offsets, day, sentOffsets) => {
          const today = addDays(DUE, day);
          const offset = dueReminderOffset(offsets, DUE, today, sent(...sentOffsets));
          if (offset === undefined) return;
          expect(sentOffsets).not.toContain(offset);
          expect(offset).toBeLessThanOrEqual(day);
          expect(offsets.filter((other) => other > offset && other <= day)).toEqual([]);
        },
      ),
    );
  });
});

describe('nextReminderDay', () => {
  it('is the first schedule day after today, or none after the last', () => {
    // Act / Assess
    expect(nextReminderDay(SCHEDULE, DUE, addDays(DUE, -10))).toEqual(addDays(DUE, -3));
    expect(nextReminderDay(SCHEDULE, DUE, DUE)).toEqual(addDays(DUE, 7));
    expect(nextReminderDay(SCHEDULE, DUE, addDays(DUE, 14))).toBeUndefined();
    expect(nextReminderDay([], DUE, DUE)).toBeUndefined();
  });
});

describe('planSweep', () => {
  it('reminds on the day and wakes on the next reminder or overdue day, whichever comes first', () => {
    // Act
    const before = planSweep(facts(addDays(DUE, -3)));
    const onTheDay = planSweep(facts(DUE));
    // Assess
    expect(before).toEqual({ notifyOverdue: false, remind: -3, nextWake: DUE });
    expect(onTheDay).toEqual({ notifyOverdue: false, remind: 0, nextWake: addDays(DUE, 1) });
  });

  it('notifies overdue on the first overdue day and then wakes only for reminders; leaves when none is left', () => {
    // Act
    const firstOverdueDay = planSweep(
      facts(addDays(DUE, 1), { invoice: invoice({ reminders: { sent: sent(0), paused: false } }) }),
    );
    const last = planSweep(facts(addDays(DUE, 14), { overdueNotified: true }));
    // Assess
    expect(firstOverdueDay).toEqual({ notifyOverdue: true, remind: undefined, nextWake: addDays(DUE, 7) });
    expect(last).toEqual({ notifyOverdue: false, remind: 14, nextWake: undefined });
  });

  it('sends nothing for a paid or voided invoice, and it leaves the index', () => {
    // Act / Assess
    for (const balance of [{ amountDueKobo: 0 }, { deletedAt: '2026-03-02 10:00:00' }])
      expect(planSweep(facts(DUE, { invoice: invoice(balance) }))).toEqual({
        notifyOverdue: false,
        remind: undefined,
        nextWake: undefined,
      });
  });

  it('while paused: no reminder and no reminder wake, but the overdue notification still comes', () => {
    // Prepare
    const paused = invoice({ reminders: { sent: [], paused: true } });
    // Act / Assess
    expect(planSweep(facts(DUE, { invoice: paused }))).toEqual({
      notifyOverdue: false,
      remind: undefined,
      nextWake: addDays(DUE, 1),
    });
    expect(planSweep(facts(addDays(DUE, 8), { invoice: paused, overdueNotified: true })).nextWake).toBeUndefined();
  });

  it('reminds only an invoice sent at least once; an unsent one keeps waking and gets the latest due once sent', () => {
    // Prepare
    const unsent = invoice({ everSent: undefined });
    const sentBeforeFirstSendWasKept = invoice({
      everSent: undefined,
      mail: { status: 'sent', jobId: 'j', sentAt: '2026-03-01 09:00:00', error: null },
    });
    // Act
    const beforeSend = planSweep(facts(DUE, { invoice: unsent }));
    const afterSend = planSweep(facts(addDays(DUE, 1), { invoice: invoice() }));
    const legacy = planSweep(facts(DUE, { invoice: sentBeforeFirstSendWasKept }));
    // Assess
    expect(beforeSend).toEqual({ notifyOverdue: false, remind: undefined, nextWake: addDays(DUE, 1) });
    expect(afterSend.remind).toBe(0);
    expect(legacy.remind).toBe(0);
  });

  it('records no reminder it cannot e-mail, yet keeps waking on the schedule days', () => {
    // Act
    const plan = planSweep(facts(DUE, { canRemind: false, overdueNotified: true }));
    // Assess
    expect(plan).toEqual({ notifyOverdue: false, remind: undefined, nextWake: addDays(DUE, 7) });
  });

  it('always wakes after today, never skipping a day something is due (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: -30, max: 30 }), { maxLength: 6 }),
        fc.integer({ min: -40, max: 40 }),
        fc.boolean(),
        (offsets, day, overdueNotified) => {
          const today = addDays(DUE, day);
          const plan = planSweep(facts(today, { offsets, overdueNotified }));
          if (plan.nextWake === undefined) {
            expect(offsets.filter((offset) => offset > day)).toEqual([]);
            return;
          }
          expect(compareDates(plan.nextWake, today)).toBe(1);
          const dueDays = [...offsets, ...(overdueNotified || plan.notifyOverdue ? [] : [1])].filter((d) => d > day);
          expect(plan.nextWake).toEqual(addDays(DUE, Math.min(...dueDays)));
        },
      ),
    );
  });
});

describe('wakesOnFirstSend', () => {
  const accepted = { sentAt: '2026-03-08 09:00:00' };
  const neverSent = { everSent: undefined, mail: undefined };

  it('wakes an open invoice on its first acceptance only', () => {
    // Act / Assess
    expect(wakesOnFirstSend(openBalance(neverSent), accepted)).toBe(true);
    expect(wakesOnFirstSend(openBalance(neverSent), { sentAt: null })).toBe(false);
    expect(wakesOnFirstSend(openBalance({ everSent: true }), accepted)).toBe(false);
  });

  it('leaves a paid or voided invoice alone: no reminder can be due for it', () => {
    // Act / Assess
    expect(wakesOnFirstSend(openBalance({ ...neverSent, amountDueKobo: 0 }), accepted)).toBe(false);
    expect(wakesOnFirstSend(openBalance({ ...neverSent, deletedAt: '2026-03-02 10:00:00' }), accepted)).toBe(false);
  });
});

describe('decideRemindersChange', () => {
  it('refuses another account’s invoice (404) and a voided one (409 invoice_deleted)', () => {
    // Act / Assess
    expect(decideRemindersChange(undefined, 7)).toMatchObject({ ok: false, refusal: { code: 'invoice_not_found' } });
    expect(decideRemindersChange(invoice(), 8)).toMatchObject({ ok: false, refusal: { code: 'invoice_not_found' } });
    const voided = invoice({ deletedAt: '2026-03-02 10:00:00' });
    expect(decideRemindersChange(voided, 7)).toMatchObject({ ok: false, refusal: { code: 'invoice_deleted' } });
    expect(decideRemindersChange(invoice({ amountDueKobo: 0 }), 7)).toMatchObject({ ok: true });
  });
});

describe('reminderDueText', () => {
  it('says due in N days, due today or overdue by N days', () => {
    // Act / Assess
    expect([-3, -1, 0, 1, 7].map(reminderDueText)).toEqual([
      'due in 3 days',
      'due in 1 day',
      'due today',
      'overdue by 1 day',
      'overdue by 7 days',
    ]);
  });
});
