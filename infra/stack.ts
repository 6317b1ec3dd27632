/**
 * One stage of the service: the table, one function + route + least-privilege policy per entry of
 * the shared route table, and the HTTP API in front of them.
 */

import { CfnOutput, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, type HttpRoute, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import {
  API_FUNCTIONS,
  type ApiFunctionDefinition,
  type ApiFunctionName,
  apiGatewayRoutePath,
  ROUTES,
  routeKeys,
} from '../shared/routes.ts';
import { TABLE } from '../shared/store/table.ts';
import { InvoiceMail } from './mail.ts';
import { Monitoring } from './monitoring.ts';
import { OverdueSweep } from './overdue.ts';
import { serviceFunction } from './service-function.ts';
import type { Stage } from './stages.ts';
import { WebhookDelivery } from './webhooks.ts';

export { REPO_ROOT } from './service-function.ts';

export const SERVICE_NAME = 'invoicing';
export const METRICS_NAMESPACE = 'Invoicing';
/** Seconds an authenticated key stays cached in a warm function (revocation takes effect within 60 s). */
export const AUTH_CACHE_SECONDS = '30';

/** Fields of each API access log line; deliberately no headers, so no Authorization value is ever logged. */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  integrationLatency: '$context.integrationLatency',
} as const;

export interface InvoicingStackProps extends StackProps {
  stage: Stage;
}

export class InvoicingStack extends Stack {
  readonly table: dynamodb.TableV2;
  readonly functions: ReadonlyMap<ApiFunctionName, NodejsFunction>;
  readonly api: HttpApi;
  /** Alarms and dashboard; other resources add theirs with `monitoring.addAlarms(...)` / `addFunction(...)`. */
  readonly monitoring: Monitoring;
  readonly webhooks: WebhookDelivery;
  readonly overdue: OverdueSweep;
  readonly mail: InvoiceMail;

