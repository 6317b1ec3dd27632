/**
 * What the stage watches of Paystack besides its job kinds' dead letters and lag (infra/outbox.ts; docs/operations.md
 * "Alarms"): webhooks whose signature is missing or wrong (a forgery, or a key pasted wrongly), and refunds that failed
 * after every retry (money the invoice could not take, not yet given back). Both metrics are the functions' own
 * (shared/observability.ts `countPaystackOutcome`).
 */
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { ALARM_PERIOD, type WatchedMetric } from './monitoring.ts';

/** Bad signatures in 5 min: one is anybody on the internet trying the URL; a run of them is a key pasted wrongly. */
export const SIGNATURE_FAILURES_ALARM = 5;

interface MetricsOf {
  metricsNamespace: string;
  serviceName: string;
}

export function paystackWatchedMetrics(props: MetricsOf): WatchedMetric[] {
  const sum = (metricName: string) =>
    new cloudwatch.Metric({
      namespace: props.metricsNamespace,
      metricName,
      dimensionsMap: { service: props.serviceName },
      statistic: 'Sum',
      period: ALARM_PERIOD,
    });
  return [
    {
      id: 'PaystackSignatureFailures',
      metric: sum('PaystackSignatureFailures'),
      threshold: SIGNATURE_FAILURES_ALARM,
      description:
        "Paystack webhooks are refused for a missing or wrong signature: a forgery, or an account's secret key that no longer matches its Paystack integration",
    },
    {
      id: 'PaystackRefundFailures',
      metric: sum('RefundsFailed'),
      threshold: 1,
      description:
        "A refund through Paystack's API failed after every retry: money the invoice cannot take is not given back",
    },
  ];
}
