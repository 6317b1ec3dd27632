/**
 * The outbox (docs/webhooks.md "Delivery architecture", docs/sending-invoices.md "Delivery"): a write puts an item in
 * its own transaction, and the item's INSERT on the table's stream is a job — sent to its kind's queue by the one
 * dispatcher (one message per job id) and delivered by the kind's worker, one attempt per message, retries through the
 * message's visibility timeout, dead letters after the queue's receive limit. `JOB_KINDS` describes each kind once:
 * the stream records and queue messages are read and written here, the stack (infra/outbox.ts) and `npm start`
 * (infra/local/outbox-runner.ts) are built from it, and its worker module runs its deliver function
 * (services/outbox.ts). A new kind: CONTRIBUTING.md "Recipes".
 */
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBRecord } from 'aws-lambda';
import { loadConfig } from '../config.ts';
import { CHARGE_JOB_ID_PATTERN } from '../domain/card-collection.ts';
import { MAIL_JOB_ID_PATTERN, MAIL_RETRY_SCHEDULE } from '../domain/invoice-mail.ts';
import {
  attemptsOf,
  PAYSTACK_RETRY_SCHEDULE,
  type RetrySchedule,
  WEBHOOK_RETRY_SCHEDULE,
} from '../domain/retry-schedule.ts';
import { EVENT_ID_PATTERN } from '../domain/webhook-events.ts';
import type { TableAction } from '../routes.ts';
import { CHARGE_JOB_ENTITY, CHARGE_JOB_ID_ATTRIBUTE } from './card-collections.ts';
import { MAIL_JOB_ENTITY, MAIL_JOB_ID_ATTRIBUTE } from './mail.ts';
import { PROVIDER_EVENT_ENTITY, PROVIDER_EVENT_ID_ATTRIBUTE, PROVIDER_EVENT_ID_PATTERN } from './provider-events.ts';
import { REFUND_JOB_ENTITY, REFUND_JOB_ID_ATTRIBUTE, REFUND_JOB_ID_PATTERN } from './refund-jobs.ts';
import { EVENT_ID_ATTRIBUTE, WEBHOOK_EVENT_ENTITY, WEBHOOK_RESEND_ENTITY } from './webhooks.ts';

export interface JobKind {
  /** What its jobs are, in logs and alarms. */
  label: string;
  /** `entity` of the items whose INSERT is a job of this kind. */
  entities: readonly string[];
  /** The attribute of those items that names the job: also the one field of its queue message. */
  idAttribute: string;
  idPattern: RegExp;
  /** The environment variable with its queue's URL (the stack sets it on the dispatcher and on the kind's worker). */
  queueUrlVariable: string;
  /** When a failed attempt is tried again; the queue keeps a message for a few receives more than its attempts. */
  retrySchedule: RetrySchedule;
  worker: {
    /** Its module: exports `worker` (services/outbox.ts `outboxWorker`) and `handler`, the deployed function. */
    entry: string;
    description: string;
    timeoutSeconds: number;
    /** Messages per invocation, attempted in parallel. */
    batchSize: number;
    /** Invocations at once at most: a backlog of retries never takes the API functions' concurrency. */
    maxConcurrency: number;
    /** Exactly what its deliver function does to the table (its IAM grant: test/infra/job-actions.test.ts). */
    tableActions: readonly TableAction[];
    /** It opens sealed Paystack secrets (infra/paystack.ts grants its KMS key, for these purposes only). */
    unseals?: readonly ('paystack-secret-key' | 'paystack-authorization')[];
    /** It seals saved cards' authorizations (a recording of a tokenized payment). */
    seals?: readonly 'paystack-authorization'[];
    /** It renders invoice PDFs (infra/function-settings.ts PDF_BUNDLING). */
    rendersPdf?: boolean;
    /**
     * It records payments, which queue receipt e-mails when the stage has a sender (docs/getting-paid-online.md
     * "Receipt e-mails"): the stack gives it the stage's MAIL_FROM.
     */
    recordsPayments?: boolean;
  };
  /** The operator's view of its jobs: a CLI command (infra/cli/). */
  cliListing: string;
  /** Where `npm start` keeps its queue, under DATA_DIR. */
  localDirectory: string;
}

