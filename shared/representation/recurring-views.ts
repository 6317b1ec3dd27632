/**
 * What the recurring-invoice routes answer (docs/recurring-invoices.md "The series"): a series as the API shows it —
 * calendar dates as the Unix timestamps of their 00:00 UTC, as `due_date` is — and each route's answer.
 */
import { type CalendarDate, toEpochSeconds } from '../domain/dates.ts';
import type { RecurringSeries, SeriesAction } from '../domain/recurring-invoice.ts';
import { nextIssueDate } from '../domain/recurring-series.ts';
import { type Success, success } from '../outcome.ts';

const timestamp = (date: CalendarDate): string => String(toEpochSeconds(date));

export function seriesView(series: RecurringSeries) {
  const { schedule, state } = series;
  const next = nextIssueDate(schedule, state);
  const template = series.template;
  return {
    id: series.id,
    status: state.status,
    schedule: {
      every: schedule.every,
      unit: schedule.unit,
      start: timestamp(schedule.start),
      due_in_days: schedule.dueInDays,
      end: 'after' in schedule.end ? { after: schedule.end.after } : { on: timestamp(schedule.end.on) },
    },
    send: series.send,
    next_issue_date: next === undefined ? null : timestamp(next),
    issued_count: state.issuedCount,
    client_id: String(template.client_id),
    fee_bearer: String(template.fee_bearer),
    ...(series.cardToken === undefined ? {} : { card_token_last4: series.cardToken.slice(-4) }),
    last_error: series.lastError ?? null,
    created_at: series.createdAt,
    updated_at: series.updatedAt,
  };
}

export type SeriesView = ReturnType<typeof seriesView>;

export const RECURRING_CREATED = 'Recurring invoice created.';
const CHANGED: Record<SeriesAction, string> = {
  pause: 'Recurring invoice paused.',
  resume: 'Recurring invoice resumed.',
  cancel: 'Recurring invoice cancelled.',
};

export const seriesCreated = (series: RecurringSeries): Success<SeriesView> =>
  success(201, seriesView(series), RECURRING_CREATED);
export const seriesShown = (series: RecurringSeries): Success<SeriesView> => success(200, seriesView(series));
export const seriesChanged = (series: RecurringSeries, action: SeriesAction): Success<SeriesView> =>
  success(200, seriesView(series), CHANGED[action]);
