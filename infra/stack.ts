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
import { apiGatewayRoutePath, routeKeys } from '../shared/gateway-routes.ts';
import {
  API_FUNCTIONS,
  type ApiFunctionDefinition,
  type ApiFunctionName,
  answersXml,
  mayAnswerPdf,
  ROUTES,
} from '../shared/routes.ts';
import { JOB_KINDS, type JobKind } from '../shared/store/outbox.ts';
import { TABLE } from '../shared/store/table.ts';
import { InvoiceMail } from './mail.ts';
import { Monitoring } from './monitoring.ts';
import { Outbox } from './outbox.ts';
import { PaystackSecrets } from './paystack.ts';
import { paystackWatchedMetrics } from './paystack-alarms.ts';
import { acknowledgeFunctionFindings, serviceFunction } from './service-function.ts';
import type { Stage } from './stages.ts';
import { WakeSweep } from './wake-sweep.ts';
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

type StageSettings = Stage['settings'];

/** What a background (stream-, queue- or schedule-fed) part of the stack is built with. */
interface BackgroundProps {
  table: dynamodb.TableV2;
  environment: Record<string, string>;
  logRetention: StageSettings['logRetention'];
  removalPolicy: RemovalPolicy;
}

export class InvoicingStack extends Stack {
  readonly table: dynamodb.TableV2;
  readonly functions: ReadonlyMap<ApiFunctionName, NodejsFunction>;
  readonly api: HttpApi;
  /** The base of invoices' `hosted_url`: the stage setting `publicBaseUrl`, or the API's own URL. */
  private readonly publicBaseUrl: string;
  /** Alarms and dashboard; other resources add theirs with `monitoring.addAlarms(...)` / `addFunction(...)`. */
  readonly monitoring: Monitoring;
  readonly webhooks: WebhookDelivery;
  readonly wakeSweep: WakeSweep;
  readonly mail: InvoiceMail;
  /** The one dispatcher and every job kind's worker (the webhook and mail workers are in their kinds' constructs). */
  readonly outbox: Outbox;
  readonly paystackSecrets: PaystackSecrets;

  constructor(scope: Construct, id: string, props: InvoicingStackProps) {
    super(scope, id, props);
    const { settings } = props.stage;
    const removalPolicy = settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.table = this.createTable(settings, removalPolicy);
    this.api = new HttpApi(this, 'HttpApi', {
      description: `Invoicing and payments API (${props.stage.name})`,
      // The default stage is created below, so it can carry throttling and access logs.
      createDefaultStage: false,
    });
    const apiStage = this.createApiStage(settings, removalPolicy);
    // Invoices' hosted_url start with it (docs/sending-invoices.md "The link"): the stage's own URL unless set.
    this.publicBaseUrl = settings.publicBaseUrl ?? apiStage.url;
    this.paystackSecrets = new PaystackSecrets(this, 'Paystack', { removalPolicy });
    const { functions, apiRoutes } = this.createApiFunctions(settings, removalPolicy);
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
    const background = {
      table: this.table,
      environment: this.functionEnvironment(settings),
      removalPolicy,
      logRetention: settings.logRetention,
    };
    this.webhooks = new WebhookDelivery(this, 'Webhooks', background);
    this.wakeSweep = this.addWakeSweep(background, settings.mailFrom);
    this.mail = this.addInvoiceMail(background, settings.mailFrom);
    this.outbox = this.addOutbox({ ...background, mailFrom: settings.mailFrom });

    new CfnOutput(this, 'ApiUrl', { value: apiStage.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', {
      value: this.table.tableName,
      description: 'DynamoDB table; pass it as TABLE_NAME to the account CLI',
    });
    this.acknowledgeNagFindings(apiRoutes);
  }

