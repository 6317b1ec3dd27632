/**
 * A recurring invoice (a series) as the API decides about it (docs/recurring-invoices.md): its id, what it holds, and
 * the decisions of its routes — a new series, and pausing, resuming or cancelling one. The dates and the sweep's plan
 * are recurring-schedule.ts and recurring-series.ts.
 */
import type { CalendarDate } from './dates.ts';
import { type RecurringSchedule, scheduleError } from './recurring-schedule.ts';
import { cancelSeries, pauseSeries, resumeSeries, type SeriesState, startSeries } from './recurring-series.ts';
import { accept, type Decision, invalidFields, notFound, Refusal, refuse } from './refusal.ts';

export const RECURRING_ID_PREFIX = 'rec_';
/** `rec_` + a ULID (26 Crockford base32 characters). */
export const RECURRING_ID_PATTERN = /^rec_[0-9A-HJKMNP-TV-Z]{26}$/;

export const recurringIdOf = (ulid: string): string => `${RECURRING_ID_PREFIX}${ulid}`;

/** Why the sweep paused a series: its period's invoice was refused (a client deleted since, a card forgotten). */
export interface SeriesError {
  code: string;
  message: string;
  period: number;
}

export interface RecurringSeries {
  id: string;
  companyId: number;
  schedule: RecurringSchedule;
  /** Whether each period's invoice is e-mailed to its client (only the latest of missed periods). */
  send: boolean;
  state: SeriesState;
  /** The add-invoice body each period's invoice is made from, without its `due_date` (the schedule gives it). */
  template: Record<string, unknown>;
  /** The `card_token` of the template, kept for the answer (only its last 4 characters are shown). */
  cardToken: string | undefined;
  version: number;
  createdAt: string;
  updatedAt: string;
  lastError: SeriesError | undefined;
}

/** A new series from its schedule: its first state, or the refusal of a schedule out of range or with no period left. */
export function decideNewSeries(schedule: RecurringSchedule, today: CalendarDate): Decision<SeriesState> {
  const error = scheduleError(schedule);
  if (error) return refuse(error);
  const state = startSeries(schedule, today);
  if (state) return accept(state);
  return refuse(
    invalidFields([
      { code: 'invalid_date', field: 'schedule.end', message: 'leaves no period from today on to issue' },
    ]),
  );
}

/** The series as its owner may see it: absent and another account's are the same `recurring_not_found`. */
export function visibleSeries(series: RecurringSeries | undefined, companyId: number): Decision<RecurringSeries> {
  if (!series || series.companyId !== companyId) return refuse(notFound('recurring_not_found'));
  return accept(series);
}

export type SeriesAction = 'pause' | 'resume' | 'cancel';

/** The status each action leads to: asking for it again changes nothing and answers the series as it is. */
const RESULTING_STATUS: Record<SeriesAction, SeriesState['status']> = {
  pause: 'paused',
  resume: 'active',
  cancel: 'cancelled',
};

const PAST_TENSE: Record<SeriesAction, string> = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' };

/**
 * Pause, resume or cancel: the series' next state (unchanged when it already is what was asked), or
 * `recurring_status_conflict` (409) when the action is not allowed from its status (a completed or cancelled series
 * is done for good).
 */
export function decideSeriesChange(
  series: RecurringSeries | undefined,
  companyId: number,
  action: SeriesAction,
  today: CalendarDate,
): Decision<SeriesState> {
  const visible = visibleSeries(series, companyId);
  if (!visible.ok) return visible;
  const { state, schedule } = visible.value;
  if (state.status === RESULTING_STATUS[action]) return accept(state);
  const after =
    action === 'pause'
      ? pauseSeries(state)
      : action === 'resume'
        ? resumeSeries(schedule, state, today)
        : cancelSeries(state);
  if (after) return accept(after);
  return refuse(
    new Refusal('recurring_status_conflict', `A ${state.status} recurring invoice cannot be ${PAST_TENSE[action]}.`, [
      { code: 'conflict', field: null, message: `the series is ${state.status}`, status: state.status },
    ]),
  );
}

/** The series paused by the sweep because its period's invoice was refused: resuming it goes on from then. */
export function pausedBySweep(state: SeriesState): SeriesState {
  return { ...state, status: 'paused' };
}
