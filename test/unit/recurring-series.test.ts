import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromIsoDate, toIsoDate } from '../../shared/domain/dates.ts';
import type { RecurringSchedule } from '../../shared/domain/recurring-schedule.ts';
import {
  cancelSeries,
  nextIssueDate,
  pauseSeries,
  planSeriesSweep,
  resumeSeries,
  type SeriesState,
  startSeries,
} from '../../shared/domain/recurring-series.ts';

const day = fromIsoDate;
const LAGOS = 'Africa/Lagos'; // UTC+1 all year: 06:00 there is 05:00 UTC
const monthly: RecurringSchedule = {
  every: 1,
  unit: 'month',
  start: day('2026-01-31'),
  dueInDays: 14,
  end: { after: 6 },
};
const active = (nextPeriod: number, issuedCount = nextPeriod - 1): SeriesState => ({
  status: 'active',
  nextPeriod,
  issuedCount,
});
const at = (iso: string) => new Date(iso);
const sweep = (state: SeriesState, now: string, send = true) =>
  planSeriesSweep(monthly, state, { now: at(now), timeZone: LAGOS, send });

describe('planSeriesSweep', () => {
  it('creates nothing before 06:00 account time on the issue date, and wakes then', () => {
    // Act
    const plan = sweep(active(1), '2026-01-31T04:59:59Z');
    // Assess
    expect(plan).toEqual({ create: [], send: undefined, after: active(1), wakeAt: at('2026-01-31T05:00:00Z') });
  });

  it('at 06:00 creates the period, sends it and wakes on the next one', () => {
    // Act
    const plan = sweep(active(1), '2026-01-31T05:00:00Z');
    // Assess
    expect(plan.create).toEqual([{ period: 1, issueDate: day('2026-01-31'), dueDate: day('2026-02-14') }]);
    expect(plan.send).toBe(1);
    expect(plan.after).toEqual(active(2));
    expect(plan.wakeAt).toEqual(at('2026-02-28T05:00:00Z'));
  });

  it('a late sweep creates every missed period once, in order, and sends only the latest', () => {
    // Act: the sweep did not run from February to mid-April.
    const plan = sweep(active(2), '2026-04-15T12:00:00Z');
    // Assess
    expect(plan.create.map((p) => [p.period, toIsoDate(p.issueDate)])).toEqual([
      [2, '2026-02-28'],
      [3, '2026-03-31'],
    ]);
    expect(plan.send).toBe(3);
    expect(plan.after).toEqual(active(4));
  });

  it('a repeated sweep after the plan was committed creates nothing', () => {
    // Prepare
    const first = sweep(active(2), '2026-04-15T12:00:00Z');
    // Act
    const again = sweep(first.after, '2026-04-15T12:00:01Z');
    // Assess
    expect(again.create).toEqual([]);
    expect(again.send).toBeUndefined();
    expect(again.after).toEqual(first.after);
  });

  it('without send, creates but sends nothing', () => {
    expect(sweep(active(1), '2026-03-01T00:00:00Z', false)).toMatchObject({ send: undefined, after: active(3) });
  });

  it('completes with the last period and wakes no more', () => {
    // Act: periods 5 (31 May) and 6 (30 Jun) are left.
    const plan = sweep(active(5), '2026-12-01T00:00:00Z');
    // Assess
    expect(plan.create.map((p) => p.period)).toEqual([5, 6]);
    expect(plan.after).toEqual({ status: 'completed', nextPeriod: 7, issuedCount: 6 });
    expect(plan.wakeAt).toBeUndefined();
  });

  it.each([['paused'], ['cancelled'], ['completed']] as const)('a %s series: nothing', (status) => {
    const state: SeriesState = { status, nextPeriod: 2, issuedCount: 1 };
    expect(sweep(state, '2027-01-01T00:00:00Z')).toEqual({
      create: [],
      send: undefined,
      after: state,
      wakeAt: undefined,
    });
  });

  it('ends on a date: the last period issued on or before it', () => {
    const schedule: RecurringSchedule = { ...monthly, end: { on: day('2026-03-30') } };
    const plan = planSeriesSweep(schedule, active(1), { now: at('2027-01-01T00:00:00Z'), timeZone: LAGOS, send: true });
    expect(plan.create.map((p) => p.period)).toEqual([1, 2]);
    expect(plan.after.status).toBe('completed');
  });

  it('whatever the sweep times, each period is created exactly once, in order, and at most one send a sweep (property)', () => {
    const sweepTimes = fc
      .array(fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2026, 8, 1) }), { maxLength: 12 })
      .map((times) => [...times.sort((a, b) => a - b), Date.UTC(2027, 0, 1)]);
    fc.assert(
      fc.property(sweepTimes, (times) => {
        let state = active(1);
        const created: number[] = [];
        for (const time of times) {
          const plan = planSeriesSweep(monthly, state, { now: new Date(time), timeZone: LAGOS, send: true });
          created.push(...plan.create.map((p) => p.period));
          expect(plan.send).toBe(plan.create.at(-1)?.period);
          state = plan.after;
        }
        expect(created).toEqual([1, 2, 3, 4, 5, 6]);
        expect(state).toEqual({ status: 'completed', nextPeriod: 7, issuedCount: 6 });
      }),
    );
  });
});

