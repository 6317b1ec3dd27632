/**
 * A recurring series' state and what the scheduled sweep does with it, pure (docs/decisions.md "Recurring
 * invoices"). Periods are numbered on the schedule's calendar; the series remembers the next period to create. A sweep
 * creates every period that has become issuable since, once and in order, and sends only the latest of them (no burst
 * of back-dated sends); the store's conditional write on series + period keeps each created exactly once under racing
 * sweeps. A series started or resumed goes on from the first period whose issue date has not passed: periods missed
 * while paused (or before a series was created) are never created.
 */
import { type CalendarDate, compareDates } from './dates.ts';
import { dueDateOf, issuableAt, issueDateOf, lastPeriodOf, type RecurringSchedule } from './recurring-schedule.ts';

export type SeriesStatus = 'active' | 'paused' | 'completed' | 'cancelled';

export interface SeriesState {
  status: SeriesStatus;
  /** The next period to create (past the last one once completed). */
  nextPeriod: number;
  /** Invoices created so far (`issued_count`). */
  issuedCount: number;
}

/** The first period from `from` on whose issue date is today or later, or undefined when the series ends before. */
function firstNotPassed(schedule: RecurringSchedule, from: number, today: CalendarDate): number | undefined {
  const last = lastPeriodOf(schedule);
  for (let period = from; period <= last; period++) {
    if (compareDates(issueDateOf(schedule, period)!, today) >= 0) return period;
  }
  return undefined;
}

/**
 * A new series: from period 1 when its start is today or later, else from the first period not passed (a start in the
 * past anchors the dates without creating back-dated invoices); undefined when no period is left to create.
 */
export function startSeries(schedule: RecurringSchedule, today: CalendarDate): SeriesState | undefined {
  const nextPeriod = firstNotPassed(schedule, 1, today);
  return nextPeriod === undefined ? undefined : { status: 'active', nextPeriod, issuedCount: 0 };
}

/** Pausing an active series (undefined: not active, nothing to pause). */
export function pauseSeries(state: SeriesState): SeriesState | undefined {
  return state.status === 'active' ? { ...state, status: 'paused' } : undefined;
}

/**
 * Resuming a paused series: it goes on from the first period whose issue date is today or later (today's is created at
 * 06:00, or at once when that has passed); completed when none is left. Undefined: not paused.
 */
export function resumeSeries(
  schedule: RecurringSchedule,
  state: SeriesState,
  today: CalendarDate,
): SeriesState | undefined {
  if (state.status !== 'paused') return undefined;
  const nextPeriod = firstNotPassed(schedule, state.nextPeriod, today);
  if (nextPeriod === undefined) return { ...state, status: 'completed', nextPeriod: lastPeriodOf(schedule) + 1 };
  return { ...state, status: 'active', nextPeriod };
}

/** Cancelling an active or paused series, for good (undefined: already completed or cancelled). */
export function cancelSeries(state: SeriesState): SeriesState | undefined {
  return state.status === 'active' || state.status === 'paused' ? { ...state, status: 'cancelled' } : undefined;
}

/** The issue date of the period an active series creates next (`next_issue_date`); undefined otherwise. */
export function nextIssueDate(schedule: RecurringSchedule, state: SeriesState): CalendarDate | undefined {
  if (state.status !== 'active' || state.nextPeriod > lastPeriodOf(schedule)) return undefined;
  return issueDateOf(schedule, state.nextPeriod);
}

export interface PlannedPeriod {
  period: number;
  issueDate: CalendarDate;
  dueDate: CalendarDate;
}

export interface SeriesSweepPlan {
  /** The periods to create, in order (each once: the store's condition on series + period). */
  create: PlannedPeriod[];
  /** The one period to send (the latest created) when the series sends; undefined otherwise. */
  send: number | undefined;
  /** The series after the plan is committed (`completed` once its last period is created). */
  after: SeriesState;
  /** When the sweep must look at the series again; undefined when it will not (not active, or completed). */
  wakeAt: Date | undefined;
}

export interface SweepMoment {
  now: Date;
  /** The account's IANA time zone. */
  timeZone: string;
  /** Whether the series sends its invoices (`send`). */
  send: boolean;
}

/** What a sweep at `moment.now` does with a series. */
export function planSeriesSweep(schedule: RecurringSchedule, state: SeriesState, moment: SweepMoment): SeriesSweepPlan {
  if (state.status !== 'active') return { create: [], send: undefined, after: state, wakeAt: undefined };
  const last = lastPeriodOf(schedule);
  const create: PlannedPeriod[] = [];
  let period = state.nextPeriod;
  for (; period <= last; period++) {
    const issueDate = issueDateOf(schedule, period)!;
    if (issuableAt(issueDate, moment.timeZone).getTime() > moment.now.getTime()) break;
    create.push({ period, issueDate, dueDate: dueDateOf(schedule, issueDate) });
  }
  const completed = period > last;
  const after: SeriesState = {
    status: completed ? 'completed' : 'active',
    nextPeriod: period,
    issuedCount: state.issuedCount + create.length,
  };
  const wakeAt = completed ? undefined : issuableAt(issueDateOf(schedule, period)!, moment.timeZone);
  return { create, send: moment.send ? create.at(-1)?.period : undefined, after, wakeAt };
}