export const JOB_KINDS = {
  /** Webhook events and resend requests → the merchant's endpoint (store/webhooks.ts, services/deliver-webhook.ts). */
  webhook: {
    label: 'Webhook deliveries',
    entities: [WEBHOOK_EVENT_ENTITY, WEBHOOK_RESEND_ENTITY],
    idAttribute: EVENT_ID_ATTRIBUTE,
    idPattern: EVENT_ID_PATTERN,
    queueUrlVariable: 'DELIVERY_QUEUE_URL',
    retrySchedule: WEBHOOK_RETRY_SCHEDULE,
    worker: {
      entry: 'functions/webhook-deliver/handler.ts',
      description: 'Webhook delivery queue → merchant endpoints',
      // A batch of 10 attempts in parallel, each at most 10 s plus a few table calls.
      timeoutSeconds: 30,
      batchSize: 10,
      maxConcurrency: 10,
      tableActions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
    },
    cliListing: 'webhook:deliveries',
    localDirectory: 'webhooks',
  },
  /**
   * Invoice e-mails (sends and reminders) and client statements → PDF, MIME message, SESv2 (store/mail.ts,
   * services/mail-delivery.ts); a statement's lines are a Query of the client's own items.
   */
  mail: {
    label: 'Invoice e-mails',
    entities: [MAIL_JOB_ENTITY],
    idAttribute: MAIL_JOB_ID_ATTRIBUTE,
    idPattern: MAIL_JOB_ID_PATTERN,
    queueUrlVariable: 'MAIL_QUEUE_URL',
    retrySchedule: MAIL_RETRY_SCHEDULE,
    worker: {
      entry: 'functions/mailer/handler.ts',
      description: 'Invoice mail queue → PDF, MIME message, SESv2',
      // Rendering a PDF and one SES call (three tries at most) per message, a batch of five in parallel; SES's
      // sending rate is the limit, and retries wait in the queue.
      timeoutSeconds: 60,
      batchSize: 5,
      maxConcurrency: 5,
      tableActions: [
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:UpdateItem',
        'dynamodb:PutItem',
        'dynamodb:Query',
      ],
      rendersPdf: true,
    },
    cliListing: 'mail:deliveries',
    localDirectory: 'mail-queue',
  },
  /**
   * Paystack's webhooks as stored by `POST /paystack/events/{hook_id}` → verify, record once per reference; refund
   * events → the payment's refund status (store/provider-events.ts, services/provider-events.ts).
   */
  providerEvent: {
    label: 'Paystack events',
    entities: [PROVIDER_EVENT_ENTITY],
    idAttribute: PROVIDER_EVENT_ID_ATTRIBUTE,
    idPattern: PROVIDER_EVENT_ID_PATTERN,
    queueUrlVariable: 'PAYSTACK_EVENT_QUEUE_URL',
    retrySchedule: PAYSTACK_RETRY_SCHEDULE,
    worker: {
      entry: 'functions/paystack-events/handler.ts',
      description: "Paystack's stored webhook events → verify with Paystack, record once per reference",
      // A batch of 10 in parallel, each a verify (5 s at most) and one recording.
      timeoutSeconds: 30,
      batchSize: 10,
      maxConcurrency: 5,
      tableActions: [
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:ConditionCheckItem',
      ],
      unseals: ['paystack-secret-key'],
      seals: ['paystack-authorization'],
      recordsPayments: true,
    },
    cliListing: 'paystack:events',
    localDirectory: 'paystack-events',
  },
  /** Money to give back → Paystack's `POST /refund` (store/refund-jobs.ts, services/refund-jobs.ts). */
  refund: {
    label: 'Paystack refunds',
    entities: [REFUND_JOB_ENTITY],
    idAttribute: REFUND_JOB_ID_ATTRIBUTE,
    idPattern: REFUND_JOB_ID_PATTERN,
    queueUrlVariable: 'REFUND_QUEUE_URL',
    retrySchedule: PAYSTACK_RETRY_SCHEDULE,
    worker: {
      entry: 'functions/paystack-refunds/handler.ts',
      description: "Refund jobs → Paystack's refund API; the payment's refund and payment.refund_issued",
      // A batch of 5 in parallel, each at most a listing and a refund call (5 s each) and one transaction.
      timeoutSeconds: 30,
      batchSize: 5,
      maxConcurrency: 2,
      tableActions: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
      unseals: ['paystack-secret-key'],
    },
    cliListing: 'paystack:events',
    localDirectory: 'paystack-refunds',
  },
  /**
   * Automatic collection's charges of saved cards → Paystack's `charge_authorization`, then the payment recorded or
   * the decline (store/card-collections.ts, services/collection-charges.ts).
   */
  charge: {
    label: 'Saved-card charges',
    entities: [CHARGE_JOB_ENTITY],
    idAttribute: CHARGE_JOB_ID_ATTRIBUTE,
    idPattern: CHARGE_JOB_ID_PATTERN,
    queueUrlVariable: 'CHARGE_QUEUE_URL',
    retrySchedule: PAYSTACK_RETRY_SCHEDULE,
    worker: {
      entry: 'functions/collection-charges/handler.ts',
      description: "Charge jobs → Paystack's charge_authorization; the payment recorded, or the decline",
      // A batch of 5 in parallel, each a verify and a charge (5 s each) and one recording.
      timeoutSeconds: 30,
      batchSize: 5,
      maxConcurrency: 2,
      tableActions: [
        'dynamodb:GetItem',
        'dynamodb:BatchGetItem',
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:ConditionCheckItem',
      ],
      unseals: ['paystack-secret-key', 'paystack-authorization'],
      seals: ['paystack-authorization'],
      recordsPayments: true,
    },
    cliListing: 'paystack:events',
    localDirectory: 'collection-charges',
  },
} as const satisfies Record<string, JobKind>;

