/**
 * Webhook delivery on AWS (docs/webhooks.md "Delivery architecture"): the table's stream, filtered to the outbox's
 * INSERTs, → `webhook-dispatch` → SQS delivery queue (one message per event) → `webhook-deliver`,
 * which schedules retries through the message's visibility timeout. Dead letters and stream lag are
 * watched (`watchedMetrics`, alarmed by the stack's Monitoring like every other alarm).
 */

import { CfnOutput, Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { streamFilterOf } from '../shared/store/outbox.ts';
import { ALARM_PERIOD, type WatchedMetric } from './monitoring.ts';
import { serviceFunction } from './service-function.ts';

/** docs/webhooks.md: the first attempt and seven retries (1 min … 10 h). */
export const DELIVERY_ATTEMPTS = 8;
/** Receives before a message moves to the dead-letter queue: every attempt, plus room for a few crashed or throttled ones. */
export const MAX_RECEIVE_COUNT = DELIVERY_ATTEMPTS + 4;
/** A batch of up to 10 attempts runs in parallel, each at most 10 s plus a few table calls. */
export const DELIVER_TIMEOUT = Duration.seconds(30);
export const DELIVER_BATCH_SIZE = 10;
/**
 * Concurrent deliverer invocations at most (10 × 10 attempts in flight): a backlog of retries never
 * takes the account's Lambda concurrency from the API functions.
 */
export const DELIVER_MAX_CONCURRENCY = 10;
/** AWS's guidance for SQS event sources: at least six times the function's timeout. */
export const QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(DELIVER_TIMEOUT.toSeconds() * 6);
/** The whole schedule (≈ 28 h) with room to spare. */
export const QUEUE_RETENTION = Duration.days(4);
/** Stream batches the dispatcher retries (halving them) before giving up on a batch to `dispatchFailures`. */
export const DISPATCH_RETRY_ATTEMPTS = 10;
/** The deliverer reads the event and the endpoint and records each attempt (shared/store/webhooks.ts). */
export const DELIVER_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:UpdateItem'] as const;

export interface WebhookDeliveryProps {
  table: dynamodb.TableV2;
  /** Environment every function of the stage gets (TABLE_NAME, LOG_LEVEL, Powertools settings). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** Alarm when the oldest stream record waiting for the dispatcher is older than this. */
  iteratorAgeAlarm?: Duration;
}

export class WebhookDelivery extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  /** Stream batches the dispatcher could not enqueue after its retries (shard and sequence range only). */
  readonly dispatchFailures: sqs.Queue;
  readonly dispatchFunction: NodejsFunction;
  readonly deliverFunction: NodejsFunction;
  /** Seals the endpoints' signing secrets (WEBHOOK_KMS_KEY_ID); the CLI encrypts with it, the deliverer decrypts. */
  readonly signingSecretKey: kms.Key;
  /** Dead letters (delivery and dispatch) and stream lag; the stack has Monitoring alarm on them. */
  readonly watchedMetrics: WatchedMetric[];

  constructor(scope: Construct, id: string, props: WebhookDeliveryProps) {
    super(scope, id);
    this.signingSecretKey = new kms.Key(this, 'SigningSecretKey', {
      description: 'Seals webhook signing secrets (encryption context: company_id)',
      enableKeyRotation: true,
      removalPolicy: props.removalPolicy,
    });
    const queues = this.createQueues(props.removalPolicy);
    this.deadLetterQueue = queues.deadLetters;
    this.queue = queues.delivery;
    this.dispatchFailures = queues.dispatchFailures;
    const functions = this.createFunctions(props);
    this.dispatchFunction = functions.dispatch;
    this.deliverFunction = functions.deliver;
    this.connect(props.table);
    this.watchedMetrics = this.watched(props.iteratorAgeAlarm ?? Duration.minutes(5));

    new CfnOutput(this, 'WebhookKmsKeyId', {
      value: this.signingSecretKey.keyId,
      description: 'KMS key sealing webhook secrets; pass it as WEBHOOK_KMS_KEY_ID to the webhook CLI',
    });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', {
      value: this.deadLetterQueue.queueUrl,
      description: 'Webhook deliveries that failed to process; see docs/webhooks.md "Delivery architecture"',
    });
    this.acknowledgeNagFindings();
  }

  /** The delivery queue with its dead letters, and the queue of stream batches the dispatcher gave up on. */
  private createQueues(removalPolicy: RemovalPolicy) {
    const queueSecurity = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    const deadLetters = new sqs.Queue(this, 'DeliveryDeadLetters', {
      ...queueSecurity,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    const delivery = new sqs.Queue(this, 'DeliveryQueue', {
      ...queueSecurity,
      visibilityTimeout: QUEUE_VISIBILITY_TIMEOUT,
      retentionPeriod: QUEUE_RETENTION,
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: MAX_RECEIVE_COUNT },
      removalPolicy,
    });
    const dispatchFailures = new sqs.Queue(this, 'DispatchFailures', {
      ...queueSecurity,
      retentionPeriod: Duration.days(14),
      removalPolicy,
    });
    return { deadLetters, delivery, dispatchFailures };
  }

  private createFunctions(props: WebhookDeliveryProps) {
    const environment = { ...props.environment, DELIVERY_QUEUE_URL: this.queue.queueUrl };
    const logs = { logRetention: props.logRetention, removalPolicy: props.removalPolicy };
    const dispatch = serviceFunction(this, 'Dispatch', {
      entry: 'functions/outbox-dispatch/handler.ts',
      description: 'Table stream → webhook delivery queue',
      environment,
      ...logs,
    });
    const deliver = serviceFunction(this, 'Deliver', {
      entry: 'functions/webhook-deliver/handler.ts',
      description: 'Webhook delivery queue → merchant endpoints',
      timeout: DELIVER_TIMEOUT,
      environment: { ...environment, WEBHOOK_KMS_KEY_ID: this.signingSecretKey.keyId },
      ...logs,
    });
    return { dispatch, deliver };
  }

  /** Stream → dispatcher → queue → deliverer, with exactly the access each needs. */
  private connect(table: dynamodb.TableV2): void {
    this.dispatchFunction.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        filters: [lambda.FilterCriteria.filter(streamFilterOf(['webhook']) as unknown as Record<string, unknown>)],
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: DISPATCH_RETRY_ATTEMPTS,
        onFailure: new SqsDlq(this.dispatchFailures),
      }),
    );
    this.queue.grantSendMessages(this.dispatchFunction);
    this.deliverFunction.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: DELIVER_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: DELIVER_MAX_CONCURRENCY,
      }),
    );
    this.deliverFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'WebhookTableAccess',
        actions: [...DELIVER_TABLE_ACTIONS],
        resources: [table.tableArn],
      }),
    );
    this.signingSecretKey.grantDecrypt(this.deliverFunction);
  }

  /** Dead letters (delivery and dispatch) and stream lag, for the stack's Monitoring to alarm on. */
  private watched(lagLimit: Duration): WatchedMetric[] {
    const maximum = { statistic: cloudwatch.Stats.MAXIMUM, period: ALARM_PERIOD };
    return [
      {
        id: 'WebhookDeadLetters',
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible(maximum),
        threshold: 1,
        description: 'Webhook deliveries the deliverer crashed on repeatedly are waiting in the dead-letter queue',
      },
      {
        id: 'WebhookDispatchFailures',
        metric: this.dispatchFailures.metricApproximateNumberOfMessagesVisible(maximum),
        threshold: 1,
        description: 'Table stream batches that could not be enqueued for webhook delivery are waiting in their queue',
      },
      {
        id: 'WebhookStreamLag',
        metric: this.dispatchFunction.metric('IteratorAge', maximum),
        threshold: lagLimit.toMilliseconds(),
        description: `Webhook dispatch lags more than ${lagLimit.toHumanString()} behind the table stream (events wait before being queued)`,
      },
    ];
  }

  /** Every AwsSolutions finding these resources accept, with the reason (test/infra/nag.test.ts lists the ids). */
  private acknowledgeNagFindings() {
    Validations.of(this.dispatchFailures).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter destination: the on-failure destination of the stream event source mapping. ' +
        'Nothing consumes it automatically; an alarm fires on its first message and an operator reads it (docs/webhooks.md "Delivery architecture").',
    });
    for (const fn of [this.dispatchFunction, this.deliverFunction]) {
      Validations.of(fn).acknowledge(
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason:
            'AWSLambdaBasicExecutionRole only allows writing CloudWatch logs (CreateLogGroup/CreateLogStream/PutLogEvents); ' +
            'queue, stream, table and key access are granted separately by statements naming those resources.',
        },
        {
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'Only the X-Ray statement (xray:PutTraceSegments, xray:PutTelemetryRecords) uses Resource *: X-Ray does not support ' +
            'resource-level permissions. Stream, queue, table and key statements name their ARNs (asserted in test/infra/webhooks.test.ts).',
        },
        {
          id: 'AwsSolutions-L1',
          reason:
            'The runtime is pinned to nodejs22.x on purpose, like the API functions: the bundles target node22, and a runtime ' +
            'upgrade is a deliberate, tested change rather than a side effect of a CDK upgrade.',
        },
      );
    }
  }
}
