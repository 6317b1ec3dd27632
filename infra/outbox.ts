/**
 * The outbox on AWS (shared/store/outbox.ts `JOB_KINDS`; docs/webhooks.md "Delivery architecture"). `Outbox` is the one
 * dispatcher: the table's stream, filtered to every kind's INSERTs, → `outbox-dispatch` → the job's kind's queue.
 * `OutboxWorker` is what each kind gets: an encrypted queue whose visibility timeout schedules retries, its dead-letter
 * queue after every attempt of the kind's schedule, and the kind's worker function fed by the queue (partial batch
 * failures, bounded concurrency) with exactly the table actions its deliver function performs. A kind whose worker
 * needs more (the webhook sealing key, SES) builds it in its own construct (infra/webhooks.ts, infra/mail.ts) and adds
 * its grants; `Outbox` builds every other kind's. Dead letters, the stream batches the dispatcher gave up on and stream
 * lag are watched (`watchedMetrics`, alarmed by the stack's Monitoring).
 */
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  JOB_KIND_NAMES,
  JOB_KINDS,
  type JobKindName,
  maxReceiveCountOf,
  OUTBOX_STREAM_FILTER,
} from '../shared/store/outbox.ts';
import { ALARM_PERIOD, type WatchedMetric } from './monitoring.ts';
import { acknowledgeFunctionFindings, serviceFunction } from './service-function.ts';

/** AWS's guidance for SQS event sources: at least six times the function's timeout. */
export const visibilityTimeoutOf = (kind: JobKindName): Duration =>
  Duration.seconds(JOB_KINDS[kind].worker.timeoutSeconds * 6);
/** Every schedule (≈ 28 h) with room to spare. */
export const QUEUE_RETENTION = Duration.days(4);
/** Stream batches the dispatcher retries (halving them) before giving up on a batch to `dispatchFailures`. */
export const DISPATCH_RETRY_ATTEMPTS = 10;

/** What every background part of the stack is built with. */
export interface OutboxProps {
  table: dynamodb.TableV2;
  /** Environment every function of the stage gets (TABLE_NAME, LOG_LEVEL, Powertools settings). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** The stage's sender, given to the workers that record payments (their receipt e-mails); unset: none. */
  mailFrom?: string;
}

interface WorkerIds {
  queue: string;
  deadLetters: string;
  worker: string;
  deadLettersAlarm: string;
}

/**
 * The construct ids of the first two kinds' resources, kept from before the outbox was shared: a queue whose logical id
 * changes is replaced on deploy, and the messages waiting in it are lost.
 */
const KEPT_IDS: Partial<Record<JobKindName, WorkerIds>> = {
  webhook: {
    queue: 'DeliveryQueue',
    deadLetters: 'DeliveryDeadLetters',
    worker: 'Deliver',
    deadLettersAlarm: 'WebhookDeadLetters',
  },
  mail: { queue: 'MailQueue', deadLetters: 'MailDeadLetters', worker: 'Mailer', deadLettersAlarm: 'MailDeadLetters' },
};

const pascalCase = (name: string) => name.replace(/(^|[-_])([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

function idsOf(kind: JobKindName): WorkerIds {
  const name = pascalCase(kind);
  return (
    KEPT_IDS[kind] ?? {
      queue: `${name}Queue`,
      deadLetters: `${name}DeadLetters`,
      worker: `${name}Worker`,
      deadLettersAlarm: `${name}DeadLetters`,
    }
  );
}

const queueSecurity = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;

/**
 * One kind's queue, dead letters and worker, built in `scope` (the kind's own construct, or the `Outbox`) with the
 * `environment` given, the queue's URL added under the kind's variable.
 */
export class OutboxWorker {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly workerFunction: NodejsFunction;
  /** Its name in the stack's monitoring: its module's folder (`webhook-deliver`). */
  readonly name: string;
  readonly watchedMetrics: WatchedMetric[];

  constructor(
    scope: Construct,
    readonly kind: JobKindName,
    props: OutboxProps,
  ) {
    const { label, queueUrlVariable, worker } = JOB_KINDS[kind];
    const ids = idsOf(kind);
    const { removalPolicy } = props;
    this.deadLetterQueue = new sqs.Queue(scope, ids.deadLetters, {
      ...queueSecurity,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    this.queue = new sqs.Queue(scope, ids.queue, {
      ...queueSecurity,
      visibilityTimeout: visibilityTimeoutOf(kind),
      retentionPeriod: QUEUE_RETENTION,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: maxReceiveCountOf(kind) },
      removalPolicy,
    });
    this.name = worker.entry.split('/').at(-2)!;
    this.workerFunction = serviceFunction(scope, ids.worker, {
      entry: worker.entry,
      description: worker.description,
      timeout: Duration.seconds(worker.timeoutSeconds),
      environment: {
        ...props.environment,
        [queueUrlVariable]: this.queue.queueUrl,
        ...('recordsPayments' in worker && worker.recordsPayments && props.mailFrom
          ? { MAIL_FROM: props.mailFrom }
          : {}),
      },
      logRetention: props.logRetention,
      removalPolicy,
      rendersPdf: 'rendersPdf' in worker && worker.rendersPdf,
    });
    this.connect(props.table);
    this.watchedMetrics = [
      {
        id: ids.deadLettersAlarm,
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          statistic: cloudwatch.Stats.MAXIMUM,
          period: ALARM_PERIOD,
        }),
        threshold: 1,
        description: `${label} whose worker crashed on them repeatedly are waiting in the dead-letter queue`,
      },
    ];
    acknowledgeFunctionFindings(this.workerFunction, 'queue and table access', 'test/infra/outbox.test.ts');
  }

  /** Queue → worker, and the table actions its deliver function performs, no more. */
  private connect(table: dynamodb.TableV2): void {
    const { worker } = JOB_KINDS[this.kind];
    this.workerFunction.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: worker.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: worker.maxConcurrency,
      }),
    );
    this.workerFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: `${pascalCase(this.kind)}TableAccess`,
        actions: [...worker.tableActions],
        resources: [table.tableArn],
      }),
    );
  }
}

