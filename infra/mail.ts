/**
 * Invoice e-mail on AWS (docs/sending-invoices.md "Delivery", docs/deploying.md "E-mail"): the table's stream, filtered
 * to new mail jobs, → `mail-dispatch` → SQS mail queue (one message per job) → `mailer` (renders the PDF, sends with
 * SESv2, retries through the message's visibility timeout; dead letters after every attempt); SES's reports about
 * the sent messages — bounces, complaints, rejects — from the stage's configuration set through EventBridge's default
 * bus → `mail-events`. The mailer may send only from the stage's `mailFrom` identity, with this configuration set.
 * Dead letters, stream lag, failed e-mails and the bounce and complaint rates are watched (`watchedMetrics`).
 */
import { CfnOutput, Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAIL_JOB_TAG } from '../shared/store/mail-sender.ts';
import { streamFilterOf } from '../shared/store/outbox.ts';
import { SES_NOTICE_TYPES } from '../shared/store/ses-events.ts';
import { mailWatchedMetrics } from './mail-alarms.ts';
import type { WatchedMetric } from './monitoring.ts';
import { serviceFunction } from './service-function.ts';
import { DELIVERY_ATTEMPTS } from './webhooks.ts';

/** The mailer's attempts follow the webhook schedule (8 attempts); receives beyond them are crashes. */
export const MAIL_MAX_RECEIVE_COUNT = DELIVERY_ATTEMPTS + 4;
/** Rendering a PDF and one SES call (three tries at most) per message, a batch of five in parallel. */
export const MAILER_TIMEOUT = Duration.seconds(60);
export const MAILER_BATCH_SIZE = 5;
/** At most this many mailers at once: SES's sending rate is the limit, and retries wait in the queue. */
export const MAILER_MAX_CONCURRENCY = 5;
export const MAIL_QUEUE_VISIBILITY_TIMEOUT = Duration.seconds(MAILER_TIMEOUT.toSeconds() * 6);
/** The mailer and the report handler read jobs, invoices and accounts, and write jobs, invoices and events. */
export const MAIL_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:UpdateItem',
  'dynamodb:PutItem',
] as const;
/** SESv2 `SendEmail` (raw content); both names, scoped to the identity and the configuration set. */
export const SES_SEND_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'] as const;

export interface InvoiceMailProps {
  table: dynamodb.TableV2;
  /** Environment every function of the stage gets (TABLE_NAME, LOG_LEVEL, Powertools settings). */
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** The stage's verified sender (`mailFrom`); undefined: sending answers 501 and no SES permission is granted. */
  mailFrom: string | undefined;
  metricsNamespace: string;
  serviceName: string;
}

export class InvoiceMail extends Construct {
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly dispatchFailures: sqs.Queue;
  readonly eventsDeadLetters: sqs.Queue;
  readonly dispatchFunction: NodejsFunction;
  readonly mailerFunction: NodejsFunction;
  readonly eventsFunction: NodejsFunction;
  readonly configurationSet: ses.ConfigurationSet;
  readonly reportsRule: events.Rule;
  readonly watchedMetrics: WatchedMetric[];

  constructor(scope: Construct, id: string, props: InvoiceMailProps) {
    super(scope, id);
    const queues = this.createQueues(props.removalPolicy);
    this.deadLetterQueue = queues.deadLetterQueue;
    this.dispatchFailures = queues.dispatchFailures;
    this.eventsDeadLetters = queues.eventsDeadLetters;
    this.queue = queues.queue;
    this.configurationSet = this.createConfigurationSet();
    const functions = this.createFunctions(props);
    this.dispatchFunction = functions.dispatch;
    this.mailerFunction = functions.mailer;
    this.eventsFunction = functions.events;
    this.reportsRule = this.wireSources(props.table);
    this.grantAccess(props);
    this.watchedMetrics = mailWatchedMetrics(this, props);

    new CfnOutput(this, 'MailConfigurationSet', {
      value: this.configurationSet.configurationSetName,
      description: 'SES configuration set of invoice e-mails (docs/operations.md "E-mail")',
    });
    this.acknowledgeNagFindings();
  }