describe('pause, resume, cancel', () => {
  it('resume skips the periods missed while paused and goes on from the first whose date has not passed', () => {
    // Prepare: paused after period 1, resumed on 15 April (28 Feb and 31 Mar have passed).
    const paused = pauseSeries(active(2))!;
    // Act
    const resumed = resumeSeries(monthly, paused, day('2026-04-15'))!;
    const plan = sweep(resumed, '2026-04-30T05:00:00Z');
    // Assess
    expect(resumed).toEqual({ status: 'active', nextPeriod: 4, issuedCount: 1 });
    expect(plan.create.map((p) => [p.period, toIsoDate(p.issueDate)])).toEqual([[4, '2026-04-30']]);
  });

  it('a period issued on the day of the resume has not passed: it is created that day', () => {
    expect(resumeSeries(monthly, pauseSeries(active(2))!, day('2026-03-31'))).toEqual(active(3, 1));
  });

  it('resumed after its last period: completed', () => {
    const resumed = resumeSeries(monthly, pauseSeries(active(2))!, day('2026-07-01'));
    expect(resumed).toEqual({ status: 'completed', nextPeriod: 7, issuedCount: 1 });
  });

  it('only an active series pauses, only a paused one resumes, and a finished one cannot be cancelled', () => {
    const paused: SeriesState = { status: 'paused', nextPeriod: 2, issuedCount: 1 };
    expect(pauseSeries(paused)).toBeUndefined();
    expect(resumeSeries(monthly, active(2), day('2026-01-01'))).toBeUndefined();
    expect(cancelSeries(paused)).toEqual({ ...paused, status: 'cancelled' });
    expect(cancelSeries({ ...paused, status: 'completed' })).toBeUndefined();
    expect(cancelSeries({ ...paused, status: 'cancelled' })).toBeUndefined();
  });

  it('a new series starts at period 1, or with a start in the past at the first period not passed', () => {
    expect(startSeries(monthly, day('2026-01-31'))).toEqual(active(1, 0));
    expect(startSeries(monthly, day('2026-03-01'))).toEqual(active(3, 0));
    expect(startSeries(monthly, day('2026-07-01'))).toBeUndefined();
  });

  it('next_issue_date: the next period of an active series only', () => {
    expect(nextIssueDate(monthly, active(2))).toEqual(day('2026-02-28'));
    expect(nextIssueDate(monthly, { status: 'paused', nextPeriod: 2, issuedCount: 1 })).toBeUndefined();
    expect(nextIssueDate(monthly, { status: 'completed', nextPeriod: 7, issuedCount: 6 })).toBeUndefined();
  });
});
