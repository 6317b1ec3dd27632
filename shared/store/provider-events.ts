/**
 * Paystack's webhooks as received (docs/getting-paid-online.md "Webhooks"; docs/data-design.md "Getting paid
 * online"): one item per signed delivery, its body kept byte for byte, put before the webhook is answered 200 — so a
 * payment is never lost between Paystack's call and its processing. Processing (verify, record) reads it back by id
 * and writes what it came to on it. The item's INSERT on the table's stream (`entity` `paystack_event`) is what a
 * background job picks up.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { keys, providerEventIndexKeys } from './keys.ts';
import { latestListed } from './listing-index.ts';

export const PROVIDER_EVENT_ENTITY = 'paystack_event';
export const PROVIDER_EVENT_PREFIX = 'pse_';
/** The event's id (`pse_` + a ULID): the outbox's provider-event kind names its jobs by it (store/outbox.ts). */
export const PROVIDER_EVENT_ID_ATTRIBUTE = 'event_id';
export const PROVIDER_EVENT_ID_PATTERN = /^pse_[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * What processing came to: recorded a payment, found it recorded, ignored it, did what a refund event says, could not
 * finish yet (`retrying`: Paystack unreachable, tried again later), or gave up (`failed`).
 */
export type ProviderEventState = 'received' | 'recorded' | 'duplicate' | 'ignored' | 'refund' | 'retrying' | 'failed';

/** The states nothing changes any more: a job of an event in one is done. */
export const FINAL_EVENT_STATES: readonly ProviderEventState[] = [
  'recorded',
  'duplicate',
  'ignored',
  'refund',
  'failed',
];

export interface ProviderEvent {
  /** `pse_` + ULID. */
  eventId: string;
  companyId: number;
  /** Paystack's `event` (`charge.success`, `refund.processed`…), or `unknown` when the body names none. */
  eventType: string;
  /** `data.reference`, when the body has one. */
  reference: string | undefined;
  /** The body exactly as signed. */
  body: Uint8Array;
  receivedAt: string;
  state: ProviderEventState;
  /** What processing found, in a few words (`not_successful`, `verify unavailable: …`). */
  outcome: string | undefined;
  paymentId: number | undefined;
  /** Processings so far. */
  attempts: number;
  /** While `retrying`: when the next processing is due (ISO 8601). */
  nextAttemptAt: string | undefined;
}

/**
 * Puts a received event; an id is never reused. Its condition failing can therefore only mean that this put's own
 * earlier try landed (the SDK retries a request that timed out after DynamoDB wrote it): the event is stored.
 */
export async function putProviderEvent(
  event: Omit<ProviderEvent, 'state' | 'outcome' | 'paymentId' | 'attempts' | 'nextAttemptAt'>,
): Promise<void> {
  try {
    await putNewEvent(event);
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
  }
}

function putNewEvent(event: Omit<ProviderEvent, 'state' | 'outcome' | 'paymentId' | 'attempts' | 'nextAttemptAt'>) {
  return documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...keys.providerEvent(event.eventId),
        GSI1PK: providerEventIndexKeys.partition(event.companyId),
        GSI1SK: providerEventIndexKeys.sort(event.eventId),
        entity: PROVIDER_EVENT_ENTITY,
        [PROVIDER_EVENT_ID_ATTRIBUTE]: event.eventId,
        company_id: event.companyId,
        event_type: event.eventType,
        ...(event.reference === undefined ? {} : { reference: event.reference }),
        body: event.body,
        received_at: event.receivedAt,
        processing_state: 'received',
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    }),
  );
}

export async function readProviderEvent(eventId: string): Promise<ProviderEvent | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.providerEvent(eventId), ConsistentRead: true }),
  );
  return eventFromItem(out.Item);
}

/** An account's received events, newest first (one Query of its GSI1 partition): what `paystack:events` lists. */
export async function listProviderEvents(companyId: number, limit = 100): Promise<ProviderEvent[]> {
  return (await latestListed(providerEventIndexKeys.partition(companyId), limit)).flatMap(
    (item) => eventFromItem(item) ?? [],
  );
}

function eventFromItem(item: Item | undefined): ProviderEvent | undefined {
  if (item?.entity !== PROVIDER_EVENT_ENTITY) return undefined;
  return {
    eventId: String(item[PROVIDER_EVENT_ID_ATTRIBUTE]),
    companyId: Number(item.company_id),
    eventType: String(item.event_type),
    reference: typeof item.reference === 'string' ? item.reference : undefined,
    body: item.body instanceof Uint8Array ? item.body : new Uint8Array(),
    receivedAt: String(item.received_at),
    state: item.processing_state as ProviderEventState,
    outcome: typeof item.outcome === 'string' ? item.outcome : undefined,
    paymentId: typeof item.payment_id === 'number' ? item.payment_id : undefined,
    attempts: Number(item.processing_attempts ?? 0),
    nextAttemptAt: typeof item.next_attempt_at === 'string' ? item.next_attempt_at : undefined,
  };
}

/** What one processing came to, as recorded on the event. */
export interface EventMark {
  state: Exclude<ProviderEventState, 'received'>;
  outcome: string;
  paymentId?: number | undefined;
  /** While `retrying`: the next processing (ISO 8601). */
  nextAttemptAt?: string | undefined;
}

/**
 * Records what a processing came to, and counts it. A final state is never overwritten (a copy of the job that ran
 * alongside and found the payment recorded by the other leaves `recorded` as it is): false then.
 */
export async function markProviderEvent(eventId: string, mark: EventMark): Promise<boolean> {
  const { paymentId, nextAttemptAt } = mark;
  const set = ['processing_state = :state', 'outcome = :outcome', 'processed_at = :now'];
  if (paymentId !== undefined) set.push('payment_id = :payment');
  if (nextAttemptAt !== undefined) set.push('next_attempt_at = :next');
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.providerEvent(eventId),
        ConditionExpression: 'attribute_exists(PK) AND processing_state IN (:received, :retrying)',
        UpdateExpression: `SET ${set.join(', ')}${nextAttemptAt === undefined ? ' REMOVE next_attempt_at' : ''} ADD processing_attempts :one`,
        ExpressionAttributeValues: {
          ':state': mark.state,
          ':outcome': mark.outcome.slice(0, 500),
          ':now': new Date().toISOString(),
          ':one': 1,
          ':received': 'received',
          ':retrying': 'retrying',
          ...(paymentId === undefined ? {} : { ':payment': paymentId }),
          ...(nextAttemptAt === undefined ? {} : { ':next': nextAttemptAt }),
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
