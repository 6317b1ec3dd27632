/**
 * Recurring series in the table (docs/data-design.md "Recurring invoices"): one item per series — its schedule, its
 * state, the add-invoice body its invoices are made from — listed by GSI1 and, while active, in the wake index (GSI2)
 * on the issue date of its next period; and one item per period whose invoice was created, put on condition that it is
 * new in the invoice's own transaction, with the series moved on at the version read: a period's invoice is created
 * exactly once, however many sweeps race (services/recurring-sweep.ts).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { fromIsoDate, toIsoDate } from '../domain/dates.ts';
import type { RecurringSeries, SeriesError } from '../domain/recurring-invoice.ts';
import type { RecurringSchedule, ScheduleUnit } from '../domain/recurring-schedule.ts';
import type { SeriesState, SeriesStatus } from '../domain/recurring-series.ts';
import { batchGet, itemOf } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { type Key, keys, recurringIndexKeys, wakeIndexKeys } from './keys.ts';
import { isPositionIn, type ListingPosition, listingPage } from './listing-index.ts';
import { TABLE } from './table.ts';
import { putNew, type TransactItem } from './write-executor.ts';

export const seriesKey = (seriesId: string): Key => keys.recurringSeries(seriesId);

/** The series among a batch read's items. */
export function seriesFrom(items: Map<string, Item>, seriesId: string): RecurringSeries | undefined {
  const item = itemOf(items, seriesKey(seriesId));
  return item ? seriesFromItem(item) : undefined;
}

/** Series by id, in batched reads (the wake sweep's page of hits). */
export async function loadSeries(seriesIds: readonly string[]): Promise<Map<string, RecurringSeries>> {
  const items = await batchGet([...new Set(seriesIds)].map(seriesKey));
  const found = new Map<string, RecurringSeries>();
  for (const item of items.values()) {
    const series = seriesFromItem(item);
    found.set(series.id, series);
  }
  return found;
}

/** A new series; `wake` (YYYY-MM-DD) puts it in the wake index on its next period's issue date. */
export const newSeriesAction = (table: string, series: RecurringSeries, wake: string | undefined): TransactItem =>
  putNew(table, seriesItem(series, wake));

/** What a write changes of a series: its state, and the wake date of its next period (undefined: out of the index). */
export interface SeriesChange {
  state: SeriesState;
  wake: string | undefined;
  updatedAt: string;
  lastError?: SeriesError | undefined;
}

/** The series moved to `change`, on condition that it is still at the version the decision read. */
export function seriesChangeAction(table: string, before: RecurringSeries, change: SeriesChange): TransactItem {
  const { state, wake, updatedAt, lastError } = change;
  const set: Item = {
    status: state.status,
    next_period: state.nextPeriod,
    issued_count: state.issuedCount,
    version: before.version + 1,
    updated_at: updatedAt,
    ...(wake === undefined ? {} : wakeIndexKeys.attributes(before.id, wake)),
    ...(lastError === undefined ? {} : { last_error: errorAttributes(lastError) }),
  };
  const remove = [
    ...(wake === undefined ? [TABLE.wakeIndex.partitionKey, TABLE.wakeIndex.sortKey] : []),
    ...(lastError === undefined ? ['last_error'] : []),
  ];
  const names = Object.fromEntries([...Object.keys(set), ...remove].map((name) => [`#${name}`, name]));
  return {
    Update: {
      TableName: table,
      Key: seriesKey(before.id),
      ConditionExpression: '#version = :read',
      UpdateExpression: [
        `SET ${Object.keys(set).map((name) => `#${name} = :${name}`)}`,
        remove.length > 0 ? `REMOVE ${remove.map((name) => `#${name}`)}` : '',
      ].join(' '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: {
        ':read': before.version,
        ...Object.fromEntries(Object.entries(set).map(([name, value]) => [`:${name}`, value])),
      },
    },
  };
}

/**
 * A period's invoice created: its period item, new (the "exactly once"), and the series moved on at the version read.
 * Committed in the invoice's own transaction.
 */
export function periodIssuedActions(
  table: string,
  series: RecurringSeries,
  issued: { period: number; referenceCode: string },
  change: SeriesChange,
): TransactItem[] {
  const period: Item = {
    ...keys.recurringPeriod(series.id, issued.period),
    entity: 'recurring_period',
    company_id: series.companyId,
    reference_code: issued.referenceCode,
    created_at: change.updatedAt,
  };
  return [putNew(table, period), seriesChangeAction(table, series, change)];
}

/** Whether a list position (a cursor's) is within this account's series. */
export const isAccountSeriesPosition = (position: ListingPosition, companyId: number): boolean =>
  isPositionIn(position, recurringIndexKeys.partition(companyId));

export interface SeriesPage {
  series: RecurringSeries[];
  next: Record<string, string> | undefined;
}

/** An account's series, newest first: one Query on the listing index (one extra item tells whether more exist). */
export async function querySeries(companyId: number, limit: number, after?: ListingPosition): Promise<SeriesPage> {
  const page = await listingPage({ partition: recurringIndexKeys.partition(companyId), limit, after });
  return { series: page.items.map(seriesFromItem), next: page.next };
}

/** The periods whose invoices were created, with their reference codes, in order (tests and the CLI read them). */
export async function issuedPeriods(seriesId: string): Promise<{ period: number; referenceCode: string }[]> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :period)',
      ExpressionAttributeValues: { ':pk': seriesKey(seriesId).PK, ':period': 'PERIOD#' },
      ConsistentRead: true,
    }),
  );
  return (result.Items ?? []).map((item) => ({
    period: Number(String(item.SK).slice('PERIOD#'.length)),
    referenceCode: String(item.reference_code),
  }));
}

