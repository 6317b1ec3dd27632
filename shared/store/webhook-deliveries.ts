/** The operator's view of webhook deliveries (docs/webhooks.md "Operating"): recent deliveries, and resending one. */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamodb-client.ts';
import { deliveryIndexKeys, keys } from './keys.ts';
import { TABLE } from './table.ts';
import {
  type DeliveryState,
  EVENT_ID_ATTRIBUTE,
  nowSeconds,
  RESEND_TTL_SECONDS,
  WEBHOOK_RESEND_ENTITY,
} from './webhooks.ts';

export interface DeliveryLine {
  event_id: string;
  type: string;
  created_at: string;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

export const DEFAULT_DELIVERIES_LIMIT = 50;

/** An account's most recent events and their delivery state, newest first (one Query on GSI1). */
export async function listDeliveries(
  companyId: number,
  limit: number = DEFAULT_DELIVERIES_LIMIT,
): Promise<DeliveryLine[]> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: TABLE.listingIndex.name,
      KeyConditionExpression: 'GSI1PK = :pk',
      ExpressionAttributeValues: { ':pk': deliveryIndexKeys.partition(companyId) },
      ProjectionExpression:
        'event_id, event_type, created_at, delivery_state, attempts, last_status, last_error, last_attempt_at, next_attempt_at',
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => ({
    event_id: String(item.event_id),
    type: String(item.event_type),
    created_at: String(item.created_at),
    state: item.delivery_state as DeliveryState,
    attempts: Number(item.attempts ?? 0),
    last_status: item.last_status === undefined ? null : Number(item.last_status),
    last_error: item.last_error === undefined ? null : String(item.last_error),
    last_attempt_at: item.last_attempt_at === undefined ? null : String(item.last_attempt_at),
    next_attempt_at: item.next_attempt_at === undefined ? null : String(item.next_attempt_at),
  }));
}

/**
 * Resets an event's delivery state and inserts a resend request for it (the stream dispatches the
 * INSERT like a new event). Returns the event's company, or undefined when the event is unknown.
 */
export async function requestResend(
  eventId: string,
  requestUlid: string,
  nowMs: number = Date.now(),
): Promise<number | undefined> {
  const event = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.webhookEvent(eventId),
      ConsistentRead: true,
      ProjectionExpression: 'company_id',
    }),
  );
  if (!event.Item) return undefined;
  const companyId = Number(event.Item.company_id);
  try {
    const resend = resendItem(eventId, requestUlid, companyId, nowMs);
    await documentClient().send(new TransactWriteCommand({ TransactItems: [resetDelivery(eventId), resend] }));
  } catch (error) {
    if ((error as { name?: string }).name === 'TransactionCanceledException') return undefined; // expired meanwhile
    throw error;
  }
  return companyId;
}

/** The event goes back to pending with no attempts, on condition it still exists (events expire). */
const resetDelivery = (eventId: string) => ({
  Update: {
    TableName: tableName(),
    Key: keys.webhookEvent(eventId),
    UpdateExpression: 'SET delivery_state = :pending, attempts = :zero REMOVE next_attempt_at',
    ConditionExpression: 'attribute_exists(PK)',
    ExpressionAttributeValues: { ':pending': 'pending', ':zero': 0 },
  },
});

/** A resend request: its INSERT on the stream dispatches the event again. */
const resendItem = (eventId: string, requestUlid: string, companyId: number, nowMs: number) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...keys.webhookResend(eventId, requestUlid),
      entity: WEBHOOK_RESEND_ENTITY,
      [EVENT_ID_ATTRIBUTE]: eventId,
      company_id: companyId,
      requested_at: new Date(nowMs).toISOString(),
      [TABLE.ttlAttribute]: nowSeconds(nowMs) + RESEND_TTL_SECONDS,
    },
  },
});
