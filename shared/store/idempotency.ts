/**
 * Idempotency records (docs/api.md "Idempotency"). A record holds the first outcome of a key and commits in the same
 * transaction as the invoice or payment it describes, so a crash after the write cannot produce a second one.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { isRecord } from '../guards.ts';
import { isFailure, type Outcome } from '../outcome.ts';
import type { RouteName } from '../routes.ts';
import type { Item } from './items.ts';
import { type Key, keys } from './keys.ts';

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
