/**
 * CDK assertions for the wake sweep (infra/wake-sweep.ts): a scheduled function with exactly the DynamoDB actions the
 * sweep performs (recorded while it runs against DynamoDB Local), on the table and on GSI2 only.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type DynamoCall, dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import {
  WAKE_SWEEP_INDEX_ACTIONS,
  WAKE_SWEEP_RATE,
  WAKE_SWEEP_TABLE_ACTIONS,
  WAKE_SWEEP_TIMEOUT,
} from '../../infra/wake-sweep.ts';
import { fromIsoDate } from '../../shared/domain/dates.ts';
import { runWakeSweep } from '../../shared/services/wake-sweep.ts';
import { newCollectionPut } from '../../shared/store/card-collections.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys, wakeIndexKeys } from '../../shared/store/keys.ts';
import { TABLE } from '../../shared/store/table.ts';
import { commitTransaction } from '../../shared/store/write-executor.ts';
import { call, createInvoice, invoiceBody, newAccount } from '../support/api.ts';
import { byConstruct, resourcesOfType, type SynthesisedStage, synthStage } from './template-helpers.ts';

const TRANSACT_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
};

describe.each(['dev', 'prod'] as const)('wake sweep on stage %s', (stageName) => {
  let stage: SynthesisedStage;
  const { idOf, resource, statementsOf } = byConstruct(() => stage);

  beforeAll(() => {
    stage = synthStage(stageName);
  });

  it('is built like the other functions, with a timeout below the schedule’s rate', () => {
    const fn = resource(stage.stack.wakeSweep.sweepFunction).Properties;
    expect(fn).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      MemorySize: 512,
      TracingConfig: { Mode: 'Active' },
      Timeout: WAKE_SWEEP_TIMEOUT.toSeconds(),
      Handler: 'index.handler',
    });
    expect(fn.Environment.Variables.TABLE_NAME).toEqual({ Ref: idOf(stage.stack.table) });
    expect(fn.Environment.Variables).not.toHaveProperty('CLOCK_OFFSET_MS');
    expect(WAKE_SWEEP_TIMEOUT.toSeconds()).toBeLessThan(WAKE_SWEEP_RATE.toSeconds());
  });

  it('runs every 5 minutes from an EventBridge rule, not retried (the next run does the work)', () => {
    const rule = resource(stage.stack.wakeSweep.schedule).Properties;
    expect(rule.ScheduleExpression).toBe('rate(5 minutes)');
    expect(rule.State).toBe('ENABLED');
    expect(rule.Targets).toEqual([
      expect.objectContaining({
        Arn: { 'Fn::GetAtt': [idOf(stage.stack.wakeSweep.sweepFunction), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 0 },
      }),
    ]);
    const permissions = resourcesOfType(stage, 'AWS::Lambda::Permission').filter(
      ([, p]) =>
        p.Properties.Principal === 'events.amazonaws.com' &&
        p.Properties.FunctionName['Fn::GetAtt']?.[0] === idOf(stage.stack.wakeSweep.sweepFunction),
    );
    expect(permissions).toHaveLength(1);
    expect(permissions[0]![1].Properties.SourceArn).toEqual({
      'Fn::GetAtt': [idOf(stage.stack.wakeSweep.schedule), 'Arn'],
    });
  });

  it('may read and write the table and Query GSI2, nothing else', () => {
    const statements = statementsOf(stage.stack.wakeSweep.sweepFunction);
    const tableArn = { 'Fn::GetAtt': [idOf(stage.stack.table), 'Arn'] };
    expect(statements).toEqual([
      { actions: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], resources: ['*'] },
      { actions: [...WAKE_SWEEP_TABLE_ACTIONS].sort(), resources: [tableArn] },
      {
        actions: [...WAKE_SWEEP_INDEX_ACTIONS],
        resources: [{ 'Fn::Join': ['', [tableArn, `/index/${TABLE.wakeIndex.name}`]] }],
      },
    ]);
  });
});

describe('the wake sweep’s grant', () => {
  it('equals the DynamoDB actions a sweep performs (notify, start a charge, take a settled invoice out, issue a period)', async () => {
    // Prepare: one invoice to notify, one settled whose index keys remain (as a header written before GSI2 could be),
    // and one collected with a saved card (its collection item as add invoice puts it), due: a charge is started.
    const { account, key } = await newAccount();
    const notified = await createInvoice(key, { due_date: '01/15/2020' });
    const collected = { companyId: account.companyId, clientId: Number(notified.client_id), cardToken: 'ctok_x' };
    await commitTransaction([
      newCollectionPut(tableName(), {
        ...collected,
        referenceCode: notified.reference_code,
        firstDay: fromIsoDate('2020-01-15'),
      }),
    ]);
    const settled = await createInvoice(key, { due_date: '01/15/2020' });
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceHeader(settled.reference_code),
        UpdateExpression: 'SET amount_due = :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    await seriesDueSince2020(key);
    const calls: DynamoCall[] = [];
    const remove = dynamoHooks.add({ before: (c) => void calls.push(c) });
    // Act
    try {
      await runWakeSweep(new Date());
    } finally {
      remove();
    }
    // Assess
    const table = new Set<string>();
    const indexes = new Set<string>();
    for (const c of calls) {
      const operation = c.command.replace(/Command$/, '');
      if (operation === 'TransactWriteItems') {
        for (const item of c.input.TransactItems as Record<string, unknown>[])
          for (const kind of Object.keys(item)) table.add(TRANSACT_ACTIONS[kind] ?? `unknown:${kind}`);
      } else if (typeof c.input.IndexName === 'string') indexes.add(`${c.input.IndexName} dynamodb:${operation}`);
      else table.add(`dynamodb:${operation}`);
    }
    expect([...indexes]).toEqual(WAKE_SWEEP_INDEX_ACTIONS.map((a) => `${TABLE.wakeIndex.name} ${a}`));
    expect([...table].sort()).toEqual([...WAKE_SWEEP_TABLE_ACTIONS].sort());
  });
});

/** A series of one period whose date passed long ago (as after an outage): the sweep creates its invoice. */
async function seriesDueSince2020(key: string) {
  const { due_date: _none, ...invoice } = invoiceBody();
  const schedule = { every: 1, unit: 'month', start: '01/15/2031', due_in_days: 7, end: { after: 1 } };
  const series = (await call('create-recurring-invoice', { key, body: { ...invoice, schedule } })).body.data;
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.recurringSeries(series.id),
      UpdateExpression: 'SET #schedule.#start = :start, GSI2SK = :wake',
      ExpressionAttributeNames: { '#schedule': 'schedule', '#start': 'start' },
      ExpressionAttributeValues: { ':start': '2020-01-15', ':wake': wakeIndexKeys.sort('2020-01-15', series.id) },
    }),
  );
}