export type JobKindName = keyof typeof JOB_KINDS;
export const JOB_KIND_NAMES = Object.keys(JOB_KINDS) as JobKindName[];

/** Receives before a message moves to the dead letters: every attempt, plus room for a few crashed or throttled ones. */
export const maxReceiveCountOf = (kind: JobKindName): number => attemptsOf(JOB_KINDS[kind].retrySchedule) + 4;

/*
 * Lambda event filtering, the subset the outbox's stream uses: a pattern is an object whose leaves are arrays of
 * allowed values; a record matches when every key of the pattern matches (AND), and a leaf matches when the record's
 * value is one of the listed values (OR). The event source mapping applies the pattern deployed; the local stream
 * poller applies it with `matchesFilterPattern`, and the dispatcher re-checks it, so both runtimes dispatch exactly the
 * same records.
 */
export type FilterValue = string | number | boolean | null;
export type FilterPattern = { readonly [key: string]: FilterPattern | readonly FilterValue[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function matchesFilterPattern(pattern: FilterPattern, value: unknown): boolean {
  for (const [key, expected] of Object.entries(pattern)) {
    const actual = isObject(value) ? value[key] : undefined;
    if (Array.isArray(expected)) {
      const allowed = expected as readonly FilterValue[];
      if (allowed.some((entry) => typeof entry === 'object' && entry !== null)) {
        throw new Error(`Filter operators are not supported here (key "${key}"): list exact values only.`);
      }
      const candidates = Array.isArray(actual) ? actual : [actual];
      if (!candidates.some((candidate) => allowed.includes(candidate as FilterValue))) return false;
    } else if (!matchesFilterPattern(expected as FilterPattern, actual)) {
      return false;
    }
  }
  return true;
}

/** The Lambda event filter of the INSERTs that are jobs of `kinds` (also applied by the local stream poller). */
export function streamFilterOf(kinds: readonly JobKindName[] = JOB_KIND_NAMES) {
  const entities = kinds.flatMap((kind) => JOB_KINDS[kind].entities);
  return { eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: entities } } } } as const;
}

/** The dispatcher's filter: every kind's jobs. */
export const OUTBOX_STREAM_FILTER = streamFilterOf();

/** The jobs a batch of stream records asks for, in stream order, each with its record's position. */
export interface JobBatch {
  /** A batch item failure names the position to retry from. */
  jobs: { kind: JobKindName; id: string; position: string }[];
  /** Records of a kind's entity without a valid job id: nothing to deliver, never retried. */
  withoutId: { kind: JobKindName; position: string }[];
}

const KIND_FILTERS = JOB_KIND_NAMES.map((kind) => [kind, streamFilterOf([kind]) as unknown as FilterPattern] as const);