  /** The single table (shared/store/table.ts): its keys, the two indexes, TTL and stream, as the local runtime has it. */
  private createTable(settings: StageSettings, removalPolicy: RemovalPolicy): dynamodb.TableV2 {
    const index = (definition: { name: string; partitionKey: string; sortKey: string }) => ({
      indexName: definition.name,
      partitionKey: { name: definition.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: definition.sortKey, type: dynamodb.AttributeType.STRING },
    });
    return new dynamodb.TableV2(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: dynamodb.AttributeType.STRING },
      globalSecondaryIndexes: [
        { ...index(TABLE.listingIndex), projectionType: dynamodb.ProjectionType.ALL },
        {
          ...index(TABLE.wakeIndex),
          projectionType: dynamodb.ProjectionType.INCLUDE,
          nonKeyAttributes: [...TABLE.wakeIndex.nonKeyAttributes],
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
  }

  /** The API's default stage: throttling, route-level metrics and access logs. */
  private createApiStage(settings: StageSettings, removalPolicy: RemovalPolicy): HttpStage {
    const accessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: settings.logRetention, removalPolicy });
    return new HttpStage(this, 'HttpApiDefaultStage', {
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
  }

  /** One function per entry of the route table, with its least-privilege policy, integration and routes. */
  private createApiFunctions(settings: StageSettings, removalPolicy: RemovalPolicy) {
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
          ...this.functionEnvironment(settings),
          AUTH_CACHE_SECONDS,
          // The send routes answer 501 without it (docs/deploying.md "E-mail").
          ...(settings.mailFrom ? { MAIL_FROM: settings.mailFrom } : {}),
        },
        rendersPdf: definition.routes.some(mayAnswerPdf),
        rendersUbl: definition.routes.some(answersXml),
      });
      this.grantDataAccess(fn, definition);
      if (definition.paystackSecrets) this.paystackSecrets.allow(fn, definition.paystackSecrets, 'Api');
      // One integration per function; one route per method + path of each of its routes (with and without a
      // trailing slash: HTTP APIs match paths exactly). The function's router dispatches (shared/http/api-function.ts).
      const integration = new HttpLambdaIntegration(`${id}Integration`, fn);
      for (const key of definition.routes.flatMap(routeKeys)) {
        const path = apiGatewayRoutePath(key.path);
        apiRoutes.push(...this.api.addRoutes({ path, methods: [HttpMethod[key.method]], integration }));
      }
      functions.set(definition.name, fn);
    }
    return { functions, apiRoutes };
  }

  /**
   * What every function of the stack is given: its table, log level, Powertools names, the invoices' base URL and,
   * when the stage names them, Paystack's API and checkout.
   */
  private functionEnvironment(settings: StageSettings): Record<string, string> {
    return {
      TABLE_NAME: this.table.tableName,
      LOG_LEVEL: settings.logLevel,
      POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
      PUBLIC_BASE_URL: this.publicBaseUrl,
      PAYSTACK_KMS_KEY_ID: this.paystackSecrets.key.keyId,
      ...(settings.paystackBaseUrl ? { PAYSTACK_BASE_URL: settings.paystackBaseUrl } : {}),
      ...(settings.paystackCheckoutOrigin ? { PAYSTACK_CHECKOUT_ORIGIN: settings.paystackCheckoutOrigin } : {}),
    };
  }

  /**
   * The outbox (infra/outbox.ts): its dispatcher and each kind's worker, watched like the API (errors, throttles),
   * with their dead letters and the stream's lag.
   */
  private addOutbox(props: BackgroundProps & { mailFrom: string | undefined }): Outbox {
    const outbox = new Outbox(this, 'Outbox', {
      ...props,
      workers: { webhook: this.webhooks.worker, mail: this.mail.worker },
    });
    this.monitoring.addFunction('outbox-dispatch', outbox.dispatchFunction);
    for (const worker of Object.values(outbox.workers)) {
      this.monitoring.addFunction(worker.name, worker.workerFunction);
      const uses: JobKind['worker'] = JOB_KINDS[worker.kind].worker;
      this.paystackSecrets.allow(worker.workerFunction, uses, pascalCase(worker.kind));
    }
    for (const watched of outbox.watchedMetrics) this.monitoring.watchMetric(watched);
    const metrics = { metricsNamespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME };
    for (const watched of paystackWatchedMetrics(metrics)) this.monitoring.watchMetric(watched);
    return outbox;
  }

  /**
   * The wake sweep (docs/operations.md "Overdue sweep"): scheduled; its errors and throttles are alarmed. It knows the
   * stage's sender: without one it records no reminder (docs/receivables.md "Reminders"). Its construct id is the one
   * it had as the overdue sweep, so its function and log group keep theirs.
   */
  private addWakeSweep(props: BackgroundProps, mailFrom: string | undefined): WakeSweep {
    const sweep = new WakeSweep(this, 'Overdue', { ...props, mailFrom });
    this.monitoring.addFunction('wake-sweep', sweep.sweepFunction);
    return sweep;
  }

  /** Invoice e-mail (docs/sending-invoices.md): its worker (watched with the outbox's) and SES's reports. */
  private addInvoiceMail(props: BackgroundProps, mailFrom: string | undefined): InvoiceMail {
    const mail = new InvoiceMail(this, 'Mail', {
      ...props,
      mailFrom,
      metricsNamespace: METRICS_NAMESPACE,
      serviceName: SERVICE_NAME,
    });
    this.monitoring.addFunction('mail-events', mail.eventsFunction);
    for (const watched of mail.watchedMetrics) this.monitoring.watchMetric(watched);
    return mail;
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
          resources: [`${this.table.tableArn}/index/${TABLE.listingIndex.name}`],
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
    for (const fn of this.functions.values())
      acknowledgeFunctionFindings(fn, 'data access, per route,', 'test/infra/stack.test.ts');
  }
}

function pascalCase(kebab: string): string {
  return kebab.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
}
