/**
 * docs/operations.md "Alarms": a deployed stage watches itself. Every alarm, the topic it goes to, the thresholds from
 * the stage config, and the dashboard, asserted on the synthesised template.
 */
import { App, Duration } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvoicingStack, METRICS_NAMESPACE, SERVICE_NAME } from '../../infra/stack.ts';
import {
  DEFAULT_ALARM_THRESHOLDS,
  resolveStage,
  STAGES,
  type StageSettings,
  withAlarmEmail,
} from '../../infra/stages.ts';
import { API_FUNCTIONS, ROUTES } from '../../shared/routes.ts';
import {
  type CfnResource,
  FUNCTION_IDS,
  logicalIdAt,
  resourcesOfType,
  type SynthesisedStage,
  synthStage,
} from './template-helpers.ts';

const alarmsOf = (stage: SynthesisedStage) =>
  Object.fromEntries(
    resourcesOfType(stage, 'AWS::CloudWatch::Alarm').map(([, alarm]) => [
      String(alarm.Properties.AlarmName),
      alarm.Properties,
    ]),
  );
const dashboardBody = (stage: SynthesisedStage) => {
  const dashboards = resourcesOfType(stage, 'AWS::CloudWatch::Dashboard');
  expect(dashboards).toHaveLength(1);
  return JSON.stringify(dashboards[0]![1].Properties.DashboardBody);
};
/** An alarm's one metric, whether CDK wrote it as classic properties or (with a label) as a one-entry Metrics list. */
function metricOf(alarm: Record<string, any>) {
  const stat = alarm.Metrics?.length === 1 ? alarm.Metrics[0].MetricStat : undefined;
  const metric = stat ? stat.Metric : alarm;
  return {
    Namespace: metric.Namespace,
    MetricName: metric.MetricName,
    Dimensions: Object.fromEntries((metric.Dimensions ?? []).map((d: any) => [d.Name, d.Value])),
    Stat: stat ? stat.Stat : (alarm.ExtendedStatistic ?? alarm.Statistic),
    Period: stat ? stat.Period : alarm.Period,
  };
}
const pascal = (name: string) => name.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

function stackWith(settings: Partial<StageSettings>, name = 'custom') {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const stack = new InvoicingStack(app, `Invoicing-${name}`, {
    stage: { name, settings: { ...STAGES.prod, ...settings } },
  });
  return stack;
}

