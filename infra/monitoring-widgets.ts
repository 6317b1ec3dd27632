/**
 * The metrics and dashboard widgets of a stage's Monitoring (monitoring.ts), built from its props: API Gateway's
 * route-level metrics, the table's errors and capacity, and the business metrics the functions emit
 * (shared/observability.ts). Monitoring itself owns the alarms and the order of the dashboard's rows.
 */
import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { MonitoringSettings } from './stages.ts';

export const ALARM_PERIOD = Duration.minutes(5);

/** The DynamoDB operations the functions and the CLI use; each is one metric in the table's sums. */
export const TABLE_OPERATIONS = [
  dynamodb.Operation.GET_ITEM,
  dynamodb.Operation.BATCH_GET_ITEM,
  dynamodb.Operation.PUT_ITEM,
  dynamodb.Operation.UPDATE_ITEM,
  dynamodb.Operation.QUERY,
  dynamodb.Operation.SCAN,
  dynamodb.Operation.TRANSACT_WRITE_ITEMS,
];

/** One API route: its API Gateway route-level metrics need the stage's detailed metrics turned on. */
export interface MonitoredRoute {
  name: string;
  method: string;
  path: string;
}

/** What the widgets are built from (a subset of MonitoringProps). */
export interface WidgetSources {
  settings: MonitoringSettings;
  api: HttpApi;
  apiStageName: string;
  routes: readonly MonitoredRoute[];
  table: dynamodb.TableV2;
  metricsNamespace: string;
  serviceName: string;
}

type RouteMetric = (route: MonitoredRoute, metricName: string, statistic: string) => cloudwatch.Metric;

/** API Gateway's metric of one route (requests, 4xx, 5xx, latency) on the API's stage. */
export function routeMetrics(sources: Pick<WidgetSources, 'api' | 'apiStageName'>): RouteMetric {
  return (route, metricName, statistic) =>
    new cloudwatch.Metric({
      namespace: 'AWS/ApiGateway',
      metricName,
      dimensionsMap: {
        ApiId: sources.api.apiId,
        Stage: sources.apiStageName,
        Resource: route.path,
        Method: route.method,
      },
      statistic,
      period: ALARM_PERIOD,
      label: `${route.method} ${route.path} ${statistic}`,
    });
}

/** The share of API requests answered 5xx, in percent. */
export function apiServerErrorRate(api: HttpApi): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    expression: 'IF(requests > 0, 100 * errors / requests, 0)',
    usingMetrics: {
      errors: api.metricServerError({ period: ALARM_PERIOD, statistic: 'Sum' }),
      requests: api.metricCount({ period: ALARM_PERIOD, statistic: 'Sum' }),
    },
    period: ALARM_PERIOD,
    label: '5xx rate (%)',
  });
}

/** Two rows: requests, errors and the 5xx rate; then one latency graph per route. */
export function apiWidgetRows(sources: WidgetSources, serverErrorRate: cloudwatch.IMetric): cloudwatch.IWidget[][] {
  const { routes, settings } = sources;
  const routeMetric = routeMetrics(sources);
  const overview = [
    new cloudwatch.GraphWidget({
      title: 'Requests per route',
      left: routes.map((route) => routeMetric(route, 'Count', 'Sum')),
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'Errors per route (4xx, 5xx)',
      left: routes.flatMap((route) => [routeMetric(route, '4xx', 'Sum'), routeMetric(route, '5xx', 'Sum')]),
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'API 5xx rate (%)',
      left: [serverErrorRate],
      leftAnnotations: [{ value: settings.thresholds.api5xxRatePercent, label: 'alarm' }],
      width: 8,
    }),
  ];
  const latencies = routes.map(
    (route) =>
      new cloudwatch.GraphWidget({
        title: `Latency ${route.method} ${route.path} (ms)`,
        left: [routeMetric(route, 'Latency', 'p50'), routeMetric(route, 'Latency', 'p99')],
        leftAnnotations: [{ value: settings.thresholds.routeP99LatencyMs, label: 'p99 alarm' }],
        width: 8,
      }),
  );
  return [overview, latencies];
}

/** The table's throttled requests and system errors, summed over TABLE_OPERATIONS. */
export function tableErrorMetrics(table: dynamodb.TableV2) {
  const options = { period: ALARM_PERIOD, statistic: 'Sum', operations: TABLE_OPERATIONS };
  return {
    throttled: table.metricThrottledRequestsForOperations({ ...options, label: 'throttled requests' }),
    systemErrors: table.metricSystemErrorsForOperations({ ...options, label: 'system errors' }),
  };
}

export function tableWidgets(
  table: dynamodb.TableV2,
  throttled: cloudwatch.IMetric,
  systemErrors: cloudwatch.IMetric,
): cloudwatch.IWidget[] {
  return [
    // One graph each: the two sums use the same per-operation metric ids.
    new cloudwatch.GraphWidget({ title: 'DynamoDB throttled requests', left: [throttled], width: 8 }),
    new cloudwatch.GraphWidget({ title: 'DynamoDB system errors', left: [systemErrors], width: 8 }),
    new cloudwatch.GraphWidget({
      title: 'DynamoDB consumed capacity (units per 5 min)',
      left: [
        table.metricConsumedReadCapacityUnits({ period: ALARM_PERIOD, statistic: 'Sum', label: 'read' }),
        table.metricConsumedWriteCapacityUnits({ period: ALARM_PERIOD, statistic: 'Sum', label: 'write' }),
      ],
      width: 8,
    }),
  ];
}

/** The metrics shared/observability.ts emits (EMF): counts by route, amounts by currency, errors by code. */
export function businessWidgets(sources: WidgetSources): cloudwatch.IWidget[] {
  const { metricsNamespace: namespace, serviceName: service, routes } = sources;
  const perRoute = (metricName: string, route: string) =>
    new cloudwatch.Metric({
      namespace,
      metricName,
      dimensionsMap: { service, route },
      statistic: 'Sum',
      period: ALARM_PERIOD,
      label: metricName,
    });
  // SEARCH graphs one line per dimension value (currency, error_code) without listing them here.
  const search = (dimensions: string, metricName: string) =>
    new cloudwatch.MathExpression({
      expression: `SEARCH('{${namespace},${dimensions}} MetricName="${metricName}" service="${service}"', 'Sum', ${ALARM_PERIOD.toSeconds()})`,
      usingMetrics: {},
      label: metricName,
      period: ALARM_PERIOD,
    });
  const hasRoute = (name: string) => routes.some((route) => route.name === name);
  return [
    new cloudwatch.GraphWidget({
      title: 'Invoices created, payments recorded',
      left: [
        ...(hasRoute('add-invoice') ? [perRoute('InvoicesCreated', 'add-invoice')] : []),
        ...(hasRoute('add-payment') ? [perRoute('PaymentsRecorded', 'add-payment')] : []),
      ],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'Payment amount by currency (major units)',
      left: [search('currency,service', 'PaymentAmount')],
      width: 8,
    }),
    new cloudwatch.GraphWidget({
      title: 'Error responses by error_code',
      left: [search('error_code,route,service', 'Errors')],
      width: 8,
    }),
  ];
}
