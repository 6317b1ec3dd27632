import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, compareDates, fromIsoDate } from '../../shared/domain/dates.ts';
import {
  decideNewSeries,
  decideSeriesChange,
  type RecurringSeries,
  type SeriesAction,
} from '../../shared/domain/recurring-invoice.ts';
import { issueDateOf, type RecurringSchedule } from '../../shared/domain/recurring-schedule.ts';
import type { SeriesStatus } from '../../shared/domain/recurring-series.ts';
import { periodInvoiceInput, recurringInvoiceSchema } from '../../shared/schemas/recurring.ts';

const day = fromIsoDate;
const monthly: RecurringSchedule = {
  every: 1,
  unit: 'month',
  start: day('2031-01-31'),
  dueInDays: 14,
  end: { after: 6 },
};
const seriesIn = (status: SeriesStatus, nextPeriod = 3): RecurringSeries => ({
  id: 'rec_01JZ0000000000000000000000',
  companyId: 7,
  schedule: monthly,
  send: false,
  state: { status, nextPeriod, issuedCount: nextPeriod - 1 },
  template: {},
  cardToken: undefined,
  version: 4,
  createdAt: '2031-01-01 00:00:00',
  updatedAt: '2031-01-01 00:00:00',
  lastError: undefined,
});

describe('decideNewSeries', () => {
  it('starts at period 1 from a start today or later', () => {
    // Act
    const decision = decideNewSeries(monthly, day('2031-01-31'));
    // Assess
    expect(decision).toEqual({ ok: true, value: { status: 'active', nextPeriod: 1, issuedCount: 0 } });
  });

  it('starts a past start at the first period not passed, and refuses one with none left', () => {
    // Act
    const later = decideNewSeries(monthly, day('2031-03-01'));
    const over = decideNewSeries(monthly, day('2031-08-01'));
    // Assess
    expect(later).toEqual({ ok: true, value: { status: 'active', nextPeriod: 3, issuedCount: 0 } });
    expect(over.ok).toBe(false);
    if (!over.ok) expect(over.refusal.errors.map((e) => e.field)).toEqual(['schedule.end']);
  });

  it('refuses a schedule out of range on its field', () => {
    // Act
    const decision = decideNewSeries({ ...monthly, every: 37 }, day('2031-01-01'));
    // Assess
    expect(decision.ok).toBe(false);
    if (!decision.ok) expect(decision.refusal.errors.map((e) => e.field)).toEqual(['schedule.every']);
  });
});

describe('decideSeriesChange', () => {
  const actions: SeriesAction[] = ['pause', 'resume', 'cancel'];
  const statuses: SeriesStatus[] = ['active', 'paused', 'completed', 'cancelled'];
  /** What each action answers from each status: the status after it, or the refusal's code. */
  const EXPECTED: Record<SeriesAction, Record<SeriesStatus, string>> = {
    pause: { active: 'paused', paused: 'paused', completed: 'conflict', cancelled: 'conflict' },
    resume: { active: 'active', paused: 'active', completed: 'conflict', cancelled: 'conflict' },
    cancel: { active: 'cancelled', paused: 'cancelled', completed: 'conflict', cancelled: 'cancelled' },
  };

  it.each(actions.flatMap((action) => statuses.map((status) => [action, status] as const)))(
    '%s from %s',
    (action, status) => {
      // Act
      const decision = decideSeriesChange(seriesIn(status), 7, action, day('2031-02-01'));
      // Assess
      const answer = decision.ok ? decision.value.status : 'conflict';
      expect(answer).toBe(EXPECTED[action][status]);
      if (!decision.ok) expect(decision.refusal.code).toBe('recurring_status_conflict');
    },
  );

  it('answers another account and an absent series alike: recurring_not_found', () => {
    // Act
    const foreign = decideSeriesChange(seriesIn('active'), 8, 'pause', day('2031-02-01'));
    const absent = decideSeriesChange(undefined, 7, 'pause', day('2031-02-01'));
    // Assess
    for (const decision of [foreign, absent])
      expect(decision.ok ? 'ok' : decision.refusal.code).toBe('recurring_not_found');
  });

  it('resumes from the first period not passed: none of the periods missed while paused', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 220 }), (paused, days) => {
        // Prepare
        const today = addDays(day('2031-01-31'), days);
        // Act
        const decision = decideSeriesChange(seriesIn('paused', paused), 7, 'resume', today);
        // Assess
        expect(decision.ok).toBe(true);
        if (!decision.ok) return;
        const { status, nextPeriod, issuedCount } = decision.value;
        expect(issuedCount).toBe(paused - 1);
        const firstNotPassed = [1, 2, 3, 4, 5, 6].find(
          (n) => n >= paused && compareDates(issueDateOf(monthly, n)!, today) >= 0,
        );
        if (firstNotPassed === undefined) expect(status).toBe('completed');
        else expect([status, nextPeriod]).toEqual(['active', firstNotPassed]);
      }),
    );
  });
});

describe('the recurring-invoice body', () => {
  const body = {
    client_id: '12',
    fee_bearer: 'client',
    items: [{ item: 'Rent', description: 'Flat 3', unit_cost: '250,000.00', quantity: '1' }],
    schedule: { every: '1', unit: 'month', start: '1/31/2031', due_in_days: 14, end: { on: '12/31/2031' } },
  };

  it('is the add-invoice body without due_date, with schedule and send (default false)', () => {
    // Act
    const parsed = recurringInvoiceSchema.safeParse(body);
    // Assess
    expect(parsed.success).toBe(true);
    if (!parsed.success) return;
    expect(parsed.data.schedule).toEqual({
      every: 1,
      unit: 'month',
      start: day('2031-01-31'),
      due_in_days: 14,
      end: { on: day('2031-12-31') },
    });
    expect(parsed.data.send).toBeUndefined();
    expect(parsed.data.client_id).toBe(12);
  });

  it("gives each period the add-invoice input with its period's issue and due dates", () => {
    // Act
    const template = { client_id: 12, fee_bearer: 'client', items: body.items };
    const input = periodInvoiceInput(template, { issueDate: day('2031-02-14'), dueDate: day('2031-02-28') });
    // Assess
    expect(input).toMatchObject({
      client_id: 12,
      issue_date: day('2031-02-14'),
      due_date: day('2031-02-28'),
      fee_bearer: 'client',
    });
    expect(input!.items[0]).toMatchObject({ unit_cost: 25_000_000, quantity: 1 });
  });
});