export interface OutboxDispatchProps extends OutboxProps {
  /** The workers built in their kinds' own constructs; `Outbox` builds every other kind's. */
  workers: Partial<Record<JobKindName, OutboxWorker>>;
  /** Alarm when the oldest stream record waiting for the dispatcher is older than this. */
  iteratorAgeAlarm?: Duration;
}

/** The one dispatcher, and every kind's worker. */
export class Outbox extends Construct {
  readonly workers: Readonly<Record<JobKindName, OutboxWorker>>;
  readonly dispatchFunction: NodejsFunction;
  /** Stream batches the dispatcher could not enqueue after its retries (shard and sequence range only). */
  readonly dispatchFailures: sqs.Queue;
  /** Every worker's dead letters, the dispatcher's failures and stream lag; the stack has Monitoring alarm on them. */
  readonly watchedMetrics: WatchedMetric[];

  constructor(scope: Construct, id: string, props: OutboxDispatchProps) {
    super(scope, id);
    this.workers = Object.fromEntries(
      JOB_KIND_NAMES.map((kind) => [kind, props.workers[kind] ?? new OutboxWorker(this, kind, props)]),
    ) as Record<JobKindName, OutboxWorker>;
    this.dispatchFailures = new sqs.Queue(this, 'DispatchFailures', {
      ...queueSecurity,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    const queueUrls = Object.values(this.workers).map((worker) => [
      JOB_KINDS[worker.kind].queueUrlVariable,
      worker.queue.queueUrl,
    ]);
    this.dispatchFunction = serviceFunction(this, 'Dispatch', {
      entry: 'functions/outbox-dispatch/handler.ts',
      description: "Table stream → each outbox job's queue",
      environment: { ...props.environment, ...Object.fromEntries(queueUrls) },
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.connect(props.table);
    this.watchedMetrics = [
      ...Object.values(this.workers).flatMap((worker) => worker.watchedMetrics),
      ...this.dispatchWatched(props.iteratorAgeAlarm ?? Duration.minutes(5)),
    ];
    this.acknowledgeNagFindings();
  }

  /** Stream → dispatcher → every kind's queue: stream reads and sends, no table access. */
  private connect(table: dynamodb.TableV2): void {
    this.dispatchFunction.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        filters: [lambda.FilterCriteria.filter(OUTBOX_STREAM_FILTER as unknown as Record<string, unknown>)],
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: DISPATCH_RETRY_ATTEMPTS,
        onFailure: new SqsDlq(this.dispatchFailures),
      }),
    );
    for (const worker of Object.values(this.workers)) worker.queue.grantSendMessages(this.dispatchFunction);
  }

  private dispatchWatched(lagLimit: Duration): WatchedMetric[] {
    const maximum = { statistic: cloudwatch.Stats.MAXIMUM, period: ALARM_PERIOD };
    return [
      {
        id: 'OutboxDispatchFailures',
        metric: this.dispatchFailures.metricApproximateNumberOfMessagesVisible(maximum),
        threshold: 1,
        description: 'Table stream batches the outbox dispatcher could not enqueue are waiting in their queue',
      },
      {
        id: 'OutboxStreamLag',
        metric: this.dispatchFunction.metric('IteratorAge', maximum),
        threshold: lagLimit.toMilliseconds(),
        description: `The outbox dispatcher lags more than ${lagLimit.toHumanString()} behind the table stream (webhook events and e-mails wait before being queued)`,
      },
    ];
  }

  /** Every AwsSolutions finding these resources accept, with the reason (test/infra/nag.test.ts lists the ids). */
  private acknowledgeNagFindings() {
    Validations.of(this.dispatchFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter destination: the on-failure destination of the stream event source mapping. ' +
        'Nothing consumes it automatically; an alarm fires on its first message and an operator reads it (docs/operations.md "Alarms").',
    });
    acknowledgeFunctionFindings(this.dispatchFunction, 'stream and queue access', 'test/infra/outbox.test.ts');
  }
}