  /** The mail queue (retries through its visibility timeout) and the three dead-letter queues. */
  private createQueues(removalPolicy: RemovalPolicy) {
    const queueSecurity = { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true } as const;
    const deadLetters = (name: string) =>
      new sqs.Queue(this, name, { ...queueSecurity, retentionPeriod: Duration.days(14), removalPolicy });
    const deadLetterQueue = deadLetters('MailDeadLetters');
    const queue = new sqs.Queue(this, 'MailQueue', {
      ...queueSecurity,
      visibilityTimeout: MAIL_QUEUE_VISIBILITY_TIMEOUT,
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: MAIL_MAX_RECEIVE_COUNT },
      removalPolicy,
    });
    return {
      queue,
      deadLetterQueue,
      dispatchFailures: deadLetters('DispatchFailures'),
      eventsDeadLetters: deadLetters('ReportDeadLetters'),
    };
  }

  /** The configuration set every invoice e-mail is sent with: reputation metrics, and its reports to EventBridge. */
  private createConfigurationSet(): ses.ConfigurationSet {
    const configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    configurationSet.addEventDestination('ReportsToEventBridge', {
      destination: ses.EventDestination.eventBus(events.EventBus.fromEventBusName(this, 'DefaultBus', 'default')),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT, ses.EmailSendingEvent.REJECT],
    });
    return configurationSet;
  }

  private createFunctions(props: InvoiceMailProps) {
    const environment = {
      ...props.environment,
      MAIL_QUEUE_URL: this.queue.queueUrl,
      MAIL_CONFIGURATION_SET: this.configurationSet.configurationSetName,
      ...(props.mailFrom ? { MAIL_FROM: props.mailFrom } : {}),
    };
    const common = { environment, logRetention: props.logRetention, removalPolicy: props.removalPolicy };
    return {
      dispatch: serviceFunction(this, 'Dispatch', {
        entry: 'functions/outbox-dispatch/handler.ts',
        description: 'Table stream → invoice mail queue',
        ...common,
      }),
      mailer: serviceFunction(this, 'Mailer', {
        entry: 'functions/mailer/handler.ts',
        description: 'Invoice mail queue → PDF, MIME message, SESv2',
        timeout: MAILER_TIMEOUT,
        // The PDF engine and its fonts beside the bundle (infra/function-settings.ts PDF_BUNDLING).
        rendersPdf: true,
        ...common,
      }),
      events: serviceFunction(this, 'Reports', {
        entry: 'functions/mail-events/handler.ts',
        description: "SES's bounce, complaint and reject reports → invoice mail status",
        ...common,
      }),
    };
  }

  private wireSources(table: dynamodb.TableV2): events.Rule {
    this.dispatchFunction.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: lambda.StartingPosition.TRIM_HORIZON,
        batchSize: 100,
        filters: [lambda.FilterCriteria.filter(streamFilterOf(['mail']) as unknown as Record<string, unknown>)],
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: 10,
        onFailure: new SqsDlq(this.dispatchFailures),
      }),
    );
    this.queue.grantSendMessages(this.dispatchFunction);
    this.mailerFunction.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: MAILER_BATCH_SIZE,
        reportBatchItemFailures: true,
        maxConcurrency: MAILER_MAX_CONCURRENCY,
      }),
    );
    // Only this stage's reports about invoice e-mails: its configuration set, a job tag, the three report types.
    return new events.Rule(this, 'Reports', {
      description: "SES's reports about this stage's invoice e-mails → mail-events",
      eventPattern: {
        source: ['aws.ses'],
        detail: {
          eventType: Object.keys(SES_NOTICE_TYPES),
          mail: {
            tags: {
              'ses:configuration-set': [this.configurationSet.configurationSetName],
              [MAIL_JOB_TAG]: [{ exists: true }],
            },
          },
        },
      },
      targets: [
        new targets.LambdaFunction(this.eventsFunction, {
          deadLetterQueue: this.eventsDeadLetters,
          retryAttempts: 8,
          maxEventAge: Duration.hours(24),
        }),
      ],
    });
  }

  private grantAccess(props: InvoiceMailProps): void {
    for (const fn of [this.mailerFunction, this.eventsFunction]) {
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          sid: 'MailTableAccess',
          actions: [...MAIL_TABLE_ACTIONS],
          resources: [props.table.tableArn],
        }),
      );
    }
    if (!props.mailFrom) return;
    const { region, account } = Stack.of(this);
    const identity = (name: string) => `arn:${Stack.of(this).partition}:ses:${region}:${account}:identity/${name}`;
    const domain = props.mailFrom.split('@')[1]!;
    this.mailerFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'SendInvoiceMail',
        actions: [...SES_SEND_ACTIONS],
        resources: [
          identity(props.mailFrom),
          identity(domain),
          `arn:${Stack.of(this).partition}:ses:${region}:${account}:configuration-set/${this.configurationSet.configurationSetName}`,
        ],
        conditions: { StringEquals: { 'ses:FromAddress': props.mailFrom } },
      }),
    );
  }

  /** Every AwsSolutions finding these resources accept, with the reason (test/infra/nag.test.ts lists the ids). */
  private acknowledgeNagFindings() {
    for (const queue of [this.dispatchFailures, this.eventsDeadLetters]) {
      Validations.of(queue).acknowledge({
        id: 'AwsSolutions-SQS3',
        reason:
          'This queue is itself a dead-letter destination (of the stream event source mapping, or of the EventBridge target). ' +
          'Nothing consumes it automatically; an alarm fires on its first message and an operator reads it (docs/operations.md "E-mail").',
      });
    }
    for (const fn of [this.dispatchFunction, this.mailerFunction, this.eventsFunction]) {
      Validations.of(fn).acknowledge(
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason:
            'AWSLambdaBasicExecutionRole only allows writing CloudWatch logs (CreateLogGroup/CreateLogStream/PutLogEvents); ' +
            'queue, stream, table and SES access are granted separately by statements naming those resources.',
        },
        {
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'Only the X-Ray statement (xray:PutTraceSegments, xray:PutTelemetryRecords) uses Resource *: X-Ray does not support ' +
            'resource-level permissions. Stream, queue, table and SES statements name their ARNs (asserted in test/infra/mail.test.ts).',
        },
        {
          id: 'AwsSolutions-L1',
          reason:
            'The runtime is pinned to nodejs22.x on purpose, like the other functions: the bundles target node22, and a runtime ' +
            'upgrade is a deliberate, tested change rather than a side effect of a CDK upgrade.',
        },
      );
    }
  }
}
