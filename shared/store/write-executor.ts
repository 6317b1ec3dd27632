/**
 * Executes one business write: one consistent read, a decision, and one TransactWriteItems that
 * carries every invariant as a condition (and the idempotency record, when a key was sent).
 * The read is consistent per item (BatchGetItem), or a snapshot (TransactGetItems) for a decision that
 * combines items one transaction changes together (a payment and its invoice): a per-item read can see half of
 * such a transaction, and the decision would then be made on a state that never existed (docs/decisions.md
 * "Snapshot reads").
 * A failed condition or a conflicting transaction means another request changed what was read:
 * re-read and decide again for as long as the invocation has time for another attempt, then give up
 * (`ConflictsOutlastedDeadlineError`: nothing was written; the HTTP layer answers 503). Waits between
 * attempts are fully jittered over an exponentially growing window, so that writers contending for one
 * invoice spread out and each makes progress.
 */
import { remainingCallTime } from '../call-deadline.ts';
import type { Outcome } from '../outcome.ts';
import { batchGet, itemOf } from './batch.ts';
import { cancellationReasons, isRetryableCancellation } from './database-errors.ts';
import { tableName } from './dynamodb-client.ts';
import { type IdempotencyRequest, interpretRecord, recordKey, recordPut } from './idempotency.ts';
import type { Item } from './items.ts';
import type { Key } from './keys.ts';
import { SnapshotConflictError, snapshotGet } from './snapshot.ts';
import { commitTransaction, MIN_TIME_TO_SEND_TRANSACTION_MS, type TransactItem } from './transaction.ts';
import {
  ConflictsOutlastedDeadlineError,
  IdempotencyKeyInFlightError,
  IdempotencyKeyReusedError,
} from './write-failures.ts';

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
  /** Every item the decision needs, read in one BatchGetItem or snapshot (asked again for every attempt). */
  keys(): Key[] | Promise<Key[]>;
  /**
   * `snapshot`: the keys (and the Idempotency-Key's record) are read as of one instant (store/snapshot.ts), for a
   * decision over items that one transaction changes together. Default `per-item`: one BatchGetItem.
   */
  read?: 'snapshot' | 'per-item';
  /** Called once after every attempt, with whether its transaction committed (id blocks settle here). */
  settle?(committed: boolean): void;
  /** Returns the transaction to commit with its outcome, or a refusal (403/404/409) with no actions. */
  decide(items: Map<string, Item>, attempt: number): WritePlan | Promise<WritePlan>;
}

export interface WriteResult {
  response: Outcome;
  replayed: boolean;
}

/** Outside an invocation (CLI, scripts: no deadline), conflicts are retried for at most this long. */
export const RETRY_BUDGET_WITHOUT_DEADLINE_MS = 8_000;
/** An attempt (read, decide, commit with its confirmation) is only started with at least this much time left. */
const MIN_TIME_FOR_ATTEMPT_MS = MIN_TIME_TO_SEND_TRANSACTION_MS + 100;
const BACKOFF_BASE_MS = 5;
const BACKOFF_CAP_MS = 200;

/** Full jitter: uniform over [0, min(cap, base · 2^attempt)). */
const backoffDelay = (attempt: number) => Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Milliseconds this write may still spend on attempts: the invocation's deadline, or the budget without one. */
function retryClock(): () => number {
  const remaining = remainingCallTime();
  const stopAt = Date.now() + (remaining === Infinity ? RETRY_BUDGET_WITHOUT_DEADLINE_MS : remaining);
  return () => Math.min(remainingCallTime(), stopAt - Date.now());
}

/** Waits before another attempt; false when no further attempt fits in the time left. */
async function waitForAnotherAttempt(attempt: number, withBackoff: boolean, timeLeft: () => number): Promise<boolean> {
  const wait = withBackoff ? backoffDelay(attempt) : 0;
  if (timeLeft() < wait + MIN_TIME_FOR_ATTEMPT_MS) return false;
  if (wait > 0) await pause(wait);
  return true;
}

/** What one attempt came to: a result to return, or another attempt (`readAgain`: at once, no backoff). */
type AttemptOutcome = { done: WriteResult } | { retry: { readAgain: boolean } };

export async function executeWrite(spec: WriteSpec, idempotency: IdempotencyRequest | undefined): Promise<WriteResult> {
  const timeLeft = retryClock();
  let readAgain = false;
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1 && !(await waitForAnotherAttempt(attempt, !readAgain, timeLeft))) break;
    const outcome = await runAttempt(spec, idempotency, attempt);
    if ('done' in outcome) return outcome.done;
    readAgain = outcome.retry.readAgain;
  }
  throw new ConflictsOutlastedDeadlineError();
}

/** One attempt: read (with the key's record), replay or decide, commit; settles the spec's id claims either way. */
async function runAttempt(
  spec: WriteSpec,
  idempotency: IdempotencyRequest | undefined,
  attempt: number,
): Promise<AttemptOutcome> {
  const idemKey = idempotency ? recordKey(idempotency) : undefined;
  let committed = false;
  try {
    const keys = await spec.keys();
    const items = await readForDecision(spec, idemKey ? [idemKey, ...keys] : keys);
    if (!items) return { retry: { readAgain: false } };
    if (idempotency && idemKey) {
      const record = interpretRecord(idempotency, itemOf(items, idemKey));
      if (record.state === 'match') return { done: { response: record.response, replayed: true } };
      if (record.state === 'mismatch') throw new IdempotencyKeyReusedError();
    }
    let plan: WritePlan;
    try {
      plan = await spec.decide(items, attempt);
    } catch (error) {
      if (!(error instanceof ReadAgain)) throw error;
      return { retry: { readAgain: true } };
    }
    const actions = idempotency ? [...plan.actions, recordPut(tableName(), idempotency, plan.response)] : plan.actions;
    if (actions.length > 0) committed = await commitOrConflict(actions, idempotency !== undefined);
    if (actions.length === 0 || committed) return { done: { response: plan.response, replayed: false } };
    return { retry: { readAgain: false } };
  } finally {
    spec.settle?.(committed);
  }
}

/** The attempt's read; undefined when a snapshot met a transaction in progress (a conflict: pause, read again). */
async function readForDecision(spec: WriteSpec, keys: Key[]): Promise<Map<string, Item> | undefined> {
  if (spec.read !== 'snapshot') return batchGet(keys);
  try {
    return await snapshotGet(keys);
  } catch (error) {
    if (error instanceof SnapshotConflictError) return undefined;
    throw error;
  }
}

/**
 * Commits, returning true; false when what was read changed meanwhile (a condition failed or a transaction
 * conflicted: read and decide again). Throws a refusal (certainly not committed), CommitUnconfirmedError, or
 * IdempotencyKeyInFlightError when the key's own record (the last action) is being committed by another request.
 */
async function commitOrConflict(actions: TransactItem[], withIdempotencyRecord: boolean): Promise<boolean> {
  try {
    await commitTransaction(actions);
    return true;
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons || !isRetryableCancellation(reasons)) throw error;
    if (withIdempotencyRecord && reasons[actions.length - 1]?.Code === 'TransactionConflict')
      throw new IdempotencyKeyInFlightError();
    return false;
  }
}
