/**
 * Webhook event items (docs/webhooks.md): the outbox items that commit in the same transaction as the write they
 * describe, and their delivery state: the outbox's webhook kind (store/outbox.ts), whose INSERTs the table's stream
 * dispatches to the delivery queue. The endpoint is webhook-endpoints.ts; listing and resending, webhook-deliveries.ts.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookEvent, WebhookEventType } from '../domain/webhook-events.ts';
import { monotonicUlids } from '../ulid.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { deliveryIndexKeys, keys } from './keys.ts';
import { TABLE } from './table.ts';
import type { TransactItem } from './write-executor.ts';

/** `entity` of an outbox event item (one per event, written in the business transaction). */
export const WEBHOOK_EVENT_ENTITY = 'webhook_event';
/** `entity` of a resend request (webhook-deliveries.ts): its INSERT queues the event again. */
export const WEBHOOK_RESEND_ENTITY = 'webhook_resend';
/** Both carry `event_id` (S): 'evt_' + ULID, the job of the outbox's webhook kind (store/outbox.ts). */
export const EVENT_ID_ATTRIBUTE = 'event_id';

/** Event items (and their delivery log) are kept 30 days, then DynamoDB TTL deletes them. */
export const EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;
/** A resend request only needs to live until the stream has dispatched it. */
export const RESEND_TTL_SECONDS = 24 * 60 * 60;

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'skipped';

export interface StoredEvent {
  eventId: string;
  companyId: number;
  type: WebhookEventType;
  createdAt: string;
  /** Epoch milliseconds of the write that produced the event. */
  createdMs: number;
  /** The exact JSON body sent on every attempt. */
  body: string;
  state: DeliveryState;
  attempts: number;
}

export const nowSeconds = (ms: number) => Math.floor(ms / 1000);

/** ULIDs for event ids: monotonic, so the events of one write sort in the order they were built. */
export const newEventUlid: () => string = monotonicUlids();

/**
 * Put actions for the outbox: one item per event, in the same TransactWriteItems as the business
 * write, so the events exist exactly when the write committed. The body is stored gzipped.
 */
export function eventPuts(
  events: WebhookEvent[],
  nowMs: number = Date.now(),
  table: string = tableName(),
): TransactItem[] {
  return events.map((event) => ({
    Put: {
      TableName: table,
      Item: {
        ...keys.webhookEvent(event.id),
        entity: WEBHOOK_EVENT_ENTITY,
        [EVENT_ID_ATTRIBUTE]: event.id,
        company_id: Number(event.company_id),
        event_type: event.type,
        created_at: event.created_at,
        created_ms: nowMs,
        body_gz: gzipSync(JSON.stringify(event)),
        delivery_state: 'pending',
        attempts: 0,
        GSI1PK: deliveryIndexKeys.partition(Number(event.company_id)),
        GSI1SK: deliveryIndexKeys.sort(event.id),
        [TABLE.ttlAttribute]: nowSeconds(nowMs) + EVENT_TTL_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  }));
}

function storedEventFrom(item: Item): StoredEvent {
  return {
    eventId: String(item[EVENT_ID_ATTRIBUTE]),
    companyId: Number(item.company_id),
    type: item.event_type as WebhookEventType,
    createdAt: String(item.created_at),
    createdMs: Number(item.created_ms),
    body: gunzipSync(item.body_gz as Uint8Array).toString('utf8'),
    state: item.delivery_state as DeliveryState,
    attempts: Number(item.attempts ?? 0),
  };
}

/** The event item, read consistently; undefined when unknown (or expired). */
export async function getEvent(eventId: string): Promise<StoredEvent | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.webhookEvent(eventId), ConsistentRead: true }),
  );
  return out.Item ? storedEventFrom(out.Item) : undefined;
}

export type AttemptRecord =
  | { result: 'delivered'; status: number }
  | { result: 'retry'; status?: number; error?: string; nextAttemptMs: number }
  | { result: 'failed'; status?: number; error?: string };

/**
 * Records one attempt, provided no other attempt was recorded since `attemptsBefore` was read
 * (a duplicate queue message racing this one). Returns false when that condition failed.
 */
export async function recordAttempt(
  eventId: string,
  attemptsBefore: number,
  attempt: AttemptRecord,
  nowMs: number = Date.now(),
): Promise<boolean> {
  const values: Record<string, unknown> = {
    ':before': attemptsBefore,
    ':after': attemptsBefore + 1,
    ':pending': 'pending',
    ':state': attempt.result === 'retry' ? 'pending' : attempt.result,
    ':at': new Date(nowMs).toISOString(),
  };
  const set = ['attempts = :after', 'delivery_state = :state', 'last_attempt_at = :at'];
  const remove: string[] = [];
  if (attempt.status !== undefined) {
    set.push('last_status = :status');
    values[':status'] = attempt.status;
    remove.push('last_error');
  } else {
    set.push('last_error = :error');
    values[':error'] = 'error' in attempt && attempt.error ? attempt.error : 'unknown error';
    remove.push('last_status');
  }
  if (attempt.result === 'retry') {
    set.push('next_attempt_at = :next');
    values[':next'] = new Date(attempt.nextAttemptMs).toISOString();
  } else {
    remove.push('next_attempt_at');
  }
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookEvent(eventId),
        UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
        ConditionExpression: 'attempts = :before AND delivery_state = :pending',
        ExpressionAttributeValues: values,
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Marks a pending event as not sent (no endpoint, or one set only after the event). */
export async function markSkipped(eventId: string, reason: string, nowMs: number = Date.now()): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.webhookEvent(eventId),
        UpdateExpression:
          'SET delivery_state = :skipped, last_error = :reason, last_attempt_at = :at REMOVE next_attempt_at',
        ConditionExpression: 'delivery_state = :pending',
        ExpressionAttributeValues: {
          ':skipped': 'skipped',
          ':pending': 'pending',
          ':reason': reason,
          ':at': new Date(nowMs).toISOString(),
        },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}
