import type { ApiError } from '../errors.ts';
import { failure } from '../outcome.ts';
import type { Account } from '../store/accounts.ts';
import type { WritePlan } from '../store/write-executor.ts';

/** What a service needs to know about the request it serves. */
export interface RequestContext {
  account: Account;
  requestId: string;
  /** Idempotency-Key header value, already validated. */
  idempotencyKey: string | undefined;
}

/** A refused write: nothing to commit but the outcome (and, with a key, its idempotency record). */
export const refusal = (error: ApiError, context: RequestContext): WritePlan => ({
  actions: [],
  response: failure(error, context.requestId),
});