  constructor(scope: Construct, id: string, props: InvoicingStackProps) {
    super(scope, id, props);
    const { settings } = props.stage;
    const removalPolicy = settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      globalSecondaryIndexes: [
        {
          indexName: TABLE.paymentsIndex.name,
          partitionKey: { name: TABLE.paymentsIndex.partitionKey, type: dynamodb.AttributeType.STRING },
          sortKey: { name: TABLE.paymentsIndex.sortKey, type: dynamodb.AttributeType.STRING },
          projectionType: dynamodb.ProjectionType.ALL,
        },
        {
          indexName: TABLE.overdueIndex.name,
          partitionKey: { name: TABLE.overdueIndex.partitionKey, type: dynamodb.AttributeType.STRING },
          sortKey: { name: TABLE.overdueIndex.sortKey, type: dynamodb.AttributeType.STRING },
          projectionType: dynamodb.ProjectionType.INCLUDE,
          nonKeyAttributes: [...TABLE.overdueIndex.nonKeyAttributes],
        },
      ],
      timeToLiveAttribute: TABLE.ttlAttribute,
      dynamoStream: dynamodb.StreamViewType[TABLE.streamViewType],
      billing: dynamodb.Billing.onDemand(),
      encryption: dynamodb.TableEncryptionV2.awsManagedKey(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: settings.pointInTimeRecovery },
      deletionProtection: settings.deletionProtection,
      removalPolicy,
    });

    this.api = new HttpApi(this, 'HttpApi', {
      description: `Invoicing and payments API (${props.stage.name})`,
      // The default stage is created below, so it can carry throttling and access logs.
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: settings.logRetention, removalPolicy });
    const apiStage = new HttpStage(this, 'HttpApiDefaultStage', {
      httpApi: this.api,
      autoDeploy: true,
      throttle: settings.throttling,
      // Route-level metrics (requests, errors, latency per route) for the alarms and dashboard.
      detailedMetricsEnabled: true,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    // Invoices' hosted_url start with it (docs/sending-invoices.md "The link"): the stage's own URL unless set.
    const publicBaseUrl = settings.publicBaseUrl ?? apiStage.url;
    const functions = new Map<ApiFunctionName, NodejsFunction>();
    const apiRoutes: HttpRoute[] = [];
    for (const definition of API_FUNCTIONS) {
      const id = pascalCase(definition.name);
      const fn = serviceFunction(this, id, {
        // Route names, not method + path: Lambda allows 256 characters, and the invoice function has many routes.
        description: `The ${definition.name} API: ${definition.routes.map((r) => r.name).join(', ')}`.slice(0, 256),
        entry: definition.entry,
        logRetention: settings.logRetention,
        removalPolicy,
        environment: {
          TABLE_NAME: this.table.tableName,
          LOG_LEVEL: settings.logLevel,
          POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
          POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
          AUTH_CACHE_SECONDS,
          // The send routes answer 501 without it (docs/deploying.md "E-mail").
          ...(settings.mailFrom ? { MAIL_FROM: settings.mailFrom } : {}),
          PUBLIC_BASE_URL: publicBaseUrl,
        },
        rendersPdf: definition.routes.some((route) => route.answers === 'pdf'),
      });
      this.grantDataAccess(fn, definition);
      // One integration per function; one route per method + path of each of its routes (with and without a
      // trailing slash: HTTP APIs match paths exactly). The function's router dispatches (shared/http/api-function.ts).
      const integration = new HttpLambdaIntegration(`${id}Integration`, fn);
      for (const route of definition.routes) {
        for (const key of routeKeys(route)) {
          apiRoutes.push(
            ...this.api.addRoutes({
              path: apiGatewayRoutePath(key.path),
              methods: [HttpMethod[key.method]],
              integration,
            }),
          );
        }
      }
      functions.set(definition.name, fn);
    }
    this.functions = functions;

    this.monitoring = new Monitoring(this, 'Monitoring', {
      stageName: props.stage.name,
      settings: settings.monitoring,
      api: this.api,
      apiStageName: apiStage.stageName,
      routes: ROUTES,
      functions,
      table: this.table,
      metricsNamespace: METRICS_NAMESPACE,
      serviceName: SERVICE_NAME,
      removalPolicy,
    });

    const environment = {
      TABLE_NAME: this.table.tableName,
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      PUBLIC_BASE_URL: publicBaseUrl,
    };
    this.webhooks = new WebhookDelivery(this, 'Webhooks', {
      table: this.table,
      environment,
      logRetention: settings.logRetention,
      removalPolicy,
    });
    // Webhook delivery is watched like the API: its functions' errors and throttles, dead letters, iterator age.
    this.monitoring.addFunction('webhook-dispatch', this.webhooks.dispatchFunction);
    this.monitoring.addFunction('webhook-deliver', this.webhooks.deliverFunction);
    for (const watched of this.webhooks.watchedMetrics) this.monitoring.watchMetric(watched);
    // The overdue sweep (SPEC §14): scheduled; its errors (a failed or timed-out run) and throttles are alarmed.
    this.overdue = new OverdueSweep(this, 'Overdue', {
      table: this.table,
      environment,
      logRetention: settings.logRetention,
      removalPolicy,
    });
    this.monitoring.addFunction('overdue-sweep', this.overdue.sweepFunction);
    // Invoice e-mail (docs/sending-invoices.md): dispatcher, mailer and SES reports, each watched like the others.
    this.mail = new InvoiceMail(this, 'Mail', {
      table: this.table,
      environment,
      logRetention: settings.logRetention,
      removalPolicy,
      mailFrom: settings.mailFrom,
      metricsNamespace: METRICS_NAMESPACE,
      serviceName: SERVICE_NAME,
    });
    this.monitoring.addFunction('mail-dispatch', this.mail.dispatchFunction);
    this.monitoring.addFunction('mailer', this.mail.mailerFunction);
    this.monitoring.addFunction('mail-events', this.mail.eventsFunction);
    for (const watched of this.mail.watchedMetrics) this.monitoring.watchMetric(watched);

    new CfnOutput(this, 'ApiUrl', { value: apiStage.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', {
      value: this.table.tableName,
      description: 'DynamoDB table; pass it as TABLE_NAME to the account CLI',
    });

    this.acknowledgeNagFindings(apiRoutes);
  }

  /** Exactly the function's declared actions: on the table, and on the index only if it queries it. */
  private grantDataAccess(fn: NodejsFunction, route: ApiFunctionDefinition) {
    fn.addToRolePolicy(
      new iam.PolicyStatement({
        sid: 'TableAccess',
        actions: [...route.tableActions],
        resources: [this.table.tableArn],
      }),
    );
    if (route.indexActions.length > 0) {
      fn.addToRolePolicy(
        new iam.PolicyStatement({
          sid: 'IndexAccess',
          actions: [...route.indexActions],
          resources: [`${this.table.tableArn}/index/${TABLE.paymentsIndex.name}`],
        }),
      );
    }
  }

  /** Every AwsSolutions finding this stack accepts, with the reason; anything else fails synth. */
  private acknowledgeNagFindings(apiRoutes: readonly HttpRoute[]) {
    for (const route of apiRoutes) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Callers authenticate with a per-account secret key (Authorization: Bearer sk_...) that the handler verifies ' +
          'against the table (cached AUTH_CACHE_SECONDS); API Gateway has no authoriser for an opaque key stored in DynamoDB.',
      });
    }
    for (const fn of this.functions.values()) {
      Validations.of(fn).acknowledge(
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason:
            'AWSLambdaBasicExecutionRole only allows writing CloudWatch logs (CreateLogGroup/CreateLogStream/PutLogEvents); ' +
            'data access is granted separately, per route, by inline statements.',
        },
        {
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason:
            'Only the X-Ray statement (xray:PutTraceSegments, xray:PutTelemetryRecords) uses Resource *: ' +
            'X-Ray does not support resource-level permissions. DynamoDB statements name the table and index ARNs (asserted in tests).',
        },
        {
          id: 'AwsSolutions-L1',
          reason:
            'The runtime is pinned to nodejs22.x on purpose: the bundles target node22, and a runtime upgrade is a ' +
            'deliberate, tested change rather than a side effect of a CDK upgrade.',
        },
      );
    }
  }
}

function pascalCase(kebab: string): string {
  return kebab.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
}
