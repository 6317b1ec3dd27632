/**
 * Invoice e-mail on AWS (docs/sending-invoices.md "Delivery", docs/deploying.md "E-mail"): the outbox's mail kind
 * (infra/outbox.ts) — its mail queue, dead letters and `mailer` worker (renders the PDF, sends with SESv2, retries
 * through the message's visibility timeout) — built here with what only mail needs: the stage's SES configuration set,
 * whose reports about the sent messages — bounces, complaints, rejects — come through EventBridge's default bus to
 * `mail-events`, and the permission to send only from the stage's `mailFrom` identity, with this configuration set.
 * Failed e-mails, the report handler's dead letters and the bounce and complaint rates are watched (`watchedMetrics`).
 */
import { CfnOutput, Duration, Stack, Validations } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAIL_JOB_TAG, SES_NOTICE_TYPES } from '../shared/store/mail.ts';
import { JOB_KINDS } from '../shared/store/outbox.ts';
import { mailWatchedMetrics } from './mail-alarms.ts';
import type { WatchedMetric } from './monitoring.ts';
import { type OutboxProps, OutboxWorker } from './outbox.ts';
import { acknowledgeFunctionFindings, serviceFunction } from './service-function.ts';

/** The report handler reads and writes what the mailer does: jobs, invoices and events (shared/store/outbox.ts). */
export const MAIL_TABLE_ACTIONS = JOB_KINDS.mail.worker.tableActions;
/** SESv2 `SendEmail` (raw content); both names, scoped to the identity and the configuration set. */
export const SES_SEND_ACTIONS = ['ses:SendEmail', 'ses:SendRawEmail'] as const;

export interface InvoiceMailProps extends OutboxProps {
  /** The stage's verified sender (`mailFrom`); undefined: sending answers 501 and no SES permission is granted. */
  mailFrom: string | undefined;
  metricsNamespace: string;
  serviceName: string;
}

export class InvoiceMail extends Construct {
  readonly worker: OutboxWorker;
  readonly eventsDeadLetters: sqs.Queue;
  readonly eventsFunction: NodejsFunction;
  readonly configurationSet: ses.ConfigurationSet;
  readonly reportsRule: events.Rule;
  readonly watchedMetrics: WatchedMetric[];

  constructor(scope: Construct, id: string, props: InvoiceMailProps) {
    super(scope, id);
    this.configurationSet = this.createConfigurationSet();
    const environment = {
      ...props.environment,
      MAIL_CONFIGURATION_SET: this.configurationSet.configurationSetName,
      ...(props.mailFrom ? { MAIL_FROM: props.mailFrom } : {}),
    };
    this.worker = new OutboxWorker(this, 'mail', { ...props, environment });
    this.eventsDeadLetters = new sqs.Queue(this, 'ReportDeadLetters', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: props.removalPolicy,
    });
    this.eventsFunction = serviceFunction(this, 'Reports', {
      entry: 'functions/mail-events/handler.ts',
      description: "SES's bounce, complaint and reject reports → invoice mail status",
      environment,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.reportsRule = this.routeReports();
    this.grantAccess(props);
    this.watchedMetrics = mailWatchedMetrics(this, props);

    new CfnOutput(this, 'MailConfigurationSet', {
      value: this.configurationSet.configurationSetName,
      description: 'SES configuration set of invoice e-mails (docs/operations.md "E-mail")',
    });
    this.acknowledgeNagFindings();
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

  /** Only this stage's reports about invoice e-mails: its configuration set, a job tag, the three report types. */
  private routeReports(): events.Rule {
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

  /** The report handler's table access (the worker has its own: infra/outbox.ts); SES for the worker, with a sender. */
  private grantAccess(props: InvoiceMailProps): void {
    this.eventsFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'MailTableAccess',
        actions: [...MAIL_TABLE_ACTIONS],
        resources: [props.table.tableArn],
      }),
    );
    if (!props.mailFrom) return;
    const { region, account, partition } = Stack.of(this);
    const identity = (name: string) => `arn:${partition}:ses:${region}:${account}:identity/${name}`;
    const domain = props.mailFrom.split('@')[1]!;
    this.worker.workerFunction.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'SendInvoiceMail',
        actions: [...SES_SEND_ACTIONS],
        resources: [
          identity(props.mailFrom),
          identity(domain),
          `arn:${partition}:ses:${region}:${account}:configuration-set/${this.configurationSet.configurationSetName}`,
        ],
        conditions: { StringEquals: { 'ses:FromAddress': props.mailFrom } },
      }),
    );
  }

  /** Every AwsSolutions finding these resources accept, with the reason (test/infra/nag.test.ts lists the ids). */
  private acknowledgeNagFindings() {
    Validations.of(this.eventsDeadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself a dead-letter destination (of the EventBridge target). Nothing consumes it automatically; ' +
        'an alarm fires on its first message and an operator reads it (docs/operations.md "E-mail").',
    });
    acknowledgeFunctionFindings(this.eventsFunction, 'table access', 'test/infra/mail.test.ts');
  }
}
