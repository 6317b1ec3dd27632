/**
 * What the stage watches of invoice e-mail (docs/operations.md "Alarms"): dead letters of the mailer, the dispatcher
 * and the report handler, stream lag, failed e-mails (the mailer's `MailFailed` metric), and SES's bounce and complaint
 * rates of the stage's configuration set, alarmed before SES's own review thresholds (5 % and 0.1 %).
 */
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as ses from 'aws-cdk-lib/aws-ses';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { ALARM_PERIOD, type WatchedMetric } from './monitoring.ts';

/** What the alarms watch of the stage's invoice e-mail: the `InvoiceMail` construct (infra/mail.ts) that calls them. */
interface WatchedMail {
  deadLetterQueue: sqs.IQueue;
  dispatchFailures: sqs.IQueue;
  eventsDeadLetters: sqs.IQueue;
  dispatchFunction: lambda.IFunction;
  configurationSet: Pick<ses.IConfigurationSet, 'configurationSetName'>;
}

/** Where the mailer's `MailFailed` metric is published. */
interface MetricsOf {
  metricsNamespace: string;
  serviceName: string;
}

export const BOUNCE_RATE_ALARM = 0.04;
export const COMPLAINT_RATE_ALARM = 0.0008;

export function mailWatchedMetrics(mail: WatchedMail, props: MetricsOf): WatchedMetric[] {
  return [...deadLetterAlarms(mail), ...deliveryAlarms(mail, props)];
}

/** A message in any of the three dead-letter queues is an e-mail (or a report) a human has to look at. */
function deadLetterAlarms(mail: WatchedMail): WatchedMetric[] {
  const visible = (queue: sqs.IQueue) =>
    queue.metricApproximateNumberOfMessagesVisible({ statistic: cloudwatch.Stats.MAXIMUM, period: ALARM_PERIOD });
  return [
    {
      id: 'MailDeadLetters',
      metric: visible(mail.deadLetterQueue),
      threshold: 1,
      description: 'Invoice e-mails the mailer crashed on repeatedly are waiting in the dead-letter queue',
    },
    {
      id: 'MailDispatchFailures',
      metric: visible(mail.dispatchFailures),
      threshold: 1,
      description: 'Table stream batches that could not be enqueued for the mailer are waiting in their queue',
    },
    {
      id: 'MailReportDeadLetters',
      metric: visible(mail.eventsDeadLetters),
      threshold: 1,
      description:
        'SES reports (bounces, complaints) that could not be recorded are waiting in their dead-letter queue',
    },
  ];
}

/** Stream lag, failed e-mails, and SES's reputation rates of the stage's configuration set. */
function deliveryAlarms(mail: WatchedMail, props: MetricsOf): WatchedMetric[] {
  const reputation = (metricName: string) =>
    new cloudwatch.Metric({
      namespace: 'AWS/SES',
      metricName,
      dimensionsMap: { 'ses:configuration-set': mail.configurationSet.configurationSetName },
      statistic: cloudwatch.Stats.MAXIMUM,
      period: ALARM_PERIOD,
    });
  return [
    {
      id: 'MailStreamLag',
      metric: mail.dispatchFunction.metric('IteratorAge', {
        statistic: cloudwatch.Stats.MAXIMUM,
        period: ALARM_PERIOD,
      }),
      threshold: Duration.minutes(5).toMilliseconds(),
      description: 'Mail dispatch lags more than 5 minutes behind the table stream (queued e-mails wait)',
    },
    {
      id: 'MailFailures',
      metric: new cloudwatch.Metric({
        namespace: props.metricsNamespace,
        metricName: 'MailFailed',
        dimensionsMap: { service: props.serviceName },
        statistic: 'Sum',
        period: ALARM_PERIOD,
      }),
      threshold: 1,
      description:
        'An invoice e-mail failed: SES refused it (an unverified sender, the sandbox, a suspended account) or every retry failed',
    },
    {
      id: 'MailBounceRate',
      metric: reputation('Reputation.BounceRate'),
      threshold: BOUNCE_RATE_ALARM,
      description: 'The bounce rate of invoice e-mails nears the 5 % at which SES reviews the account',
    },
    {
      id: 'MailComplaintRate',
      metric: reputation('Reputation.ComplaintRate'),
      threshold: COMPLAINT_RATE_ALARM,
      description: 'The complaint rate of invoice e-mails nears the 0.1 % at which SES reviews the account',
    },
  ];
}
