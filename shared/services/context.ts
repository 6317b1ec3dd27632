import type { Refusal } from '../domain/refusal.ts';
import type { Failure } from '../outcome.ts';
import type { Account } from '../store/accounts.ts';
import type { WritePlan } from '../store/write-executor.ts';

/** What a service needs to know about the request it serves. */
export interface RequestContext {
  account: Account;
  requestId: string;
  /** Idempotency-Key header value, already validated. */
  idempotencyKey: string | undefined;
}

/** A refused write: nothing to commit but the refusal as its answer (and, with a key, its idempotency record). */
export function refusal(refused: Refusal, context: RequestContext): WritePlan {
  const response: Failure = {
    code: refused.code,
    message: refused.message,
    errors: refused.errors,
    requestId: context.requestId,
  };
  return { actions: [], response };
}
