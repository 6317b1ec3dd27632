/**
 * What DynamoDB's (and the SDK's network) errors mean, read in the store, the one place that knows their shapes:
 * the error names, network codes and a cancelled transaction's reasons. shared/http answers a transient one with
 * 503 (`toApiError` in shared/http/envelope.ts); the write executor re-reads after a retryable cancellation.
 */
import { propertyOf } from '../guards.ts';

/** Errors that mean "not now" (throttled, busy, timed out): nothing was done, and the request may be retried. */
const TRANSIENT_ERROR_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionInProgressException',
  'TransactionConflictException',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
]);
const TRANSIENT_NETWORK_CODES = new Set(['ETIMEDOUT', 'ECONNRESET', 'ECONNREFUSED']);
/** A transaction cancelled for one of these reasons was not refused by its conditions: it may simply be retried. */
const TRANSIENT_CANCELLATION_CODES = new Set([
  'ThrottlingError',
  'TransactionConflict',
  'ProvisionedThroughputExceeded',
]);

/** The reasons of a cancelled transaction, one per action (`{}` for a single put's failed condition). */
export type Cancellation = { Code?: string }[];

/** A transaction's (or a conditional write's) cancellation reasons; undefined when the error is not a cancellation. */
export function cancellationReasons(error: unknown): Cancellation | undefined {
  const name = propertyOf(error, 'name');
  if (name === 'TransactionCanceledException') {
    const reasons = propertyOf(error, 'CancellationReasons');
    return Array.isArray(reasons) ? reasons.map((reason) => ({ Code: codeOf(reason) })) : [];
  }
  if (name === 'ConditionalCheckFailedException') return [{ Code: 'ConditionalCheckFailed' }];
  return undefined;
}

const codeOf = (reason: unknown): string | undefined => {
  const code = propertyOf(reason, 'Code');
  return typeof code === 'string' ? code : undefined;
};

/** Cancelled because what was read changed (a condition failed, a concurrent transaction): read and decide again. */
export function isRetryableCancellation(reasons: Cancellation): boolean {
  return reasons.every((r) => ['None', 'ConditionalCheckFailed', 'TransactionConflict', undefined].includes(r.Code));
}

/** True when the database (or the way to it) was busy or slow: nothing was done; the client may retry shortly. */
export function isTransientDatabaseError(error: unknown): boolean {
  const name = propertyOf(error, 'name');
  const code = propertyOf(error, 'code');
  if (typeof name === 'string' && TRANSIENT_ERROR_NAMES.has(name)) return true;
  if (typeof code === 'string' && TRANSIENT_NETWORK_CODES.has(code)) return true;
  const reasons = cancellationReasons(error);
  return reasons?.some((reason) => reason.Code !== undefined && TRANSIENT_CANCELLATION_CODES.has(reason.Code)) ?? false;
}
