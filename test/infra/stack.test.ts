import { beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS } from '../../infra/stack.ts';
import { STAGES } from '../../infra/stages.ts';
import { apiGatewayRoutePath, routeKeys } from '../../shared/gateway-routes.ts';
import { API_FUNCTIONS, ROUTES } from '../../shared/routes.ts';
import { JOB_KIND_NAMES } from '../../shared/store/outbox.ts';
import { TABLE } from '../../shared/store/table.ts';
import {
  asArray,
  dynamoGrantsOf,
  FUNCTION_IDS,
  functionIdOf,
  logicalIdAt,
  resourceAt,
  resourcesOfType,
  type SynthesisedStage,
  synthStage,
} from './template-helpers.ts';

const EXPECTED = {
  dev: { logRetentionDays: 7, deletionPolicy: 'Delete', deletionProtection: false, logLevel: 'DEBUG' },
  prod: { logRetentionDays: 365, deletionPolicy: 'Retain', deletionProtection: true, logLevel: 'INFO' },
} as const;

describe.each(['dev', 'prod'] as const)('stage %s', (stageName) => {
  const expected = EXPECTED[stageName];
  let stage: SynthesisedStage;
  let tableId: string;

  beforeAll(() => {
    stage = synthStage(stageName);
    tableId = logicalIdAt(stage, 'Table/Resource');
  });

  it(`is the stack Invoicing-${stageName}`, () => {
    expect(stage.stack.stackName).toBe(`Invoicing-${stageName}`);
  });

  describe('table', () => {
    it('is a TableV2 (GlobalTable) with the shared keys, GSI1 (projection ALL), the sparse GSI2 (keys and company_id) and TTL, all string keys', () => {
      const table = stage.json.Resources[tableId]!;
      expect(table.Type).toBe('AWS::DynamoDB::GlobalTable');
      expect(table.Properties.KeySchema).toEqual([
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ]);
      const { listingIndex, wakeIndex } = TABLE;
      expect(table.Properties.GlobalSecondaryIndexes).toEqual([
        {
          IndexName: listingIndex.name,
          KeySchema: [
            { AttributeName: listingIndex.partitionKey, KeyType: 'HASH' },
            { AttributeName: listingIndex.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
        {
          IndexName: 'GSI2',
          KeySchema: [
            { AttributeName: 'GSI2PK', KeyType: 'HASH' },
            { AttributeName: 'GSI2SK', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['company_id'] },
        },
      ]);
      expect(table.Properties.AttributeDefinitions).toEqual(
        [
          TABLE.partitionKey,
          TABLE.sortKey,
          listingIndex.partitionKey,
          listingIndex.sortKey,
          wakeIndex.partitionKey,
          wakeIndex.sortKey,
        ].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      );
      expect(table.Properties.TimeToLiveSpecification).toEqual({ AttributeName: TABLE.ttlAttribute, Enabled: true });
    });

    it('is on-demand, encrypted with the AWS managed KMS key, and named by CloudFormation', () => {
      const table = stage.json.Resources[tableId]!;
      expect(table.Properties.BillingMode).toBe('PAY_PER_REQUEST');
      expect(table.Properties.SSESpecification).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
      expect(table.Properties).not.toHaveProperty('TableName');
    });

    // cdk-nag's DDB3 only inspects AWS::DynamoDB::Table, so point-in-time recovery is asserted here.
    it('has point-in-time recovery on', () => {
      const [replica] = stage.json.Resources[tableId]!.Properties.Replicas;
      expect(replica.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    });

    it(`has deletion protection ${expected.deletionProtection ? 'on' : 'off'} and removal policy ${expected.deletionPolicy}`, () => {
      const table = stage.json.Resources[tableId]!;
      expect(table.Properties.Replicas[0].DeletionProtectionEnabled).toBe(expected.deletionProtection);
      expect(table.DeletionPolicy).toBe(expected.deletionPolicy);
      expect(table.UpdateReplacePolicy).toBe(expected.deletionPolicy);
    });
  });

  describe('functions', () => {
    it('are exactly the three API functions, plus the outbox dispatcher and a worker per job kind (test/infra/outbox.test.ts), the wake sweep (test/infra/wake-sweep.test.ts) and the mail report handler (test/infra/mail.test.ts)', () => {
      expect(API_FUNCTIONS).toHaveLength(3);
      expect(resourcesOfType(stage, 'AWS::Lambda::Function')).toHaveLength(
        API_FUNCTIONS.length + 1 + JOB_KIND_NAMES.length + 2,
      );
    });

    it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))('%s: nodejs22.x on arm64, traced, 512 MB, 10 s', (name) => {
      const fn = resourceAt(stage, `${FUNCTION_IDS[name]}/Resource`);
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        MemorySize: 512,
        Timeout: 10,
        Handler: 'index.handler',
      });
    });

    it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))(
      '%s: exactly the documented environment (no NODE_OPTIONS)',
      (name) => {
        const fn = resourceAt(stage, `${FUNCTION_IDS[name]}/Resource`);
        expect(fn.Properties.Environment.Variables).toEqual({
          TABLE_NAME: { Ref: tableId },
          LOG_LEVEL: expected.logLevel,
          POWERTOOLS_SERVICE_NAME: 'invoicing',
          POWERTOOLS_METRICS_NAMESPACE: 'Invoicing',
          AUTH_CACHE_SECONDS: '30',
          // Seals and opens Paystack's secrets (infra/paystack.ts; the grants say which function may do what).
          PAYSTACK_KMS_KEY_ID: { Ref: logicalIdAt(stage, 'Paystack/SealingKey/Resource') },
          // The stage's own URL (hosted_url: docs/sending-invoices.md "The link").
          PUBLIC_BASE_URL: {
            'Fn::Join': ['', expect.arrayContaining(['https://', { Ref: logicalIdAt(stage, 'HttpApi/Resource') }])],
          },
        });
      },
    );

    it('PUBLIC_BASE_URL is -c publicBaseUrl when given, on every function that renders invoices', () => {
      const custom = synthStage(stageName, { publicBaseUrl: 'https://pay.example.com/' });
      for (const name of [...API_FUNCTIONS.map((fn) => fn.name), 'wakeSweep'] as const) {
        const path = name === 'wakeSweep' ? 'Overdue/SweepFunction/Resource' : `${FUNCTION_IDS[name]}/Resource`;
        expect(resourceAt(custom, path).Properties.Environment.Variables.PUBLIC_BASE_URL, name).toBe(
          'https://pay.example.com',
        );
      }
    });

    it('PAYSTACK_BASE_URL and PAYSTACK_CHECKOUT_ORIGIN are the stage settings when given', () => {
      const custom = synthStage(stageName, {
        paystackBaseUrl: 'https://paystack.example.com/api/',
        paystackCheckoutOrigin: 'https://checkout.example.com/pay',
      });
      const variables = resourceAt(custom, `${FUNCTION_IDS.invoices}/Resource`).Properties.Environment.Variables;
      expect([variables.PAYSTACK_BASE_URL, variables.PAYSTACK_CHECKOUT_ORIGIN]).toEqual([
        'https://paystack.example.com/api',
        'https://checkout.example.com',
      ]);
    });

    it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))(
      `%s: logs to its own log group kept ${expected.logRetentionDays} days`,
      (name) => {
        const fn = resourceAt(stage, `${FUNCTION_IDS[name]}/Resource`);
        const logGroupId = logicalIdAt(stage, `${FUNCTION_IDS[name].replace('Function', 'Logs')}/Resource`);
        expect(fn.Properties.LoggingConfig).toEqual({ LogGroup: { Ref: logGroupId } });
        const logGroup = stage.json.Resources[logGroupId]!;
        expect(logGroup.Properties.RetentionInDays).toBe(expected.logRetentionDays);
        expect(logGroup.DeletionPolicy).toBe(expected.deletionPolicy);
      },
    );
  });

  describe('least privilege', () => {
    // Which actions each role gets is checked against what the handler really calls: test/infra/iam-actions.test.ts.
    it.each(API_FUNCTIONS.map((fn) => [fn.name] as const))(
      '%s: DynamoDB access only on the table and GSI1, no inline policy',
      (name) => {
        const role = resourceAt(stage, `${FUNCTION_IDS[name]}/ServiceRole/Resource`);
        expect(role.Properties.Policies ?? []).toEqual([]);
        const grants = dynamoGrantsOf(stage, FUNCTION_IDS[name], tableId);
        expect(grants.other).toEqual([]);
        expect(grants.table.length).toBeGreaterThan(0);
        expect(Object.keys(grants.indexes).every((index) => index === TABLE.listingIndex.name)).toBe(true);
      },
    );

    it('has no wildcard action anywhere, and only the X-Ray statement on Resource *', () => {
      const statements = resourcesOfType(stage, 'AWS::IAM::Policy').flatMap(
        ([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[],
      );
      for (const statement of statements) {
        for (const action of asArray(statement.Action as string | string[])) expect(action).not.toContain('*');
        if (statement.Resource === '*')
          expect(asArray(statement.Action).sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
      }
    });

    it('attaches no managed policy other than Lambda basic execution', () => {
      for (const [, role] of resourcesOfType(stage, 'AWS::IAM::Role')) {
        expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toMatch(
          /^\[\{"Fn::Join":\["",\["arn:",\{"Ref":"AWS::Partition"\},":iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole"\]\]\}\]$/,
        );
      }
    });
  });

  describe('HTTP API', () => {
    it('has exactly the routes of the route table', () => {
      const synthesised = resourcesOfType(stage, 'AWS::ApiGatewayV2::Route').map(
        ([, route]) => route.Properties.RouteKey,
      );
      expect(synthesised.sort()).toEqual(
        ROUTES.flatMap((route) =>
          routeKeys(route).map((key) => `${key.method} ${apiGatewayRoutePath(key.path)}`),
        ).sort(),
      );
    });

    // HTTP APIs match paths exactly, refuse route paths ending in "/" and pass a GET body through: the trailing-slash
    // twin is a greedy child route (the handler 404s a non-empty child), and pypayant's GET needs its own routes.
    it('declares the trailing-slash twin of every route and GET /payments/history (with and without the slash)', () => {
      const synthesised = resourcesOfType(stage, 'AWS::ApiGatewayV2::Route').map(
        ([, route]) => route.Properties.RouteKey,
      );
      expect(synthesised.sort()).toEqual(
        [
          'POST /invoices',
          'POST /invoices/{proxy+}',
          'GET /invoices/{reference_code}',
          'GET /invoices/{reference_code}/{proxy+}',
          'DELETE /invoices/{reference_code}',
          'DELETE /invoices/{reference_code}/{proxy+}',
          'GET /invoices/send/{reference_code}',
          'GET /invoices/send/{reference_code}/{proxy+}',
          'POST /invoices/{reference_code}/send',
          'POST /invoices/{reference_code}/send/{proxy+}',
          'POST /invoices/{reference_code}/reminders',
          'POST /invoices/{reference_code}/reminders/{proxy+}',
          'POST /invoices/{reference_code}/credit-notes',
          'POST /invoices/{reference_code}/credit-notes/{proxy+}',
          'GET /invoices/{reference_code}/pdf',
          'GET /invoices/{reference_code}/pdf/{proxy+}',
          'GET /invoices/{reference_code}/ubl',
          'GET /invoices/{reference_code}/ubl/{proxy+}',
          'GET /invoices/{reference_code}/credit-notes/{number}/ubl',
          'GET /invoices/{reference_code}/credit-notes/{number}/ubl/{proxy+}',
          'GET /invoices/{reference_code}/credit-notes/{number}/pdf',
          'GET /invoices/{reference_code}/credit-notes/{number}/pdf/{proxy+}',
          'GET /i/{token}',
          'GET /i/{token}/{proxy+}',
          'GET /i/{token}/pdf',
          'GET /i/{token}/pdf/{proxy+}',
          'POST /i/{token}/pay',
          'POST /i/{token}/pay/{proxy+}',
          'GET /i/{token}/paid',
          'GET /i/{token}/paid/{proxy+}',
          'POST /paystack/events/{hook_id}',
          'POST /paystack/events/{hook_id}/{proxy+}',
          'POST /recurring-invoices',
          'POST /recurring-invoices/{proxy+}',
          'GET /recurring-invoices',
          'GET /recurring-invoices/{proxy+}',
          'GET /recurring-invoices/{id}',
          'GET /recurring-invoices/{id}/{proxy+}',
          'POST /recurring-invoices/{id}/pause',
          'POST /recurring-invoices/{id}/pause/{proxy+}',
          'POST /recurring-invoices/{id}/resume',
          'POST /recurring-invoices/{id}/resume/{proxy+}',
          'POST /recurring-invoices/{id}/cancel',
          'POST /recurring-invoices/{id}/cancel/{proxy+}',
          'POST /clients',
          'POST /clients/{proxy+}',
          'GET /clients',
          'GET /clients/{proxy+}',
          'GET /clients/{id}',
          'GET /clients/{id}/{proxy+}',
          'PUT /clients/{id}',
          'PUT /clients/{id}/{proxy+}',
          'DELETE /clients/{id}',
          'DELETE /clients/{id}/{proxy+}',
          'DELETE /clients/{id}/cards/{card_token}',
          'DELETE /clients/{id}/cards/{card_token}/{proxy+}',
          'POST /clients/{id}/statement/send',
          'POST /clients/{id}/statement/send/{proxy+}',
          'POST /clients/{id}/virtual-account',
          'POST /clients/{id}/virtual-account/{proxy+}',
          'POST /clients/{id}/credit/refund',
          'POST /clients/{id}/credit/refund/{proxy+}',
          'POST /payments',
          'POST /payments/{proxy+}',
          'GET /payments/{reference_code}',
          'GET /payments/{reference_code}/{proxy+}',
          'POST /payments/{reference_code}/reversal',
          'POST /payments/{reference_code}/reversal/{proxy+}',
          'POST /payments/history',
          'POST /payments/history/{proxy+}',
          'GET /payments/history',
          'GET /payments/history/{proxy+}',
          'POST /invoices/history',
          'POST /invoices/history/{proxy+}',
          'GET /invoices/history',
          'GET /invoices/history/{proxy+}',
          'POST /reports/aging',
          'POST /reports/aging/{proxy+}',
          'POST /reports/tax',
          'POST /reports/tax/{proxy+}',
          'POST /clients/{id}/statement',
          'POST /clients/{id}/statement/{proxy+}',
        ].sort(),
      );
    });

    it.each(
      ROUTES.flatMap((route) =>
        routeKeys(route).map((key) => [`${key.method} ${apiGatewayRoutePath(key.path)}`, route.name] as const),
      ),
    )('%s → %s function, Lambda proxy payload 2.0', (routeKey, name) => {
      const apiRoute = resourcesOfType(stage, 'AWS::ApiGatewayV2::Route').find(
        ([, candidate]) => candidate.Properties.RouteKey === routeKey,
      );
      const target = JSON.stringify(apiRoute?.[1].Properties.Target);
      const integration = resourcesOfType(stage, 'AWS::ApiGatewayV2::Integration').find(([id]) =>
        target.includes(`"${id}"`),
      );
      expect(integration?.[1].Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [logicalIdAt(stage, `${functionIdOf(name)}/Resource`), 'Arn'] },
      });
    });

    it('has one $default stage, auto-deployed, throttled per stage settings', () => {
      const stages = resourcesOfType(stage, 'AWS::ApiGatewayV2::Stage');
      expect(stages).toHaveLength(1);
      const [, apiStage] = stages[0]!;
      expect(apiStage.Properties).toMatchObject({
        StageName: '$default',
        AutoDeploy: true,
        DefaultRouteSettings: {
          ThrottlingRateLimit: STAGES[stageName].throttling.rateLimit,
          ThrottlingBurstLimit: STAGES[stageName].throttling.burstLimit,
        },
      });
    });

    it('writes JSON access logs with the agreed fields and never a header such as Authorization', () => {
      const [, apiStage] = resourcesOfType(stage, 'AWS::ApiGatewayV2::Stage')[0]!;
      const logGroupId = logicalIdAt(stage, 'ApiAccessLogs/Resource');
      const { DestinationArn, Format } = apiStage.Properties.AccessLogSettings;
      expect(DestinationArn).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
      expect(Object.keys(JSON.parse(Format))).toEqual([
        'requestId',
        'ip',
        'requestTime',
        'httpMethod',
        'routeKey',
        'status',
        'protocol',
        'responseLength',
        'integrationLatency',
      ]);
      expect(JSON.parse(Format)).toEqual(ACCESS_LOG_FIELDS);
      expect(Format).not.toMatch(/authorization|header/i);
      expect(stage.json.Resources[logGroupId]!.Properties.RetentionInDays).toBe(expected.logRetentionDays);
    });
  });

  it('outputs the API URL and the table name', () => {
    const apiId = logicalIdAt(stage, 'HttpApi/Resource');
    expect(stage.json.Outputs.ApiUrl.Value).toEqual({
      'Fn::Join': [
        '',
        ['https://', { Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }, '/'],
      ],
    });
    expect(stage.json.Outputs.TableName.Value).toEqual({ Ref: tableId });
  });
});