describe('prod: topic, alarms and dashboard', () => {
  let stage: SynthesisedStage;
  let alarms: Record<string, Record<string, any>>;
  let topicId: string;

  beforeAll(() => {
    stage = synthStage('prod');
    alarms = alarmsOf(stage);
    topicId = logicalIdAt(stage, 'Monitoring/AlarmTopic/Resource');
  });

  it('has one SNS topic, encrypted with a rotating customer managed key CloudWatch may use, SSL only, emailing the stage address', () => {
    expect(resourcesOfType(stage, 'AWS::SNS::Topic')).toHaveLength(1);
    const keyId = logicalIdAt(stage, 'Monitoring/AlarmTopicKey/Resource');
    expect(stage.json.Resources[topicId]!.Properties.KmsMasterKeyId).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    const key = stage.json.Resources[keyId]!;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    stage.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'alarms@acme.test',
      TopicArn: { Ref: topicId },
    });
    const [, policy] = resourcesOfType(stage, 'AWS::SNS::TopicPolicy')[0]!;
    expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  it('has exactly the expected alarms, each notifying the topic on alarm and on recovery', () => {
    const expected = [
      'Invoicing-prod-Api5xxRate',
      ...ROUTES.map((route) => `Invoicing-prod-${pascal(route.name)}LatencyP99`),
      ...API_FUNCTIONS.flatMap((fn) => [
        `Invoicing-prod-${pascal(fn.name)}Errors`,
        `Invoicing-prod-${pascal(fn.name)}Throttles`,
      ]),
      'Invoicing-prod-TableThrottledRequests',
      'Invoicing-prod-TableSystemErrors',
      // The outbox (infra/outbox.ts): its dispatcher and each kind's worker, their dead letters, the stream's lag.
      ...[
        'OutboxDispatch',
        'WebhookDeliver',
        'Mailer',
        'PaystackEvents',
        'PaystackRefunds',
        'CollectionCharges',
      ].flatMap((fn) => [`Invoicing-prod-${fn}Errors`, `Invoicing-prod-${fn}Throttles`]),
      ...[
        'WebhookDeadLetters',
        'MailDeadLetters',
        'ProviderEventDeadLetters',
        'RefundDeadLetters',
        'ChargeDeadLetters',
        'OutboxDispatchFailures',
        'OutboxStreamLag',
      ].map((id) => `Invoicing-prod-${id}`),
      // The wake sweep (infra/wake-sweep.ts): a failed or timed-out run, throttles.
      'Invoicing-prod-WakeSweepErrors',
      'Invoicing-prod-WakeSweepThrottles',
      // Invoice e-mail (infra/mail.ts, test/infra/mail.test.ts): the report handler, its dead letters, failures, SES rates.
      'Invoicing-prod-MailEventsErrors',
      'Invoicing-prod-MailEventsThrottles',
      ...['MailReportDeadLetters', 'MailFailures'].map((id) => `Invoicing-prod-${id}`),
      'Invoicing-prod-MailBounceRate',
      'Invoicing-prod-MailComplaintRate',
      // Paystack (infra/paystack-alarms.ts): forged or mis-keyed webhooks, refunds that failed every retry.
      'Invoicing-prod-PaystackSignatureFailures',
      'Invoicing-prod-PaystackRefundFailures',
    ];
    expect(Object.keys(alarms).sort()).toEqual(expected.sort());
    for (const alarm of Object.values(alarms)) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
      expect(alarm.TreatMissingData).toBe('notBreaching');
      expect(alarm.ComparisonOperator).toBe('GreaterThanOrEqualToThreshold');
      expect(alarm.EvaluationPeriods).toBe(DEFAULT_ALARM_THRESHOLDS.evaluationPeriods);
      expect(alarm.AlarmDescription).toContain('docs/operations.md');
    }
  });

  it("alarms on Paystack's refused signatures (5 in 5 min) and on any refund that failed every retry", () => {
    const named = (id: string) => alarms[`Invoicing-prod-${id}`];
    expect(named('PaystackSignatureFailures')).toMatchObject({
      Namespace: 'Invoicing',
      MetricName: 'PaystackSignatureFailures',
      Statistic: 'Sum',
      Threshold: 5,
    });
    expect(named('PaystackRefundFailures')).toMatchObject({
      Namespace: 'Invoicing',
      MetricName: 'RefundsFailed',
      Statistic: 'Sum',
      Threshold: 1,
    });
  });

  it('alarms on the API 5xx rate: 100 × 5xx ÷ requests over 5 minutes', () => {
    const alarm = alarms['Invoicing-prod-Api5xxRate']!;
    const apiId = logicalIdAt(stage, 'HttpApi/Resource');
    expect(alarm.Threshold).toBe(DEFAULT_ALARM_THRESHOLDS.api5xxRatePercent);
    const expression = alarm.Metrics.find((m: any) => m.Expression);
    expect(expression.Expression).toBe('IF(requests > 0, 100 * errors / requests, 0)');
    const byId = Object.fromEntries(
      alarm.Metrics.filter((m: any) => m.MetricStat).map((m: any) => [m.Id, m.MetricStat]),
    );
    expect(byId.errors).toMatchObject({
      Metric: {
        Namespace: 'AWS/ApiGateway',
        MetricName: '5xx',
        Dimensions: [{ Name: 'ApiId', Value: { Ref: apiId } }],
      },
      Stat: 'Sum',
      Period: 300,
    });
    expect(byId.requests).toMatchObject({
      Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count' },
      Stat: 'Sum',
      Period: 300,
    });
  });

  it.each(ROUTES.map((route) => [route.name, route] as const))(
    'alarms on the p99 latency of %s, from route-level metrics',
    (_, route) => {
      const alarm = alarms[`Invoicing-prod-${pascal(route.name)}LatencyP99`]!;
      expect(alarm.Threshold).toBe(DEFAULT_ALARM_THRESHOLDS.routeP99LatencyMs);
      const metric = metricOf(alarm);
      expect(metric).toMatchObject({ Namespace: 'AWS/ApiGateway', MetricName: 'Latency', Stat: 'p99', Period: 300 });
      expect(metric.Dimensions).toEqual({
        ApiId: { Ref: logicalIdAt(stage, 'HttpApi/Resource') },
        Stage: '$default',
        Resource: route.path,
        Method: route.method,
      });
      // Route-level metrics exist only with detailed metrics on.
      const [, apiStage] = resourcesOfType(stage, 'AWS::ApiGatewayV2::Stage')[0]!;
      expect(apiStage.Properties.DefaultRouteSettings.DetailedMetricsEnabled).toBe(true);
    },
  );

  it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))(
    'alarms on the errors and throttles of the %s function',
    (name) => {
      const functionRef = { Ref: logicalIdAt(stage, `${FUNCTION_IDS[name]}/Resource`) };
      for (const [suffix, metricName, threshold] of [
        ['Errors', 'Errors', DEFAULT_ALARM_THRESHOLDS.functionErrors],
        ['Throttles', 'Throttles', DEFAULT_ALARM_THRESHOLDS.functionThrottles],
      ] as const) {
        const alarm = alarms[`Invoicing-prod-${pascal(name)}${suffix}`]!;
        expect(alarm.Threshold).toBe(threshold);
        expect(metricOf(alarm)).toEqual({
          Namespace: 'AWS/Lambda',
          MetricName: metricName,
          Dimensions: { FunctionName: functionRef },
          Stat: 'Sum',
          Period: 300,
        });
      }
    },
  );

  it('alarms on DynamoDB throttled requests and system errors of the table, summed over its operations', () => {
    const tableRef = { Ref: logicalIdAt(stage, 'Table/Resource') };
    for (const [name, metricName, threshold] of [
      ['TableThrottledRequests', 'ThrottledRequests', DEFAULT_ALARM_THRESHOLDS.dynamoDbThrottledRequests],
      ['TableSystemErrors', 'SystemErrors', DEFAULT_ALARM_THRESHOLDS.dynamoDbSystemErrors],
    ] as const) {
      const alarm = alarms[`Invoicing-prod-${name}`]!;
      expect(alarm.Threshold).toBe(threshold);
      const stats = alarm.Metrics.filter((m: any) => m.MetricStat).map((m: any) => m.MetricStat);
      const operations = stats.map((stat: any) => {
        expect(stat.Metric).toMatchObject({ Namespace: 'AWS/DynamoDB', MetricName: metricName });
        const dims = Object.fromEntries(stat.Metric.Dimensions.map((d: any) => [d.Name, d.Value]));
        expect(dims.TableName).toEqual(tableRef);
        return dims.Operation;
      });
      for (const operation of ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'Query', 'TransactWriteItems'])
        expect(operations).toContain(operation);
      expect(alarm.Metrics.find((m: any) => m.Expression && m.ReturnData !== false)).toBeDefined();
    }
  });

  it('has a dashboard with requests, errors and p50/p99 latency per route, function and table health, business metrics and alarm status', () => {
    const body = dashboardBody(stage);
    for (const route of ROUTES) {
      for (const label of ['Count Sum', '4xx Sum', '5xx Sum', 'Latency p50', 'Latency p99'].map((l) => l.split(' '))) {
        expect(body).toContain(`${route.method} ${route.path} ${label[1]}`);
      }
      expect(body).toContain(`Latency ${route.method} ${route.path}`);
    }
    for (const title of [
      'Requests per route',
      'Errors per route',
      'API 5xx rate',
      'Function errors',
      'Function throttles',
      'DynamoDB throttled requests',
      'DynamoDB system errors',
      'DynamoDB consumed capacity',
    ]) {
      expect(body).toContain(title);
    }
    // Business metrics from shared/observability.ts, in its namespace and dimensions.
    expect(body).toContain(
      `\\"${METRICS_NAMESPACE}\\",\\"InvoicesCreated\\",\\"route\\",\\"add-invoice\\",\\"service\\",\\"${SERVICE_NAME}\\"`,
    );
    expect(body).toContain(
      `\\"${METRICS_NAMESPACE}\\",\\"PaymentsRecorded\\",\\"route\\",\\"add-payment\\",\\"service\\",\\"${SERVICE_NAME}\\"`,
    );
    expect(body).toContain(`SEARCH('{${METRICS_NAMESPACE},currency,service} MetricName=\\\\\\"PaymentAmount\\\\\\"`);
    expect(body).toContain(`SEARCH('{${METRICS_NAMESPACE},error_code,route,service} MetricName=\\\\\\"Errors\\\\\\"`);
    expect(body).toContain('Alarms');
    for (const id of resourcesOfType(stage, 'AWS::CloudWatch::Alarm').map(([logicalId]) => logicalId))
      expect(body).toContain(id);
  });
});