const kindOfRecord = (record: DynamoDBRecord): JobKindName | undefined =>
  KIND_FILTERS.find(([, filter]) => matchesFilterPattern(filter, record))?.[0];

export function readJobBatch(records: readonly DynamoDBRecord[]): JobBatch {
  const batch: JobBatch = { jobs: [], withoutId: [] };
  for (const record of records) {
    const kind = kindOfRecord(record);
    if (kind === undefined) continue;
    const position = record.dynamodb?.SequenceNumber ?? '';
    const { idAttribute, idPattern } = JOB_KINDS[kind];
    const id = record.dynamodb?.NewImage?.[idAttribute]?.S;
    if (id !== undefined && idPattern.test(id)) batch.jobs.push({ kind, id, position });
    else batch.withoutId.push({ kind, position });
  }
  return batch;
}

/** The body of a job's queue message: its id under the kind's id attribute (`{"event_id":"evt_…"}`). */
export const jobMessageBody = (kind: JobKindName, id: string): string =>
  JSON.stringify({ [JOB_KINDS[kind].idAttribute]: id });

/** The job id of a message body, or undefined for a body the dispatcher did not write. */
export function parseJobMessage(kind: JobKindName, body: string): string | undefined {
  const { idAttribute, idPattern } = JOB_KINDS[kind];
  try {
    const id = (JSON.parse(body) as Record<string, unknown> | null)?.[idAttribute];
    return typeof id === 'string' && idPattern.test(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** A kind's queue: SQS deployed; `npm start`'s persisted local queue (infra/local/local-queue.ts) behind the same. */
export interface JobQueue {
  /** Sends one message per job id. Resolves with the ids that were not accepted (the stream sends them again). */
  send(ids: readonly string[]): Promise<SendFailure[]>;
  /** Makes a received message visible again after `delayMs`: the job's next attempt. */
  retryAfter(receiptHandle: string, delayMs: number): Promise<void>;
}

export interface SendFailure {
  id: string;
  reason: string;
}

/**
 * SQS accepts a visibility timeout of at most 12 h counted from the message's receipt; the worker asks within its
 * own timeout of the receipt, so this leaves a few minutes of margin.
 */
export const MAX_RETRY_DELAY_MS = (12 * 3600 - 300) * 1000;

/** SQS SendMessageBatch takes at most 10 entries. */
export const SEND_BATCH_SIZE = 10;

export const clampRetryDelay = (delayMs: number): number =>
  Math.min(Math.max(Math.ceil(delayMs), 0), MAX_RETRY_DELAY_MS);

function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** The kind's SQS queue, at the URL its variable names (`queueUrl` for tests). */
export function sqsJobQueue(
  kind: JobKindName,
  queueUrl: string | undefined = loadConfig().queueUrl(JOB_KINDS[kind].queueUrlVariable),
  client?: SQSClient,
): JobQueue {
  if (!queueUrl) throw new Error(`${JOB_KINDS[kind].queueUrlVariable} is not set.`);
  const sqs = client ?? new SQSClient({ region: loadConfig().region });
  return {
    async send(ids) {
      const failures: SendFailure[] = [];
      for (const batch of chunk(ids, SEND_BATCH_SIZE)) {
        const entries = batch.map((id, index) => ({ Id: String(index), MessageBody: jobMessageBody(kind, id) }));
        try {
          const output = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
          for (const failed of output.Failed ?? [])
            failures.push({
              id: batch[Number(failed.Id)]!,
              reason: `${failed.Code ?? 'error'}: ${failed.Message ?? ''}`.trim(),
            });
        } catch (error) {
          for (const id of batch) failures.push({ id, reason: (error as Error).name || 'SendMessageBatch failed' });
        }
      }
      return failures;
    },
    async retryAfter(receiptHandle, delayMs) {
      const VisibilityTimeout = Math.ceil(clampRetryDelay(delayMs) / 1000);
      await sqs.send(
        new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout }),
      );
    },
  };
}

const deployed = new Map<JobKindName, JobQueue>();

/** The deployed functions' queue of a kind, made on first use and kept for the warm container. */
export function deployedJobQueue(kind: JobKindName): JobQueue {
  let queue = deployed.get(kind);
  if (!queue) deployed.set(kind, (queue = sqsJobQueue(kind)));
  return queue;
}
