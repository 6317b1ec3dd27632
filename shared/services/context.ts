/** The request a service serves, worked out once per request (shared/http/handler.ts makes it for every route). */
import { todayForOverdue } from '../clock.ts';
import { type CalendarDate, todayIn } from '../domain/dates.ts';
import type { Refusal } from '../domain/refusal.ts';
import { refused } from '../representation/views.ts';
import type { RouteName } from '../routes.ts';
import type { Account } from '../store/accounts.ts';
import { type IdempotencyRequest, idempotencyRequest, type WritePlan } from '../store/write-executor.ts';

export interface RequestContext {
  account: Account;
  requestId: string;
  /** Idempotency-Key header value, already validated; undefined when absent or not taken by the route. */
  idempotencyKey: string | undefined;
  /** Today in the account's time zone: a payment may not be dated after it; history periods end on it. */
  today: CalendarDate;
  /**
   * The date answers decide `payment_status` `overdue` on: `today`, moved forward by CLOCK_OFFSET_MS in the local
   * runtime only (shared/clock.ts; docs/decisions.md "Overdue").
   */
  todayForOverdue: CalendarDate;
}

/** The context of one request (or of one CLI or benchmark call) by the account's time zone. */
export function requestContext(
  account: Account,
  requestId: string,
  idempotencyKey: string | undefined = undefined,
  at: Date | undefined = undefined,
): RequestContext {
  const { timeZone } = account;
  // A background write (a recurring period's invoice) decides on its run's instant, not on the wall clock's.
  if (at)
    return { account, requestId, idempotencyKey, today: todayIn(timeZone, at), todayForOverdue: todayIn(timeZone, at) };
  return { account, requestId, idempotencyKey, today: todayIn(timeZone), todayForOverdue: todayForOverdue(timeZone) };
}

/** A refused write: nothing to commit but the refusal as its answer (and, with a key, its idempotency record). */
export const refusedWrite = (refusal: Refusal, context: RequestContext): WritePlan => ({
  actions: [],
  response: refused(refusal, context.requestId),
});

/** The write's Idempotency-Key record to check and commit, when the request sent a key (docs/api.md "Idempotency"). */
export const idempotencyOf = (
  context: RequestContext,
  route: RouteName,
  normalisedInput: unknown,
): IdempotencyRequest | undefined =>
  context.idempotencyKey === undefined
    ? undefined
    : idempotencyRequest(context.account.companyId, route, context.idempotencyKey, normalisedInput);
