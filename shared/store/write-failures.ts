/**
 * The store's own reasons a write did not happen, or may have. They carry no status code and no client text:
 * shared/http/envelope.ts (`toApiError`) turns each into its answer (docs/api.md "Errors").
 */

/** The Idempotency-Key was used before with a different request. Nothing was written. */
export class IdempotencyKeyReusedError extends Error {
  constructor() {
    super('Idempotency-Key reused with a different request');
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** Another request with the same Idempotency-Key is committing right now. Nothing was written by this one. */
export class IdempotencyKeyInFlightError extends Error {
  constructor() {
    super('Idempotency-Key in flight');
    this.name = 'IdempotencyKeyInFlightError';
  }
}

/** Concurrent writes kept changing what this write read until the invocation had no time left. Nothing was written. */
export class ConflictsOutlastedDeadlineError extends Error {
  constructor() {
    super('Conflicting concurrent writes until the deadline');
    this.name = 'ConflictsOutlastedDeadlineError';
  }
}

/** A transaction was sent and its commit could not be confirmed in time: it may have committed. */
export class CommitUnconfirmedError extends Error {
  constructor(cause?: unknown) {
    super('Transaction commit could not be confirmed', { cause });
    this.name = 'CommitUnconfirmedError';
  }
}