describe('dev: alarms off', () => {
  it('has no topic and no alarm, but keeps the dashboard', () => {
    const stage = synthStage('dev');
    expect(STAGES.dev.monitoring.alarms).toBe(false);
    expect(resourcesOfType(stage, 'AWS::SNS::Topic')).toHaveLength(0);
    expect(resourcesOfType(stage, 'AWS::CloudWatch::Alarm')).toHaveLength(0);
    // The only KMS key is webhook delivery's (it seals signing secrets on every stage), not an alarm topic's.
    expect(
      resourcesOfType(stage, 'AWS::KMS::Key')
        .map(([id]) => id)
        .filter((id) => id.includes('AlarmTopic')),
    ).toHaveLength(0);
    expect(dashboardBody(stage)).toContain('Requests per route');
    expect(stage.stack.monitoring.alarmsEnabled).toBe(false);
  });
});

describe('stage config', () => {
  it('thresholds and evaluation periods come from the stage settings', () => {
    const thresholds = {
      ...DEFAULT_ALARM_THRESHOLDS,
      api5xxRatePercent: 5,
      routeP99LatencyMs: 900,
      functionErrors: 3,
      dynamoDbSystemErrors: 7,
      evaluationPeriods: 2,
    };
    const template = Template.fromStack(
      stackWith({ monitoring: { alarms: true, alarmEmail: 'ops@acme.test', thresholds } }),
    );
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map(
      (a) => a.Properties as Record<string, any>,
    );
    const named = (suffix: string) => alarms.find((a) => String(a.AlarmName).endsWith(suffix))!;
    expect(named('-Api5xxRate').Threshold).toBe(5);
    expect(named('-AddPaymentLatencyP99').Threshold).toBe(900);
    expect(named('-InvoicesErrors').Threshold).toBe(3);
    expect(named('-TableSystemErrors').Threshold).toBe(7);
    for (const alarm of alarms) expect(alarm.EvaluationPeriods).toBe(2);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@acme.test' });
  });

  it('alarms without an email still go to the topic, with no subscription', () => {
    const template = Template.fromStack(
      stackWith({ monitoring: { alarms: true, thresholds: DEFAULT_ALARM_THRESHOLDS } }),
    );
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('-c alarmEmail=… overrides the configured address; an invalid one is refused', () => {
    const stage = synthStage('prod', { alarmEmail: 'oncall@acme.test' });
    stage.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@acme.test' });
    expect(() => withAlarmEmail(resolveStage('prod'), 'not an email')).toThrow(/Invalid alarmEmail/);
    expect(withAlarmEmail(resolveStage('dev'), undefined)).toEqual(resolveStage('dev'));
  });

  it('a stage with alarms refuses the placeholder address: prod without -c alarmEmail does not synthesise', () => {
    expect(() => withAlarmEmail(resolveStage('prod'), undefined)).toThrow(
      /Stage prod sends alarms by email: give the address with -c alarmEmail=/,
    );
  });
});

describe('other resources plug in', () => {
  it('watchMetric alarms on a metric of another construct, sends it to the topic and shows it on the dashboard; addFunction watches a new function', () => {
    const stack = stackWith({});
    stack.monitoring.watchMetric({
      id: 'SomeQueueDeadLetters',
      metric: new cloudwatch.Metric({
        namespace: 'AWS/SQS',
        metricName: 'ApproximateNumberOfMessagesVisible',
        dimensionsMap: { QueueName: 'some-dlq' },
        period: Duration.minutes(5),
      }),
      threshold: 1,
      description: 'Messages wait in some dead-letter queue',
    });
    const deliver = new lambda.Function(stack, 'DeliverWebhooks', {
      runtime: lambda.Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: lambda.Code.fromInline('exports.handler = async () => {}'),
    });
    stack.monitoring.addFunction('deliver-webhooks', deliver);

    const template = Template.fromStack(stack);
    const resources = template.toJSON().Resources as Record<string, CfnResource>;
    const [topicId] = Object.entries(resources).find(([, r]) => r.Type === 'AWS::SNS::Topic')!;
    const [deadLettersId, deadLettersAlarm] = Object.entries(resources).find(
      ([, r]) =>
        r.Properties?.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        JSON.stringify(r.Properties.Dimensions).includes('some-dlq'),
    )!;
    expect(deadLettersAlarm.Properties).toMatchObject({
      AlarmActions: [{ Ref: topicId }],
      OKActions: [{ Ref: topicId }],
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(deadLettersAlarm.Properties.AlarmName).toMatch(/-SomeQueueDeadLetters$/);
    expect(deadLettersAlarm.Properties.AlarmDescription).toContain('docs/operations.md');
    const deliverId = Object.entries(resources).find(
      ([, r]) => r.Type === 'AWS::Lambda::Function' && JSON.stringify(r).includes('exports.handler'),
    )![0];
    const deliverAlarms = Object.values(resources).filter(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' && JSON.stringify(metricOf(r.Properties).Dimensions).includes(deliverId),
    );
    expect(deliverAlarms.map((a) => metricOf(a.Properties).MetricName).sort()).toEqual(['Errors', 'Throttles']);
    for (const alarm of deliverAlarms) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }]);
    const body = JSON.stringify(
      Object.values(resources).find((r) => r.Type === 'AWS::CloudWatch::Dashboard')!.Properties.DashboardBody,
    );
    expect(body).toContain(deadLettersId); // in the alarm status widget
    expect(body).toContain('deliver-webhooks'); // in the function graphs
  });
});
