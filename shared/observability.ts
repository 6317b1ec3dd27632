/**
 * Observability with Powertools for AWS Lambda (all packages pinned to one version), documented in
 * docs/deploying.md "Logs, metrics and traces":
 *
 * - `logger`: structured JSON, level from LOG_LEVEL. One line per request (written by the middy stack):
 *   route, request_id, company_id, status, latency_ms, error_code. Never a secret key, a card token or a body.
 * - `metrics`: CloudWatch EMF, namespace POWERTOOLS_METRICS_NAMESPACE (default `Invoicing`), flushed at the
 *   end of every invocation. Metrics: ColdStart, InvoicesCreated, PaymentsRecorded, PaymentAmount (major
 *   currency units, e.g. naira, with a `currency` dimension), Errors (with an `error_code` dimension).
 *   POWERTOOLS_METRICS_DISABLED=true turns the output off (`npm start` does; the tests do unless they look).
 *
 * Hot path: a handful of in-memory appends and one `console.log` of the EMF blob per invocation.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { loadConfig } from './config.ts';

const { serviceName, metricsNamespace, logLevel } = loadConfig();

export const logger = new Logger({ serviceName, logLevel: logLevel as never });

export const metrics = new Metrics({ serviceName, namespace: metricsNamespace });

/** Emits `ColdStart` once per process (Powertools tracks the first call). */
export function captureColdStart(functionName: string | undefined): void {
  metrics.captureColdStartMetric(functionName);
}

/** Counts a created invoice (not a replay) in the `InvoicesCreated` metric. */
export function countInvoiceCreated(): void {
  metrics.addMetric('InvoicesCreated', MetricUnit.Count, 1);
}

/**
 * Counts a recorded payment (not a replay) in `PaymentsRecorded`, and its amount in `PaymentAmount`.
 * `amountKobo` is in minor units; the metric is in major units.
 */
export function countPaymentRecorded(amountKobo: number, currency: string): void {
  metrics.addMetric('PaymentsRecorded', MetricUnit.Count, 1);
  paymentAmountMetric(currency).addMetric('PaymentAmount', MetricUnit.NoUnit, amountKobo / 100);
}

/**
 * One single-metric emitter per currency, kept for the life of the process: each `singleMetric()` builds a new
 * Metrics object with its own Console, which was a tenth of a millisecond on every payment (docs/performance.md).
 */
const paymentAmountMetrics = new Map<string, Metrics>();
function paymentAmountMetric(currency: string): Metrics {
  let emitter = paymentAmountMetrics.get(currency);
  if (!emitter) {
    emitter = metrics.singleMetric();
    emitter.setDefaultDimensions({ currency });
    paymentAmountMetrics.set(currency, emitter);
  }
  return emitter;
}

/** Ends an invocation: counts an error response by code, then flushes the stored metrics (if any). */
export function finishInvocation(route: string, errorCode: string | undefined): void {
  if (errorCode !== undefined) {
    const single = metrics.singleMetric();
    single.addDimension('route', route);
    single.addDimension('error_code', errorCode);
    single.addMetric('Errors', MetricUnit.Count, 1);
  }
  if (metrics.hasStoredMetrics()) {
    metrics.addDimension('route', route);
    metrics.publishStoredMetrics();
  }
}

export type MailOutcomeMetric = 'MailSent' | 'MailFailed' | 'MailBounced';

/** Counts what an invoice e-mail came to (the stage alarms on `MailFailed`: infra/mail.ts); published at once. */
export function countMailOutcome(metric: MailOutcomeMetric): void {
  metrics.singleMetric().addMetric(metric, MetricUnit.Count, 1);
}

export type PaystackMetric =
  | 'PaystackSignatureFailures'
  | 'RefundsIssued'
  | 'RefundsFailed'
  | 'CardChargesDeclined'
  | 'CardChargesSucceeded';

/**
 * Counts what the Paystack integration came to (docs/operations.md "Alarms": the stage alarms on
 * `PaystackSignatureFailures` and `RefundsFailed`); published at once.
 */
export function countPaystackOutcome(metric: PaystackMetric): void {
  metrics.singleMetric().addMetric(metric, MetricUnit.Count, 1);
}

/** A webhook at `POST /paystack/events/{hook_id}` whose signature was missing or wrong. */
export const countPaystackSignatureFailure = (): void => countPaystackOutcome('PaystackSignatureFailures');
