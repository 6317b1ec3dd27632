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
 *
 * Everything committing one business write takes is here, in the order it is used: the write's own failures, the
 * Idempotency-Key's record, the snapshot read, the transaction and its confirmation, the conditional puts the entity
 * modules build their actions with, and the executor that runs the attempts.
 */
import { createHash, randomUUID } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { TransactGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { DeadlineReachedError, markWriteMayHaveCommitted, remainingCallTime } from '../call-deadline.ts';
import { isRecord } from '../guards.ts';
import { isFailure, type Outcome } from '../outcome.ts';
import type { RouteName } from '../routes.ts';
import { batchGet, itemOf, keyId } from './batch.ts';
import { cancellationReasons, isRetryableCancellation } from './database-errors.ts';
import { DYNAMODB_TIMEOUTS, documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { type Key, keys } from './keys.ts';

/*
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

/*
 * Idempotency records (docs/api.md "Idempotency"). A record holds the first outcome of a key and commits in the same
 * transaction as the invoice or payment it describes, so a crash after the write cannot produce a second one.
 */

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export interface IdempotencyRequest {
  companyId: number;
  route: RouteName;
  /** SHA-256 of the client's key (the key itself is never stored). */
  keyHash: string;
  /** SHA-256 of the validated, normalised request. */
  fingerprint: string;
}

export type RecordState = { state: 'absent' } | { state: 'match'; response: Outcome } | { state: 'mismatch' };

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Canonical JSON (sorted keys) so that equal normalised requests have equal fingerprints. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function idempotencyRequest(
  companyId: number,
  route: RouteName,
  key: string,
  normalisedInput: unknown,
): IdempotencyRequest {
  return { companyId, route, keyHash: sha256(key), fingerprint: sha256(canonical(normalisedInput)) };
}

export const recordKey = (request: IdempotencyRequest): Key =>
  keys.idempotency(request.companyId, request.route, request.keyHash);

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

export function interpretRecord(request: IdempotencyRequest, item: Item | undefined): RecordState {
  if (!item || Number(item.expires_at) <= nowSeconds()) return { state: 'absent' };
  if (item.fingerprint !== request.fingerprint) return { state: 'mismatch' };
  return { state: 'match', response: storedOutcome(item) };
}

const gunzipJson = (value: unknown): unknown =>
  value instanceof Uint8Array ? JSON.parse(gunzipSync(value).toString('utf8')) : undefined;

/** A success has its status and data; a failure its code (older records also hold its status, unused). */
function isOutcome(value: unknown): value is Outcome {
  if (!isRecord(value)) return false;
  if ('code' in value) return typeof value.code === 'string' && 'requestId' in value && Array.isArray(value.errors);
  return typeof value.status === 'number' && 'data' in value;
}

/**
 * The outcome a record holds. (Records of the format before outcomes were stored, `body_gz`, expired 24 h after the
 * format changed; their reader is gone: docs/decisions.md "Idempotency records store the typed outcome".)
 */
function storedOutcome(item: Item): Outcome {
  const stored = gunzipJson(item.outcome_gz);
  if (isOutcome(stored)) return stored;
  throw new Error('Unreadable idempotency record');
}

/**
 * Put of the record; fails its condition when a live record for the key already exists. The outcome is
 * stored gzipped and the key carries account and route, so a typical record stays under 1 KB (1 write unit).
 */
export function recordPut(tableName: string, request: IdempotencyRequest, outcome: Outcome) {
  const now = nowSeconds();
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...recordKey(request),
        entity: 'idempotency',
        fingerprint: request.fingerprint,
        ...(isFailure(outcome) ? {} : { status_code: outcome.status }),
        outcome_gz: gzipSync(JSON.stringify(outcome)),
        expires_at: now + IDEMPOTENCY_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK) OR expires_at <= :now',
      ExpressionAttributeValues: { ':now': now },
    },
  };
}

/*
 * A snapshot read: TransactGetItems, which DynamoDB serialises with every TransactWriteItems, so the items it
 * returns are as of one instant — never half of another request's transaction. BatchGetItem (batch.ts) is
 * consistent per item only: a transaction that commits while it runs can be seen in one item and not in the next.
 * A snapshot read costs twice the read units of a strongly consistent one (docs/cost.md, docs/decisions.md
 * "Snapshot reads").
 */

