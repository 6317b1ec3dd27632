/**
 * CDK assertions for the outbox (infra/outbox.ts): the stream, the one dispatcher and its filter, and every job kind's
 * queue, dead letters, worker, event source, IAM and alarms, as shared/store/outbox.ts `JOB_KINDS` describes them.
 */

import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DISPATCH_RETRY_ATTEMPTS, type OutboxWorker } from '../../infra/outbox.ts';
import { attemptsOf } from '../../shared/domain/retry-schedule.ts';
import { JOB_KIND_NAMES, JOB_KINDS, maxReceiveCountOf, OUTBOX_STREAM_FILTER } from '../../shared/store/outbox.ts';
import { TABLE } from '../../shared/store/table.ts';
import { byConstruct, resourcesOfType, type SynthesisedStage, synthStage } from './template-helpers.ts';

const pascal = (camel: string) => camel[0]!.toUpperCase() + camel.slice(1);

describe.each(['dev', 'prod'] as const)('the outbox on stage %s', (stageName) => {
  let stage: SynthesisedStage;
  const { idOf, resource, getAtt, statementsOf } = byConstruct(() => stage);
  const mappingOf = (fn: IConstruct) =>
    resourcesOfType(stage, 'AWS::Lambda::EventSourceMapping').filter(
      ([, mapping]) => mapping.Properties.FunctionName.Ref === idOf(fn),
    );
  const alarmNamed = (id: string) =>
    resourcesOfType(stage, 'AWS::CloudWatch::Alarm').find(([, alarm]) =>
      String(alarm.Properties.AlarmName).endsWith(`-${id}`),
    )?.[1].Properties;
  const sameItems = (a: unknown[], b: unknown[]) =>
    JSON.stringify(a.map((x) => JSON.stringify(x)).sort()) === JSON.stringify(b.map((x) => JSON.stringify(x)).sort());
  const workers = () => Object.values(stage.stack.outbox.workers) as OutboxWorker[];

  beforeAll(() => {
    stage = synthStage(stageName);
  });

  it('turns on the table stream with new images, from the shared table definition', () => {
    expect(TABLE.streamViewType).toBe('NEW_IMAGE');
    expect(resource(stage.stack.table).Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
  });

  it("feeds one dispatcher from the stream, filtered to every kind's INSERTs, with partial failures, bisection and an on-failure queue", () => {
    const { outbox } = stage.stack;
    const streamMappings = resourcesOfType(stage, 'AWS::Lambda::EventSourceMapping').filter(([, mapping]) =>
      JSON.stringify(mapping.Properties.EventSourceArn).includes('StreamArn'),
    );
    expect(streamMappings.map(([, mapping]) => mapping.Properties.FunctionName)).toEqual([
      { Ref: idOf(outbox.dispatchFunction) },
    ]);
    expect(streamMappings[0]![1].Properties).toEqual({
      FunctionName: { Ref: idOf(outbox.dispatchFunction) },
      EventSourceArn: getAtt(stage.stack.table, 'StreamArn'),
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      FilterCriteria: { Filters: [{ Pattern: JSON.stringify(OUTBOX_STREAM_FILTER) }] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: DISPATCH_RETRY_ATTEMPTS,
      DestinationConfig: { OnFailure: { Destination: getAtt(outbox.dispatchFailures, 'Arn') } },
    });
  });

  it("gives the dispatcher every kind's queue URL, and grants it only stream reads and sends to those queues", () => {
    const { outbox } = stage.stack;
    const env = resource(outbox.dispatchFunction).Properties.Environment.Variables;
    for (const worker of workers())
      expect(env[JOB_KINDS[worker.kind].queueUrlVariable]).toEqual({ Ref: idOf(worker.queue) });
    expect(env).not.toHaveProperty('MAIL_FROM');
    const queues = [outbox.dispatchFailures, ...workers().map((worker) => worker.queue)];
    expect(statementsOf(outbox.dispatchFunction)).toEqual([
      { actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], resources: ['*'] },
      {
        actions: ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
        resources: expect.toSatisfy((resources: unknown[]) =>
          sameItems(
            resources,
            queues.map((q) => getAtt(q, 'Arn')),
          ),
        ),
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

  it('builds one worker per kind, each with its own queue and dead letters', () => {
    expect(workers().map((worker) => worker.kind)).toEqual(JOB_KIND_NAMES);
    expect(new Set(workers().map((worker) => idOf(worker.queue))).size).toBe(JOB_KIND_NAMES.length);
  });

  it.each(JOB_KIND_NAMES)(
    '%s: feeds the worker from its queue with partial failures and bounded concurrency',
    (kind) => {
      const worker = stage.stack.outbox.workers[kind];
      const mappings = mappingOf(worker.workerFunction);
      expect(mappings).toHaveLength(1);
      expect(mappings[0]![1].Properties).toEqual({
        FunctionName: { Ref: idOf(worker.workerFunction) },
        EventSourceArn: getAtt(worker.queue, 'Arn'),
        BatchSize: JOB_KINDS[kind].worker.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        // At most this many workers at once, so a backlog of retries cannot take the API's concurrency.
        ScalingConfig: { MaximumConcurrency: JOB_KINDS[kind].worker.maxConcurrency },
      });
    },
  );

  it.each(JOB_KIND_NAMES)(
    '%s: an encrypted queue whose visibility covers six worker timeouts and whose DLQ comes after every attempt',
    (kind) => {
      const worker = stage.stack.outbox.workers[kind];
      const queue = resource(worker.queue).Properties;
      expect(queue.SqsManagedSseEnabled).toBe(true);
      expect(queue.VisibilityTimeout).toBe(6 * JOB_KINDS[kind].worker.timeoutSeconds);
      expect(maxReceiveCountOf(kind)).toBeGreaterThan(attemptsOf(JOB_KINDS[kind].retrySchedule));
      expect(queue.RedrivePolicy).toEqual({
        deadLetterTargetArn: getAtt(worker.deadLetterQueue, 'Arn'),
        maxReceiveCount: maxReceiveCountOf(kind),
      });
      // Retries wait in the queue: it must keep a message for the whole schedule (about 28 h).
      expect(queue.MessageRetentionPeriod).toBeGreaterThan(28 * 3600);
      expect(resource(worker.deadLetterQueue).Properties).toMatchObject({
        SqsManagedSseEnabled: true,
        MessageRetentionPeriod: 14 * 24 * 3600,
      });
    },
  );

  it('denies every non-TLS request on every outbox queue', () => {
    const policies = resourcesOfType(stage, 'AWS::SQS::QueuePolicy');
    const queues = [
      ...workers().flatMap((worker) => [worker.queue, worker.deadLetterQueue]),
      stage.stack.outbox.dispatchFailures,
    ];
    for (const queue of queues) {
      const policy = policies.find(([, candidate]) =>
        candidate.Properties.Queues.some((ref: any) => ref.Ref === idOf(queue)),
      );
      expect(policy, queue.node.path).toBeDefined();
      expect(policy![1].Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });

  it('builds the dispatcher and the workers like the API functions (nodejs22.x, arm64, 512 MB, traced), each with its timeout', () => {
    const functions = [
      [stage.stack.outbox.dispatchFunction, 10],
      ...workers().map((worker) => [worker.workerFunction, JOB_KINDS[worker.kind].worker.timeoutSeconds] as const),
    ] as const;
    for (const [fn, timeout] of functions) {
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

  it.each(JOB_KIND_NAMES)(
    '%s: the worker gets its queue URL and exactly its table actions; never a local switch',
    (kind) => {
      const worker = stage.stack.outbox.workers[kind];
      const env = resource(worker.workerFunction).Properties.Environment.Variables;
      expect(env).toMatchObject({
        [JOB_KINDS[kind].queueUrlVariable]: { Ref: idOf(worker.queue) },
        TABLE_NAME: { Ref: idOf(stage.stack.table) },
      });
      for (const name of ['WEBHOOK_ALLOW_LOOPBACK', 'WEBHOOK_RETRY_BASE_MS', 'MAIL_RETRY_BASE_MS', 'SES_ENDPOINT'])
        expect(env).not.toHaveProperty(name);
      const statements = statementsOf(worker.workerFunction);
      expect(statements.slice(0, 3)).toEqual([
        { actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], resources: ['*'] },
        {
          actions: [
            'sqs:ChangeMessageVisibility',
            'sqs:DeleteMessage',
            'sqs:GetQueueAttributes',
            'sqs:GetQueueUrl',
            'sqs:ReceiveMessage',
          ],
          resources: [getAtt(worker.queue, 'Arn')],
        },
        { actions: [...JOB_KINDS[kind].worker.tableActions].sort(), resources: [getAtt(stage.stack.table, 'Arn')] },
      ]);
    },
  );

  it("watches every kind's dead letters, the dispatcher's failures and stream lag; alarms only on stages with alarms", () => {
    const { outbox } = stage.stack;
    // Every kind's dead letters, in JOB_KINDS' order (the first two kept their ids from before the one outbox).
    const deadLetters = JOB_KIND_NAMES.map((kind) =>
      kind === 'webhook' ? 'WebhookDeadLetters' : kind === 'mail' ? 'MailDeadLetters' : `${pascal(kind)}DeadLetters`,
    );
    expect(outbox.watchedMetrics.map((watched) => watched.id)).toEqual([
      ...deadLetters,
      'OutboxDispatchFailures',
      'OutboxStreamLag',
    ]);
    if (!stage.stack.monitoring.alarmsEnabled) {
      for (const watched of outbox.watchedMetrics) expect(alarmNamed(watched.id)).toBeUndefined();
      return;
    }
    for (const [id, queue] of [
      ...JOB_KIND_NAMES.map((kind, i) => [deadLetters[i]!, outbox.workers[kind].deadLetterQueue] as const),
      ['OutboxDispatchFailures', outbox.dispatchFailures] as const,
    ]) {
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
    expect(alarmNamed('OutboxStreamLag')).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: idOf(outbox.dispatchFunction) } }],
      Statistic: 'Maximum',
      Threshold: 5 * 60 * 1000,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
  });

  it('keeps the logical ids the webhook and mail queues, workers and outputs had before the outbox was shared', () => {
    const { webhook, mail } = stage.stack.outbox.workers;
    const pathOf = (construct: IConstruct) => construct.node.path.replace(/^Invoicing-\w+\//, '');
    expect([webhook.queue, webhook.deadLetterQueue, webhook.workerFunction].map(pathOf)).toEqual([
      'Webhooks/DeliveryQueue',
      'Webhooks/DeliveryDeadLetters',
      'Webhooks/DeliverFunction',
    ]);
    expect([mail.queue, mail.deadLetterQueue, mail.workerFunction].map(pathOf)).toEqual([
      'Mail/MailQueue',
      'Mail/MailDeadLetters',
      'Mail/MailerFunction',
    ]);
    expect(idOf(webhook.queue)).toMatch(/^WebhooksDeliveryQueue[0-9A-F]{8}$/);
    expect(idOf(mail.queue)).toMatch(/^MailMailQueue[0-9A-F]{8}$/);
  });
});
