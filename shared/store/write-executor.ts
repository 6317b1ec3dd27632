/**
 * Executes one business write: one consistent read, a decision, and one TransactWriteItems that
 * carries every invariant as a condition (and the idempotency record, when a key was sent).
 * A failed condition or a conflicting transaction means another request changed what was read:
 * re-read and decide again, a bounded number of times, then answer 503 (retryable).
 */
import { ApiError, ConflictError, ServiceUnavailableError } from '../errors.ts';
import type { Outcome } from '../outcome.ts';
import { batchGet, itemOf } from './batch.ts';
import { tableName } from './client.ts';
import { type IdempotencyRequest, interpretRecord, recordKey, recordPut } from './idempotency.ts';
import type { Item } from './items.ts';
import type { Key } from './keys.ts';
import { commitTransaction, type TransactItem } from './transaction.ts';

export type { TransactItem };

/** What to commit, and the outcome to answer once it committed. A refusal is an outcome with no actions. */
export interface WritePlan {
  actions: TransactItem[];
  response: Outcome;
}

/** Thrown by `decide` when what it needs was not in this attempt's read: read again (no backoff). */
export class ReadAgain extends Error {
  constructor() {
    super('read again');
    this.name = 'ReadAgain';
  }
}

export interface WriteSpec {
  /** Every item the decision needs, read in one BatchGetItem (asked again for every attempt). */
  keys(): Key[] | Promise<Key[]>;
  /** Called once after every attempt, with whether its transaction committed (id blocks settle here). */
  settle?(committed: boolean): void;
  /** Returns the transaction to commit with its outcome, or a refusal (403/404/409) with no actions. */
  decide(items: Map<string, Item>, attempt: number): WritePlan | Promise<WritePlan>;
}

export interface WriteResult {
  response: Outcome;
  replayed: boolean;
}

export const MAX_WRITE_ATTEMPTS = 8;

const backoff = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.random() * Math.min(10 * 2 ** attempt, 250)));

type Cancellation = { Code?: string }[];

function cancellationReasons(error: unknown): Cancellation | undefined {
  const name = (error as { name?: string }).name;
  if (name === 'TransactionCanceledException')
    return (error as { CancellationReasons?: Cancellation }).CancellationReasons ?? [];
  if (name === 'ConditionalCheckFailedException') return [{ Code: 'ConditionalCheckFailed' }];
  return undefined;
}

const inProgress = () =>
  new ConflictError(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed. Retry shortly.',
    [],
    1,
  );

function isRetryableCancellation(reasons: Cancellation): boolean {
  return reasons.every((r) => ['None', 'ConditionalCheckFailed', 'TransactionConflict', undefined].includes(r.Code));
}

export async function executeWrite(spec: WriteSpec, idempotency: IdempotencyRequest | undefined): Promise<WriteResult> {
  const table = tableName();
  const idemKey = idempotency ? recordKey(idempotency) : undefined;
  let readAgain = false;
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    if (attempt > 1 && !readAgain) await backoff(attempt);
    readAgain = false;
    let committed = false;
    try {
      const keys = await spec.keys();
      const items = await batchGet(idemKey ? [...keys, idemKey] : keys);

      if (idempotency && idemKey) {
        const record = interpretRecord(idempotency, itemOf(items, idemKey));
        if (record.state === 'match') return { response: record.response, replayed: true };
        if (record.state === 'mismatch') {
          throw new ApiError(
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request body.',
          );
        }
      }

      let plan: WritePlan;
      try {
        plan = await spec.decide(items, attempt);
      } catch (error) {
        if (!(error instanceof ReadAgain)) throw error;
        readAgain = true;
        continue;
      }

      const actions = idempotency ? [...plan.actions, recordPut(table, idempotency, plan.response)] : plan.actions;
      if (actions.length === 0) return { response: plan.response, replayed: false };
      try {
        // Commits, or throws: a refusal (certainly not committed) or OutcomeUnknownError (504).
        await commitTransaction(actions);
        committed = true;
        return { response: plan.response, replayed: false };
      } catch (error) {
        const reasons = cancellationReasons(error);
        if (!reasons || !isRetryableCancellation(reasons)) throw error;
        if (idempotency) {
          const idemReason = reasons[actions.length - 1]?.Code;
          // Another request with the same key is committing right now.
          if (idemReason === 'TransactionConflict') throw inProgress();
        }
        // Otherwise something we read changed (or the key's record appeared): read again and decide again.
      }
    } finally {
      spec.settle?.(committed);
    }
  }
  throw new ServiceUnavailableError('The request conflicted with concurrent updates too many times. Retry shortly.');
}
