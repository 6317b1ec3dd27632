/**
 * The recurring-invoice routes (docs/recurring-invoices.md): create a series (one read, the add-invoice decisions on its
 * client and card, one transaction that puts the series — and its new client — so that every period's invoice names
 * the same client), read and list series, and pause, resume or cancel one (one read, a decision, one update at the
 * version read). The periods' invoices are the wake sweep's: services/recurring-sweep.ts.
 */
import { formatTimestamp, toIsoDate } from '../domain/dates.ts';
import { type ClientChoice, decideInvoice, newClient, requestedSplit } from '../domain/invoice.ts';
import {
  decideNewSeries,
  decideSeriesChange,
  type RecurringSeries,
  recurringIdOf,
  type SeriesAction,
  visibleSeries,
} from '../domain/recurring-invoice.ts';
import { issueDateOf, type RecurringSchedule } from '../domain/recurring-schedule.ts';
import type { SeriesState } from '../domain/recurring-series.ts';
import { invalidCursor } from '../domain/refusal.ts';
import { cardTokenRefusal, namesSavedCard } from '../domain/saved-card.ts';
import {
  type SeriesView,
  seriesChanged,
  seriesCreated,
  seriesShown,
  seriesView,
} from '../representation/recurring-views.ts';
import type { Answer } from '../representation/views.ts';
import { DEFAULT_HISTORY_LIMIT } from '../schemas/fields.ts';
import { type RecurringInvoiceInput, toSchedule } from '../schemas/recurring.ts';
import { batchGet } from '../store/batch.ts';
import { savedCardFrom, savedCardKey } from '../store/cards.ts';
import { clientFrom, clientLookupKey, clientStillExists, newClientActions } from '../store/clients.ts';
import { tableName } from '../store/dynamodb-client.ts';
import type { Item } from '../store/items.ts';
import type { Key } from '../store/keys.ts';
import {
  isAccountSeriesPosition,
  newSeriesAction,
  querySeries,
  seriesChangeAction,
  seriesFrom,
  seriesKey,
} from '../store/recurring.ts';
import { claimId, IdAllocator, type IdClaim, sequenceActions } from '../store/sequences.ts';
import { executeWrite, stillExists, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { newUlid } from '../ulid.ts';
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';

/** The wake date of a series' next period (its issue date), or undefined when it is not active. */
export function wakeOf(schedule: RecurringSchedule, state: SeriesState): string | undefined {
  if (state.status !== 'active') return undefined;
  const date = issueDateOf(schedule, state.nextPeriod);
  return date && toIsoDate(date);
}

interface NewSeries {
  context: RequestContext;
  input: RecurringInvoiceInput;
  template: Record<string, unknown>;
  schedule: RecurringSchedule;
  state: SeriesState;
  clientKey: Key;
  cardKey: Key | undefined;
  clientIds: IdAllocator;
}

/** `POST /recurring-invoices`: `template` is the add-invoice body as sent (schemas/recurring.ts `invoiceTemplateOf`). */
export async function createRecurring(
  context: RequestContext,
  input: RecurringInvoiceInput,
  template: Record<string, unknown>,
): Promise<WriteResult> {
  const { companyId } = context.account;
  // A discount above its line, a zero or over-the-cap total: refused before any database work, as on add invoice.
  requestedSplit(input, context.account.vat);
  const schedule = toSchedule(input.schedule);
  const decision = decideNewSeries(schedule, context.todayForOverdue);
  if (!decision.ok) throw decision.refusal;
  const write: NewSeries = {
    context,
    input,
    template,
    schedule,
    state: decision.value,
    clientKey: clientLookupKey(companyId, input),
    cardKey:
      input.card_token && namesSavedCard(input.card_token) ? savedCardKey(companyId, input.card_token) : undefined,
    clientIds: new IdAllocator(tableName(), companyId, 'client'),
  };
  try {
    return await executeWrite(
      {
        keys: async () => [
          write.clientKey,
          ...(write.cardKey ? [write.cardKey] : []),
          ...(input.client ? await write.clientIds.keysToRead() : []),
        ],
        settle: (committed) => write.clientIds.settle(committed),
        decide: (items) => planSeries(write, items),
      },
      idempotencyOf(context, 'create-recurring-invoice', input),
    );
  } finally {
    write.clientIds.release();
  }
}

/** The add-invoice decisions on the series' client and card, then the series (and its new client) as one write. */
function planSeries(write: NewSeries, items: Map<string, Item>): WritePlan {
  const { context, input } = write;
  const client = clientFrom(items, write.clientKey);
  const facts = { client, merchantRefTaken: false };
  const decision = decideInvoice(context.account, { ...input, due_date: write.schedule.start }, facts);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const existing = 'existing' in decision.value ? decision.value.existing.id : undefined;
  const card = write.cardKey && savedCardFrom(items, write.cardKey);
  const cardRefusal = cardTokenRefusal(input.card_token, card, existing);
  if (cardRefusal) return refusedWrite(cardRefusal, context);
  const now = formatTimestamp(new Date());
  const chosen = seriesClient(write, decision.value, items, now);
  const { client: _inline, ...rest } = write.template;
  const series: RecurringSeries = {
    id: recurringIdOf(newUlid()),
    companyId: context.account.companyId,
    schedule: write.schedule,
    send: input.send ?? false,
    state: write.state,
    // Every period names the client chosen now: an inline client is created once, here.
    template: { ...rest, client_id: chosen.clientId },
    cardToken: input.card_token,
    version: 1,
    createdAt: now,
    updatedAt: now,
    lastError: undefined,
  };
  const table = tableName();
  return {
    actions: [
      ...chosen.actions,
      ...(write.cardKey ? [stillExists(table, write.cardKey)] : []),
      newSeriesAction(table, series, wakeOf(series.schedule, series.state)),
      ...sequenceActions(chosen.claims),
    ],
    response: seriesCreated(series),
  };
}

function seriesClient(write: NewSeries, choice: ClientChoice, items: Map<string, Item>, now: string) {
  const table = tableName();
  if ('existing' in choice)
    return { clientId: choice.existing.id, actions: [clientStillExists(table, write.clientKey)], claims: [] };
  const claim: IdClaim = claimId(write.clientIds, items);
  const client = newClient(write.context.account.companyId, claim.id, choice.create, now);
  return { clientId: client.id, actions: newClientActions(table, client), claims: [claim] };
}

/** `GET /recurring-invoices/{id}`; `recurring_not_found` when absent or another account's. */
export async function getRecurring(context: RequestContext, seriesId: string): Promise<Answer> {
  const found = seriesFrom(await batchGet([seriesKey(seriesId)]), seriesId);
  const visible = visibleSeries(found, context.account.companyId);
  if (!visible.ok) throw visible.refusal;
  return seriesShown(visible.value);
}

export interface SeriesListPage {
  series: SeriesView[];
  next: Record<string, string> | undefined;
}

/** `GET /recurring-invoices`: newest first; `after` is a cursor's position (`invalid_cursor` if not this account's). */
export async function listRecurring(
  context: RequestContext,
  input: { limit?: number | undefined },
  after: Record<string, string> | undefined,
): Promise<SeriesListPage> {
  const { companyId } = context.account;
  if (after && !isAccountSeriesPosition(after, companyId)) throw invalidCursor();
  const page = await querySeries(companyId, input.limit ?? DEFAULT_HISTORY_LIMIT, after);
  return { series: page.series.map(seriesView), next: page.next };
}

/** `POST /recurring-invoices/{id}/pause|resume|cancel`. */
export function changeRecurring(context: RequestContext, seriesId: string, action: SeriesAction): Promise<WriteResult> {
  return executeWrite(
    { keys: () => [seriesKey(seriesId)], decide: (items) => planChange(context, seriesId, action, items) },
    idempotencyOf(context, `${action}-recurring-invoice`, { seriesId }),
  );
}

function planChange(context: RequestContext, seriesId: string, action: SeriesAction, items: Map<string, Item>) {
  const series = seriesFrom(items, seriesId);
  const decision = decideSeriesChange(series, context.account.companyId, action, context.todayForOverdue);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const before = series!;
  const state = decision.value;
  if (state === before.state) return { actions: [], response: seriesChanged(before, action) };
  const updatedAt = formatTimestamp(new Date());
  // Resuming clears why the sweep paused it; pausing or cancelling keeps it.
  const lastError = action === 'resume' ? undefined : before.lastError;
  const after: RecurringSeries = { ...before, state, updatedAt, lastError, version: before.version + 1 };
  const change = { state, wake: wakeOf(before.schedule, state), updatedAt, lastError };
  return {
    actions: [seriesChangeAction(tableName(), before, change)],
    response: seriesChanged(after, action),
  };
}
