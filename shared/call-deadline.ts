/**
 * The time budget of one invocation for database calls (docs/api.md "Ambiguous outcomes").
 * The HTTP layer opens a scope with the moment by which every DynamoDB call must have ended; the
 * client refuses to start a call that could not finish by then and gives up waiting at that moment.
 * The scope also records whether a transaction was sent that DynamoDB did not certainly refuse, so that
 * an answer given at the deadline says so (504 `outcome_unknown`) instead of inviting a blind retry.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface CallBudget {
  /** Epoch milliseconds by which every database call must have ended. */
  deadline: number;
  /** A TransactWriteItems was sent and DynamoDB did not refuse it: it committed, or may have. */
  writeMayHaveCommitted: boolean;
}

const scope = new AsyncLocalStorage<CallBudget>();

/** Runs `work` with every database call it makes bounded by `deadline` (epoch ms). */
export function withCallDeadline<T>(deadline: number, work: () => T): T {
  return scope.run({ deadline, writeMayHaveCommitted: false }, work);
}

/** Milliseconds left before the current deadline (Infinity outside a scope: CLI, scripts, tests). */
export function remainingCallTime(): number {
  const budget = scope.getStore();
  return budget ? budget.deadline - Date.now() : Infinity;
}

/** Records whether the current scope has sent a transaction that committed or may have. */
export function markWriteMayHaveCommitted(mayHave: boolean): void {
  const budget = scope.getStore();
  if (budget) budget.writeMayHaveCommitted = mayHave;
}

/** True when the current scope sent a transaction that DynamoDB did not certainly refuse. */
export function writeMayHaveCommitted(): boolean {
  return scope.getStore()?.writeMayHaveCommitted ?? false;
}

/**
 * Thrown instead of a database call when the deadline is too close (`sent: false`: the call certainly
 * did not reach DynamoDB) or when the deadline passed while waiting for its answer (`sent: true`).
 */
export class DeadlineReachedError extends Error {
  constructor(readonly sent: boolean) {
    super(
      sent
        ? 'No answer from DynamoDB before the invocation deadline'
        : 'Too close to the invocation deadline to call DynamoDB',
    );
    this.name = 'DeadlineReachedError';
  }
}