/* The series item (attribute names are snake_case). */

function seriesItem(series: RecurringSeries, wake: string | undefined): Item {
  const { schedule, state } = series;
  return {
    ...seriesKey(series.id),
    GSI1PK: recurringIndexKeys.partition(series.companyId),
    GSI1SK: recurringIndexKeys.sort(series.id),
    ...(wake === undefined ? {} : wakeIndexKeys.attributes(series.id, wake)),
    entity: 'recurring_series',
    company_id: series.companyId,
    series_id: series.id,
    status: state.status,
    next_period: state.nextPeriod,
    issued_count: state.issuedCount,
    version: series.version,
    schedule: {
      every: schedule.every,
      unit: schedule.unit,
      start: toIsoDate(schedule.start),
      due_in_days: schedule.dueInDays,
      ...('after' in schedule.end ? { end_after: schedule.end.after } : { end_on: toIsoDate(schedule.end.on) }),
    },
    send: series.send,
    // JSON text: the body as validated, replayed through the add-invoice schema for each period.
    template: JSON.stringify(series.template),
    ...(series.cardToken === undefined ? {} : { card_token: series.cardToken }),
    created_at: series.createdAt,
    updated_at: series.updatedAt,
    ...(series.lastError === undefined ? {} : { last_error: errorAttributes(series.lastError) }),
  };
}

const errorAttributes = (error: SeriesError): Item => ({
  code: error.code,
  message: error.message,
  period: error.period,
});

function scheduleFromItem(item: Item): RecurringSchedule {
  return {
    every: Number(item.every),
    unit: String(item.unit) as ScheduleUnit,
    start: fromIsoDate(String(item.start)),
    dueInDays: Number(item.due_in_days),
    end: item.end_after !== undefined ? { after: Number(item.end_after) } : { on: fromIsoDate(String(item.end_on)) },
  };
}

function seriesFromItem(item: Item): RecurringSeries {
  const error = item.last_error as Item | undefined;
  return {
    id: String(item.series_id),
    companyId: Number(item.company_id),
    schedule: scheduleFromItem(item.schedule as Item),
    send: item.send === true,
    state: {
      status: String(item.status) as SeriesStatus,
      nextPeriod: Number(item.next_period),
      issuedCount: Number(item.issued_count),
    },
    template: JSON.parse(String(item.template)) as Record<string, unknown>,
    cardToken: typeof item.card_token === 'string' ? item.card_token : undefined,
    version: Number(item.version),
    createdAt: String(item.created_at),
    updatedAt: String(item.updated_at),
    lastError: error
      ? { code: String(error.code), message: String(error.message), period: Number(error.period) }
      : undefined,
  };
}