/** DynamoDB's limit of items per TransactGetItems. */
export const MAX_SNAPSHOT_KEYS = 100;

/** A transaction was writing one of the items: nothing was read; read again after a pause. */
export class SnapshotConflictError extends Error {
  constructor() {
    super('A snapshot read met a transaction in progress');
    this.name = 'SnapshotConflictError';
  }
}

type Cancellation = { Code?: string }[];

function snapshotConflict(error: unknown): boolean {
  const { name, CancellationReasons } = (error ?? {}) as { name?: string; CancellationReasons?: Cancellation };
  if (name !== 'TransactionCanceledException') return false;
  return (CancellationReasons ?? []).every(
    (r) => r.Code === undefined || ['None', 'TransactionConflict'].includes(r.Code),
  );
}

/**
 * Reads `requested` as of one instant; returns the found items by `PK\0SK` (a missing key is absent), like
 * `batchGet`. Only the first 100 distinct keys can share an instant: any further ones are read after it,
 * consistent per item, so a caller puts there only items that change in one direction and that its commit's
 * conditions cover (a reversal's long chain of reversed payments). Throws `SnapshotConflictError` when a
 * transaction was writing one of the items.
 */
export async function snapshotGet(requested: readonly Key[]): Promise<Map<string, Item>> {
  const unique = [...new Map(requested.map((key) => [keyId(key), key])).values()];
  const inSnapshot = unique.slice(0, MAX_SNAPSHOT_KEYS);
  const table = tableName();
  let responses: { Item?: Record<string, unknown> }[];
  try {
    const result = await documentClient().send(
      new TransactGetCommand({ TransactItems: inSnapshot.map((Key) => ({ Get: { TableName: table, Key } })) }),
    );
    responses = result.Responses ?? [];
  } catch (error) {
    if (snapshotConflict(error)) throw new SnapshotConflictError();
    throw error;
  }
  const found = new Map<string, Item>();
  for (const response of responses) if (response?.Item) found.set(keyId(response.Item), response.Item as Item);
  const after = unique.slice(MAX_SNAPSHOT_KEYS);
  if (after.length > 0) for (const [id, item] of await batchGet(after)) found.set(id, item);
  return found;
}

/*
 * Sends one TransactWriteItems and finds out whether it committed (docs/api.md "Ambiguous outcomes").
 *
 * Every transaction carries an explicit ClientRequestToken. When an attempt ends without a clear
 * answer (timeout, dropped connection, a 5xx from DynamoDB), the very same request — same token — is
 * sent again: DynamoDB then answers success if the first one committed (it does not apply it twice),
 * TransactionInProgressException while it is still running, or evaluates it anew if it never arrived.
 * Only a refusal that DynamoDB gives before applying anything counts as "not committed"; when the
 * outcome is still unknown at the invocation's deadline, the caller gets `CommitUnconfirmedError` (the HTTP layer answers 504).
 */

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

/**
 * Commits a background job's write (a job's state with what it changes): false when DynamoDB cancelled it — a
 * condition no longer holds or another transaction was on the same items — so the job reads again and decides anew.
 */
export async function commitUnlessChanged(actions: TransactItem[]): Promise<boolean> {
  try {
    await commitTransaction(actions);
    return true;
  } catch (error) {
    if (cancellationReasons(error) !== undefined) return false;
    throw error;
  }
}

/* Transaction actions shared by the entity modules. */

/** Put `item` on condition that no item has its key yet. */
export const putNew = (table: string, item: Item): TransactItem => ({
  Put: { TableName: table, Item: item, ConditionExpression: 'attribute_not_exists(PK)' },
});

/** Commit only if the item at `key` (read by the decision) still exists. */
export const stillExists = (table: string, key: Key): TransactItem => ({
  ConditionCheck: { TableName: table, Key: key, ConditionExpression: 'attribute_exists(PK)' },
});

/* The executor. */

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
   * `snapshot`: the keys (and the Idempotency-Key's record) are read as of one instant (`snapshotGet`), for a
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
