/**
 * Automatic collection in the table (docs/getting-paid-online.md "Automatic collection"; docs/data-design.md "Getting
 * paid online"): one item per invoice created with a saved card (`COLLECT#<reference_code>`), in the wake index while
 * an attempt is to come, counting the attempts started; and one charge job per attempt (`CHARGEJOB#chg_<code>_<n>`),
 * an outbox item of the charge kind (store/outbox.ts). The sweep starts an attempt in one transaction — the count moved
 * on condition of the index key and count read, the job and the attempt's checkout reference put as new — so an
 * attempt is started once however often the sweep runs; the job's end is written on condition that it is still in the
 * delivery that decided it.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CollectionState } from '../domain/card-collection.ts';
import { type CalendarDate, fromIsoDate, toIsoDate } from '../domain/dates.ts';
import type { CheckoutAttempt } from '../domain/online-recording.ts';
import { itemOf } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import { collectionHeaderAction } from './invoices.ts';
import type { Item } from './items.ts';
import { chargeJobIndexKeys, type Key, keys, wakeIndexKeys } from './keys.ts';
import { latestListed } from './listing-index.ts';
import { checkoutAttemptPut } from './online-payments.ts';
import { TABLE } from './table.ts';
import { putNew, type TransactItem } from './write-executor.ts';

export const CHARGE_JOB_ENTITY = 'charge_job';
/** The job's id (`chg_<reference_code>_<attempt>`): the outbox's charge kind names its jobs by it. */
export const CHARGE_JOB_ID_ATTRIBUTE = 'job_id';

export const collectionKey = (referenceCode: string): Key => keys.cardCollection(referenceCode);

/** An invoice's automatic collection: its saved card, the day of its first attempt, the attempts started. */
export interface CardCollection {
  referenceCode: string;
  companyId: number;
  clientId: number;
  cardToken: string;
  firstDay: CalendarDate;
  attemptsStarted: number;
}

const WAKE_INDEX_KEYS = [TABLE.wakeIndex.partitionKey, TABLE.wakeIndex.sortKey] as const;

/** The collection of a new invoice, put with it: in the wake index on the day of its first attempt. */
export function newCollectionPut(table: string, collection: Omit<CardCollection, 'attemptsStarted'>): TransactItem {
  return putNew(table, {
    ...collectionKey(collection.referenceCode),
    ...wakeIndexKeys.attributes(collection.referenceCode, toIsoDate(collection.firstDay)),
    entity: 'card_collection',
    company_id: collection.companyId,
    client_id: collection.clientId,
    reference_code: collection.referenceCode,
    card_token: collection.cardToken,
    first_day: toIsoDate(collection.firstDay),
    attempts_started: 0,
  });
}

export function collectionFrom(items: Map<string, Item>, referenceCode: string): CardCollection | undefined {
  const item = itemOf(items, collectionKey(referenceCode));
  if (item?.entity !== 'card_collection') return undefined;
  return {
    referenceCode: String(item.reference_code),
    companyId: Number(item.company_id),
    clientId: Number(item.client_id),
    cardToken: String(item.card_token),
    firstDay: fromIsoDate(String(item.first_day)),
    attemptsStarted: Number(item.attempts_started ?? 0),
  };
}

/** A charge of the saved card: one per attempt. */
export interface ChargeJob {
  jobId: string;
  companyId: number;
  referenceCode: string;
  /** The attempt of the collection it makes (1 to 4). */
  attempt: number;
  cardToken: string;
  /** The checkout reference it charges with: put with it, so every delivery of the job asks for the same one. */
  reference: string;
  amountKobo: number;
  /** The account's today when the sweep started the attempt: the day a decline counts the next attempt from. */
  attemptDay: CalendarDate;
  createdAt: string;
}

/** `queued` until Paystack's word is written: `charged` (recorded), `declined`, `stopped` (paid or voided first). */
export type ChargeJobState = 'queued' | 'charged' | 'declined' | 'stopped';

export interface ChargeJobStatus extends ChargeJob {
  state: ChargeJobState;
  /** Deliveries counted so far (each before it calls Paystack). */
  deliveries: number;
  outcome: string | undefined;
}

/** What the sweep writes to start an attempt: the count, the job and its checkout reference, on the state read. */
export interface AttemptStart {
  collection: CardCollection;
  /** The wake index's sort key read. */
  indexKey: string;
  job: ChargeJob;
  checkout: CheckoutAttempt;
  /** The invoice header's version the amount was decided on. */
  version: number;
}

export function attemptStartActions(table: string, start: AttemptStart): TransactItem[] {
  const { collection, job } = start;
  return [
    {
      Update: {
        TableName: table,
        Key: collectionKey(collection.referenceCode),
        ConditionExpression: '#sk = :read AND attempts_started = :before',
        UpdateExpression: `SET attempts_started = :after REMOVE ${WAKE_INDEX_KEYS.join(', ')}`,
        ExpressionAttributeNames: { '#sk': TABLE.wakeIndex.sortKey },
        ExpressionAttributeValues: {
          ':read': start.indexKey,
          ':before': collection.attemptsStarted,
          ':after': job.attempt,
        },
      },
    },
    {
      ConditionCheck: {
        TableName: table,
        Key: keys.invoiceHeader(collection.referenceCode),
        ConditionExpression: 'version = :version AND amount_due > :zero AND attribute_not_exists(deleted_at)',
        ExpressionAttributeValues: { ':version': start.version, ':zero': 0 },
      },
    },
    putNew(table, {
      ...keys.chargeJob(job.jobId),
      GSI1PK: chargeJobIndexKeys.partition(job.companyId),
      GSI1SK: chargeJobIndexKeys.sort(job.createdAt, job.jobId),
      entity: CHARGE_JOB_ENTITY,
      [CHARGE_JOB_ID_ATTRIBUTE]: job.jobId,
      company_id: job.companyId,
      reference_code: job.referenceCode,
      attempt: job.attempt,
      card_token: job.cardToken,
      reference: job.reference,
      amount: job.amountKobo,
      attempt_day: toIsoDate(job.attemptDay),
      job_state: 'queued',
      deliveries: 0,
      created_at: job.createdAt,
    }),
    checkoutAttemptPut(table, start.checkout),
  ];
}

