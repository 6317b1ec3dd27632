/**
 * What the stage watches of invoice e-mail besides the outbox's dead letters and lag (infra/outbox.ts; docs/operations.md
 * "Alarms"): the report handler's dead letters, failed e-mails (the mailer's `MailFailed` metric), and SES's bounce and
 * complaint rates of the stage's configuration set, alarmed before SES's own review thresholds (5 % and 0.1 %).
 */
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as ses from 'aws-cdk-lib/aws-ses';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { ALARM_PERIOD, type WatchedMetric } from './monitoring.ts';

export const BOUNCE_RATE_ALARM = 0.04;
export const COMPLAINT_RATE_ALARM = 0.0008;

/** What the alarms watch of the stage's invoice e-mail: the `InvoiceMail` construct (infra/mail.ts) that calls them. */
interface WatchedMail {
  eventsDeadLetters: sqs.IQueue;
  configurationSet: Pick<ses.IConfigurationSet, 'configurationSetName'>;
}

/** Where the mailer's `MailFailed` metric is published. */
interface MetricsOf {
  metricsNamespace: string;
  serviceName: string;
}

export function mailWatchedMetrics(mail: WatchedMail, props: MetricsOf): WatchedMetric[] {
  return [...deadLetterAlarms(mail), ...deliveryAlarms(mail, props)];
}

/** A report in the report handler's dead-letter queue is a bounce or a complaint nobody recorded. */
function deadLetterAlarms(mail: WatchedMail): WatchedMetric[] {
  return [
    {
      id: 'MailReportDeadLetters',
      metric: mail.eventsDeadLetters.metricApproximateNumberOfMessagesVisible({
        statistic: cloudwatch.Stats.MAXIMUM,
        period: ALARM_PERIOD,
      }),
      threshold: 1,
      description:
        'SES reports (bounces, complaints) that could not be recorded are waiting in their dead-letter queue',
    },
  ];
}

/** Failed e-mails, and SES's reputation rates of the stage's configuration set. */
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
