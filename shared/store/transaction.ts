/**
 * Sends one TransactWriteItems and finds out whether it committed (docs/api.md "Ambiguous outcomes").
 *
 * Every transaction carries an explicit ClientRequestToken. When an attempt ends without a clear
 * answer (timeout, dropped connection, a 5xx from DynamoDB), the very same request — same token — is
 * sent again: DynamoDB then answers success if the first one committed (it does not apply it twice),
 * TransactionInProgressException while it is still running, or evaluates it anew if it never arrived.
 * Only a refusal that DynamoDB gives before applying anything counts as "not committed"; when the
 * outcome is still unknown at the invocation's deadline, the caller gets `CommitUnconfirmedError` (the HTTP layer answers 504).
 */
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DeadlineReachedError, markWriteMayHaveCommitted, remainingCallTime } from '../call-deadline.ts';
import { DYNAMODB_TIMEOUTS, documentClient } from './dynamodb-client.ts';
import { CommitUnconfirmedError } from './write-failures.ts';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** Errors DynamoDB returns after evaluating the transaction and applying none of it (any attempt). */
const EVALUATED_AND_CANCELLED = new Set(['TransactionCanceledException', 'ConditionalCheckFailedException']);

/** Refusals DynamoDB returns before it applies anything; conclusive only when the SDK made a single attempt. */
const REFUSED_BEFORE_APPLYING = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ValidationException',
  'ResourceNotFoundException',
  'AccessDeniedException',
  'UnrecognizedClientException',
  'MissingAuthenticationTokenException',
  'InvalidSignatureException',
  'ItemCollectionSizeLimitExceededException',
]);

/** Below this, a transaction is not started (503, certainly not written): one attempt could not run its course. */
export const MIN_TIME_TO_SEND_TRANSACTION_MS = DYNAMODB_TIMEOUTS.requestTimeoutMs;
/** Below this, no further confirmation attempt is made. */
const MIN_TIME_TO_CONFIRM_MS = 200;
/** Outside an invocation (CLI, scripts) there is no deadline: confirm for at most this long. */
const CONFIRMATION_BUDGET_WITHOUT_DEADLINE_MS = 8_000;

export type TransactionFailure = 'not_committed' | 'unknown';

/** Whether a failed TransactWriteItems certainly did not commit, or may have. */
export function classifyTransactionFailure(error: unknown): TransactionFailure {
  if (error instanceof DeadlineReachedError) return error.sent ? 'unknown' : 'not_committed';
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { attempts?: number } };
  if (name && EVALUATED_AND_CANCELLED.has(name)) return 'not_committed';
  // After an SDK retry, the last error says nothing about the earlier attempt (e.g. a timeout, then a throttle).
  if (name && REFUSED_BEFORE_APPLYING.has(name) && ($metadata?.attempts ?? 1) <= 1) return 'not_committed';
  return 'unknown';
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Commits `actions` or throws. A thrown error other than `CommitUnconfirmedError` means the transaction
 * certainly did not commit (cancellations keep their CancellationReasons for the caller to read).
 */
export async function commitTransaction(actions: TransactItem[]): Promise<void> {
  if (remainingCallTime() < MIN_TIME_TO_SEND_TRANSACTION_MS) throw new DeadlineReachedError(false);
  const command = new TransactWriteCommand({ TransactItems: actions, ClientRequestToken: randomUUID() });
  markWriteMayHaveCommitted(true);
  // Until the invocation's deadline, however far it is; the fixed budget only where there is none (as executeWrite).
  const remaining = remainingCallTime();
  const stopAt = Date.now() + (remaining === Infinity ? CONFIRMATION_BUDGET_WITHOUT_DEADLINE_MS : remaining);
  let lastError: unknown;
  for (let confirmation = 0; ; confirmation++) {
    try {
      await documentClient().send(command);
      return;
    } catch (error) {
      lastError = error;
      // A definite answer to a resend also settles the earlier attempts: had one committed, the same token would succeed.
      const conclusive =
        confirmation === 0
          ? classifyTransactionFailure(error) === 'not_committed'
          : EVALUATED_AND_CANCELLED.has((error as Error).name);
      if (conclusive) {
        markWriteMayHaveCommitted(false);
        throw error;
      }
    }
    const wait = Math.min(50 * 2 ** confirmation, 500);
    if (Math.min(remainingCallTime(), stopAt - Date.now()) < wait + MIN_TIME_TO_CONFIRM_MS) break;
    await pause(wait);
  }
  throw new CommitUnconfirmedError(lastError);
}
