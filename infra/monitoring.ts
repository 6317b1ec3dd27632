/**
 * How a deployed stage watches itself (docs/operations.md "Alarms" says what each alarm means and
 * what to check first): an SNS topic with an email subscription, CloudWatch alarms on the API, every
 * function and the table, and one dashboard. Built from CDK's own constructs (aws-cloudwatch,
 * aws-cloudwatch-actions, aws-sns, aws-sns-subscriptions).
 *
 * Other parts of the stack have their metrics alarmed with `watchMetric(...)` (same conventions, same
 * topic, shown on the dashboard) and their own functions with `addFunction(...)` (errors and throttles
 * alarms, dashboard graphs).
 */
import { CfnOutput, Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import type { MonitoringSettings } from './stages.ts';

export const ALARM_PERIOD = Duration.minutes(5);

/** The DynamoDB operations the functions and the CLI use; each is one metric in the table's sums. */
const TABLE_OPERATIONS = [
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

/** A metric another construct asks to be alarmed on (at or above `threshold`). */
export interface WatchedMetric {
  /** Alarm id, also the end of its name: `Invoicing-<stage>-<id>`. */
  id: string;
  metric: cloudwatch.IMetric;
  threshold: number;
  /** What it means, one sentence (the runbook link is added). */
  description: string;
}

export interface MonitoringProps {
  stageName: string;
  settings: MonitoringSettings;
  api: HttpApi;
  /** Name of the API stage serving the routes (`$default`). */
  apiStageName: string;
  routes: readonly MonitoredRoute[];
  /** The API functions, by name: errors and throttles of each. */
  functions: ReadonlyMap<string, lambda.IFunction>;
  table: dynamodb.TableV2;
  /** Namespace and `service` dimension of the business metrics the functions emit (shared/observability.ts). */
  metricsNamespace: string;
  serviceName: string;
  removalPolicy: RemovalPolicy;
}

export class Monitoring extends Construct {
  /** The alarm topic; undefined when the stage has alarms turned off. */
  readonly topic: sns.Topic | undefined;
  readonly dashboard: cloudwatch.Dashboard;
  private readonly props: MonitoringProps;
  private readonly alarmList: cloudwatch.IAlarm[] = [];
  private readonly functionErrors: cloudwatch.IMetric[] = [];
  private readonly functionThrottles: cloudwatch.IMetric[] = [];
  private readonly functionDurations: cloudwatch.IMetric[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.props = props;
    const { settings } = props;
    this.topic = settings.alarms ? this.createTopic() : undefined;
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `Invoicing-${props.stageName}`,
      defaultInterval: Duration.hours(3),
    });
    new CfnOutput(this, 'DashboardName', {
      value: `Invoicing-${props.stageName}`,
      description: 'CloudWatch dashboard of this stage',
    });

    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown:
          `# Invoicing API, stage ${props.stageName}\n` +
          `Alarms: ${settings.alarms ? `SNS topic → ${settings.alarmEmail ?? '(no email subscribed)'}` : 'off for this stage'}. ` +
          'What each alarm means and what to check first: docs/operations.md in the repository.',
        width: 24,
        height: 2,
      }),
    );
    this.addApiWidgetsAndAlarms();
    for (const [name, fn] of props.functions) this.addFunction(name, fn);
    this.addTableWidgetsAndAlarms();
    this.dashboard.addWidgets(...businessWidgets(this.props));
    if (settings.alarms) {
      // Reads the alarm list when the template is written, so alarms added later are listed too.
      this.dashboard.addWidgets(
        new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: this.alarmList, width: 24, height: 6 }),
      );
    }
  }

  /** True when the stage creates alarms; callers may skip building alarms that would go nowhere. */
  get alarmsEnabled(): boolean {
    return this.topic !== undefined;
  }

  /** Every alarm this construct knows of (its own and those added). */
  get alarms(): readonly cloudwatch.IAlarm[] {
    return this.alarmList;
  }

  /**
   * Alarms on a metric of another part of the stack (e.g. webhook dead letters, stream iterator age),
   * with the same conventions as every other alarm: sent to the topic, listed on the dashboard, none
   * when the stage has alarms off.
   */
  watchMetric(watched: WatchedMetric): void {
    this.alarm(watched.id, watched.metric, watched.threshold, watched.description);
  }

  /** Watches a function: an errors alarm and a throttles alarm, and its graphs on the dashboard. */
  addFunction(name: string, fn: lambda.IFunction): void {
    const { thresholds } = this.props.settings;
    const errors = fn.metricErrors({ period: ALARM_PERIOD, statistic: 'Sum', label: name });
    const throttles = fn.metricThrottles({ period: ALARM_PERIOD, statistic: 'Sum', label: name });
    this.functionErrors.push(errors);
    this.functionThrottles.push(throttles);
    this.functionDurations.push(fn.metricDuration({ period: ALARM_PERIOD, statistic: 'p99', label: `${name} p99` }));
    const id = pascalCase(name);
    this.alarm(
      `${id}Errors`,
      errors,
      thresholds.functionErrors,
      `${name}: the function crashed or timed out (Lambda Errors)`,
    );
    this.alarm(
      `${id}Throttles`,
      throttles,
      thresholds.functionThrottles,
      `${name}: Lambda throttled invocations (concurrency limit)`,
    );
  }

  private createTopic(): sns.Topic {
    const { stageName, settings, removalPolicy } = this.props;
    // SNS encryption needs a customer managed key: CloudWatch cannot publish to a topic encrypted
    // with the AWS managed key (it cannot be granted to the service).
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: `Encrypts the alarm topic of Invoicing-${stageName}`,
      enableKeyRotation: true,
      removalPolicy,
    });
    key.grant(new iam.ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    const topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: `Invoicing ${stageName} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    // prod's address in infra/stages.ts is a placeholder until an operator sets it (docs/operations.md).
    if (settings.alarmEmail) topic.addSubscription(new EmailSubscription(settings.alarmEmail));
    new CfnOutput(this, 'AlarmTopicArn', {
      value: topic.topicArn,
      description: `Alarm topic; emails go to ${settings.alarmEmail ?? 'nobody yet'}`,
    });
    return topic;
  }

  /** A "greater than or equal to threshold" alarm on 5-minute periods, sent to the topic; none when alarms are off. */
  private alarm(id: string, metric: cloudwatch.IMetric, threshold: number, description: string): void {
    if (!this.topic) return;
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmName: `Invoicing-${this.props.stageName}-${id}`,
      alarmDescription: `${description}. Runbook: docs/operations.md "Alarms".`,
      metric,
      threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: this.props.settings.thresholds.evaluationPeriods,
      // No traffic is not a failure.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarmList.push(alarm);
  }

  private addApiWidgetsAndAlarms(): void {
    const { routes, settings } = this.props;
    const routeMetric = routeMetrics(this.props);
    const serverErrorRate = apiServerErrorRate(this.props.api);
    this.alarm(
      'Api5xxRate',
      serverErrorRate,
      settings.thresholds.api5xxRatePercent,
      'More than the threshold percentage of API requests answered 5xx',
    );
    for (const route of routes) {
      this.alarm(
        `${pascalCase(route.name)}LatencyP99`,
        routeMetric(route, 'Latency', 'p99'),
        settings.thresholds.routeP99LatencyMs,
        `${route.method} ${route.path}: p99 latency (ms) at or over the threshold`,
      );
    }
    for (const row of apiWidgetRows(this.props, serverErrorRate)) this.dashboard.addWidgets(...row);
    // Function graphs read the lists filled by addFunction, including functions added later.
    this.dashboard.addWidgets(
      new cloudwatch.GraphWidget({ title: 'Function errors', left: this.functionErrors, width: 8 }),
      new cloudwatch.GraphWidget({ title: 'Function throttles', left: this.functionThrottles, width: 8 }),
      new cloudwatch.GraphWidget({ title: 'Function duration p99 (ms)', left: this.functionDurations, width: 8 }),
    );
  }

  private addTableWidgetsAndAlarms(): void {
    const { table, settings } = this.props;
    const { throttled, systemErrors } = tableErrorMetrics(table);
    this.alarm(
      'TableThrottledRequests',
      throttled,
      settings.thresholds.dynamoDbThrottledRequests,
      'DynamoDB throttled requests on the table',
    );
    this.alarm(
      'TableSystemErrors',
      systemErrors,
      settings.thresholds.dynamoDbSystemErrors,
      'DynamoDB answered with system (5xx) errors',
    );
    this.dashboard.addWidgets(...tableWidgets(table, throttled, systemErrors));
  }
}

/** Stack-unique construct ids from kebab-case names (`add-invoice` → `AddInvoice`). */
function pascalCase(kebab: string): string {
  return kebab.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
}

// The dashboard's metrics and widgets, built from the props: API Gateway's route-level metrics, the table's errors and
// capacity, and the business metrics the functions emit (shared/observability.ts). The construct above owns the alarms
// and the order of the dashboard's rows.

/** What the widgets are built from (a subset of MonitoringProps). */
interface WidgetSources {
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
function routeMetrics(sources: Pick<WidgetSources, 'api' | 'apiStageName'>): RouteMetric {
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
function apiServerErrorRate(api: HttpApi): cloudwatch.MathExpression {
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
function apiWidgetRows(sources: WidgetSources, serverErrorRate: cloudwatch.IMetric): cloudwatch.IWidget[][] {
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
function tableErrorMetrics(table: dynamodb.TableV2) {
  const options = { period: ALARM_PERIOD, statistic: 'Sum', operations: TABLE_OPERATIONS };
  return {
    throttled: table.metricThrottledRequestsForOperations({ ...options, label: 'throttled requests' }),
    systemErrors: table.metricSystemErrorsForOperations({ ...options, label: 'system errors' }),
  };
}

function tableWidgets(
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
function businessWidgets(sources: WidgetSources): cloudwatch.IWidget[] {
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