/** Takes a collection that can do nothing more (its invoice paid, voided or gone) out of the wake index. */
export function collectionClosedAction(table: string, referenceCode: string, indexKey: string): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: collectionKey(referenceCode),
      ConditionExpression: '#sk = :read',
      UpdateExpression: `REMOVE ${WAKE_INDEX_KEYS.join(', ')}`,
      ExpressionAttributeNames: { '#sk': TABLE.wakeIndex.sortKey },
      ExpressionAttributeValues: { ':read': indexKey },
    },
  };
}

/**
 * A decline of attempt number `attempt`: the invoice's `collection`, and the collection back in the wake index on the
 * day of the next attempt (none once `failed`), on condition that no other attempt started meanwhile.
 */
export function declineActions(
  table: string,
  referenceCode: string,
  attempt: number,
  state: CollectionState,
): TransactItem[] {
  const wake = state.nextAttempt === null ? {} : wakeIndexKeys.attributes(referenceCode, toIsoDate(state.nextAttempt));
  const set = Object.keys(wake).map((name) => `${name} = :${name}`);
  return [
    {
      Update: {
        TableName: table,
        Key: collectionKey(referenceCode),
        ConditionExpression: `attempts_started = :attempt AND attribute_not_exists(#sk)`,
        UpdateExpression: `SET ${['last_declined = :attempt', ...set].join(', ')}`,
        ExpressionAttributeNames: { '#sk': TABLE.wakeIndex.sortKey },
        ExpressionAttributeValues: {
          ':attempt': attempt,
          ...Object.fromEntries(Object.entries(wake).map(([name, value]) => [`:${name}`, value])),
        },
      },
    },
    collectionHeaderAction(table, referenceCode, state),
  ];
}

function jobFromItem(item: Item): ChargeJobStatus {
  return {
    jobId: String(item[CHARGE_JOB_ID_ATTRIBUTE]),
    companyId: Number(item.company_id),
    referenceCode: String(item.reference_code),
    attempt: Number(item.attempt),
    cardToken: String(item.card_token),
    reference: String(item.reference),
    amountKobo: Number(item.amount),
    attemptDay: fromIsoDate(String(item.attempt_day)),
    createdAt: String(item.created_at),
    state: item.job_state as ChargeJobState,
    deliveries: Number(item.deliveries ?? 0),
    outcome: typeof item.outcome === 'string' ? item.outcome : undefined,
  };
}

export async function readChargeJob(jobId: string): Promise<ChargeJobStatus | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.chargeJob(jobId), ConsistentRead: true }),
  );
  return out.Item?.entity === CHARGE_JOB_ENTITY ? jobFromItem(out.Item) : undefined;
}

/** An account's charge jobs, newest first (one Query of its GSI1 partition): `paystack:events` lists them. */
export async function listChargeJobs(companyId: number, limit: number): Promise<ChargeJobStatus[]> {
  return (await latestListed(chargeJobIndexKeys.partition(companyId), limit)).map(jobFromItem);
}

/**
 * Counts a delivery before Paystack is called, on condition that the job is still queued at the deliveries read: of
 * two copies of one queue message, one goes on; a later delivery knows an earlier one may have reached Paystack.
 */
export async function claimChargeDelivery(job: ChargeJobStatus, at: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.chargeJob(job.jobId),
        ConditionExpression: 'job_state = :queued AND deliveries = :before',
        UpdateExpression: 'SET deliveries = :after, last_delivery_at = :at',
        ExpressionAttributeValues: {
          ':queued': 'queued',
          ':before': job.deliveries,
          ':after': job.deliveries + 1,
          ':at': at,
        },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** The job's end after delivery number `delivery`, on condition that it is still queued at that delivery. */
export function chargeJobEndAction(
  table: string,
  jobId: string,
  delivery: number,
  end: { state: Exclude<ChargeJobState, 'queued'>; outcome: string },
): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: keys.chargeJob(jobId),
      ConditionExpression: 'job_state = :queued AND deliveries = :delivery',
      UpdateExpression: 'SET job_state = :state, outcome = :outcome, ended_at = :at',
      ExpressionAttributeValues: {
        ':queued': 'queued',
        ':delivery': delivery,
        ':state': end.state,
        ':outcome': end.outcome.slice(0, 500),
        ':at': new Date().toISOString(),
      },
    },
  };
}

/** The sealed Paystack authorization of a saved card (undefined when the card was forgotten). */
export async function readSealedAuthorization(companyId: number, cardToken: string): Promise<Uint8Array | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.savedCard(companyId, cardToken), ConsistentRead: true }),
  );
  const sealed = out.Item?.authorization_sealed;
  return sealed instanceof Uint8Array ? sealed : undefined;
}
