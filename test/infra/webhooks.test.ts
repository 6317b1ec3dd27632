/** CDK assertions for webhook delivery (infra/webhooks.ts): stream, filter, queues, functions, IAM, key, alarms. */

import type { CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DELIVER_TIMEOUT,
  DELIVERY_ATTEMPTS,
  DISPATCH_RETRY_ATTEMPTS,
  MAX_RECEIVE_COUNT,
} from '../../infra/webhooks.ts';
import { streamFilterOf } from '../../shared/store/outbox.ts';
import { TABLE } from '../../shared/store/table.ts';

const STREAM_FILTER_PATTERN = streamFilterOf(['webhook']);

import { asArray, type CfnResource, resourcesOfType, type SynthesisedStage, synthStage } from './template-helpers.ts';

describe.each(['dev', 'prod'] as const)('webhook delivery on stage %s', (stageName) => {
  let stage: SynthesisedStage;
  const idOf = (construct: IConstruct) => stage.stack.getLogicalId(construct.node.defaultChild as CfnElement);
  const resource = (construct: IConstruct): CfnResource => stage.json.Resources[idOf(construct)]!;
  const getAtt = (construct: IConstruct, attribute: string) => ({ 'Fn::GetAtt': [idOf(construct), attribute] });
  const statementsOf = (fn: IConstruct & { role?: IConstruct }) => {
    const roleId = stage.stack.getLogicalId(fn.role!.node.defaultChild as CfnElement);
    return resourcesOfType(stage, 'AWS::IAM::Policy')
      .filter(([, policy]) => asArray(policy.Properties.Roles).some((role: any) => role.Ref === roleId))
      .flatMap(([, policy]) => policy.Properties.PolicyDocument.Statement as Record<string, any>[])
      .map(({ Action, Resource }) => ({
        actions: asArray(Action as string | string[]).sort(),
        resources: asArray(Resource),
      }));
  };
  const mappingOf = (fn: IConstruct) =>
    resourcesOfType(stage, 'AWS::Lambda::EventSourceMapping').filter(
      ([, mapping]) => mapping.Properties.FunctionName.Ref === idOf(fn),
    );

  beforeAll(() => {
    stage = synthStage(stageName);
  });

  it('turns on the table stream with new images, from the shared table definition', () => {
    expect(TABLE.streamViewType).toBe('NEW_IMAGE');
    expect(resource(stage.stack.table).Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
  });

  it('feeds the dispatcher from the stream, filtered to outbox INSERTs, with partial failures, bisection and an on-failure queue', () => {
    const { webhooks } = stage.stack;
    const mappings = mappingOf(webhooks.dispatchFunction);
    expect(mappings).toHaveLength(1);
    expect(mappings[0]![1].Properties).toEqual({
      FunctionName: { Ref: idOf(webhooks.dispatchFunction) },
      EventSourceArn: getAtt(stage.stack.table, 'StreamArn'),
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(STREAM_FILTER_PATTERN) }] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: DISPATCH_RETRY_ATTEMPTS,
      DestinationConfig: { OnFailure: { Destination: getAtt(webhooks.dispatchFailures, 'Arn') } },
    });
    expect(JSON.parse(JSON.stringify(STREAM_FILTER_PATTERN))).toEqual({
      eventName: ['INSERT'],
      dynamodb: { NewImage: { entity: { S: ['webhook_event', 'webhook_resend'] } } },
    });
  });

  it('feeds the deliverer from the queue in batches of 10 with partial failures, at most 10 invocations at once', () => {
    const { webhooks } = stage.stack;
    const mappings = mappingOf(webhooks.deliverFunction);
    expect(mappings).toHaveLength(1);
    expect(mappings[0]![1].Properties).toEqual({
      FunctionName: { Ref: idOf(webhooks.deliverFunction) },
      EventSourceArn: getAtt(webhooks.queue, 'Arn'),
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      // docs/webhooks.md "Decisions": at most 10 deliverers at once, so retries cannot take the API's concurrency.
      ScalingConfig: { MaximumConcurrency: 10 },
    });
  });

  it('has an encrypted delivery queue whose visibility covers six deliverer timeouts and whose DLQ comes after every attempt', () => {
    const { webhooks } = stage.stack;
    const queue = resource(webhooks.queue).Properties;
    expect(queue.SqsManagedSseEnabled).toBe(true);
    expect(queue.VisibilityTimeout).toBe(6 * DELIVER_TIMEOUT.toSeconds());
    expect(MAX_RECEIVE_COUNT).toBeGreaterThan(DELIVERY_ATTEMPTS);
    expect(queue.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(webhooks.deadLetterQueue, 'Arn'),
      maxReceiveCount: MAX_RECEIVE_COUNT,
    });
    // Retries wait in the queue: it must keep a message for the whole schedule (about 28 h).
    expect(queue.MessageRetentionPeriod).toBeGreaterThan(28 * 3600);
    for (const dlq of [webhooks.deadLetterQueue, webhooks.dispatchFailures]) {
      expect(resource(dlq).Properties).toMatchObject({
        SqsManagedSseEnabled: true,
        MessageRetentionPeriod: 14 * 24 * 3600,
      });
    }
  });

  it('denies every non-TLS request on all three queues', () => {
    const { webhooks } = stage.stack;
    const policies = resourcesOfType(stage, 'AWS::SQS::QueuePolicy');
    for (const queue of [webhooks.queue, webhooks.deadLetterQueue, webhooks.dispatchFailures]) {
      const policy = policies.find(([, candidate]) =>
        candidate.Properties.Queues.some((ref: any) => ref.Ref === idOf(queue)),
      );
      expect(policy, queue.node.path).toBeDefined();
      expect(policy![1].Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('builds both functions like the API functions (nodejs22.x, arm64, 512 MB, traced); the deliverer gets 30 s for a batch of 10', () => {
    const { webhooks } = stage.stack;
    for (const [fn, timeout] of [
      [webhooks.dispatchFunction, 10],
      [webhooks.deliverFunction, DELIVER_TIMEOUT.toSeconds()],
    ] as const) {
      expect(resource(fn).Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        TracingConfig: { Mode: 'Active' },
        Timeout: timeout,
        Handler: 'index.handler',
      });
    }
  });

  it('gives the functions the queue URL and the deliverer the KMS key id; never the loopback switch', () => {
    const { webhooks } = stage.stack;
    const dispatchEnv = resource(webhooks.dispatchFunction).Properties.Environment.Variables;
    const deliverEnv = resource(webhooks.deliverFunction).Properties.Environment.Variables;
    expect(dispatchEnv.DELIVERY_QUEUE_URL).toEqual({ Ref: idOf(webhooks.queue) });
    expect(deliverEnv).toMatchObject({
      DELIVERY_QUEUE_URL: { Ref: idOf(webhooks.queue) },
      WEBHOOK_KMS_KEY_ID: { Ref: idOf(webhooks.signingSecretKey) },
      TABLE_NAME: { Ref: idOf(stage.stack.table) },
    });
    for (const env of [dispatchEnv, deliverEnv]) {
      expect(env).not.toHaveProperty('WEBHOOK_ALLOW_LOOPBACK');
      expect(env).not.toHaveProperty('WEBHOOK_RETRY_BASE_MS');
    }
  });

  it('grants the dispatcher only stream reads and sends to its two queues (no table access)', () => {
    const { webhooks } = stage.stack;
    expect(statementsOf(webhooks.dispatchFunction)).toEqual([
      { actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], resources: ['*'] },
      {
        actions: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
        resources: [getAtt(webhooks.queue, 'Arn'), getAtt(webhooks.dispatchFailures, 'Arn')],
      },
      {
        actions: [
          'dynamodb:DescribeStream',
          'dynamodb:GetRecords',
          'dynamodb:GetShardIterator',
          'dynamodb:ListStreams',
        ],
        resources: [getAtt(stage.stack.table, 'StreamArn')],
      },
    ]);
  });

  it('grants the deliverer only queue consumption, GetItem/UpdateItem on the table and kms:Decrypt on its key', () => {
    const { webhooks } = stage.stack;
    expect(statementsOf(webhooks.deliverFunction)).toEqual([
      { actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], resources: ['*'] },
      {
        actions: [
          'sqs:ChangeMessageVisibility',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
          'sqs:GetQueueUrl',
          'sqs:ReceiveMessage',
        ],
        resources: [getAtt(webhooks.queue, 'Arn')],
      },
      { actions: ['dynamodb:GetItem', 'dynamodb:UpdateItem'], resources: [getAtt(stage.stack.table, 'Arn')] },
      { actions: ['kms:Decrypt'], resources: [getAtt(webhooks.signingSecretKey, 'Arn')] },
    ]);
  });

  it('creates the sealing key with rotation and outputs its id for the CLI', () => {
    const { webhooks } = stage.stack;
    expect(resource(webhooks.signingSecretKey).Properties.EnableKeyRotation).toBe(true);
    const output = Object.entries(stage.json.Outputs).find(([id]) => id.includes('WebhookKmsKeyId'));
    expect(output?.[1].Value).toEqual({ Ref: idOf(webhooks.signingSecretKey) });
  });

  it('watches dead letters and stream lag; alarms on them exist only on stages with alarms', () => {
    const { webhooks } = stage.stack;
    const alarmNamed = (id: string) =>
      resourcesOfType(stage, 'AWS::CloudWatch::Alarm').find(([, alarm]) =>
        String(alarm.Properties.AlarmName).endsWith(`-${id}`),
      )?.[1].Properties;
    expect(webhooks.watchedMetrics.map((watched) => watched.id)).toEqual([
      'WebhookDeadLetters',
      'WebhookDispatchFailures',
      'WebhookStreamLag',
    ]);
    if (!stage.stack.monitoring.alarmsEnabled) {
      for (const watched of webhooks.watchedMetrics) expect(alarmNamed(watched.id)).toBeUndefined();
      return;
    }
    for (const [id, queue] of [
      ['WebhookDeadLetters', webhooks.deadLetterQueue],
      ['WebhookDispatchFailures', webhooks.dispatchFailures],
    ] as const) {
      expect(alarmNamed(id)).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [{ Name: 'QueueName', Value: getAtt(queue, 'QueueName') }],
        Statistic: 'Maximum',
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
      });
    }
    expect(alarmNamed('WebhookStreamLag')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: idOf(webhooks.dispatchFunction) } }],
      Statistic: 'Maximum',
      Threshold: 5 * 60 * 1000,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });
});
