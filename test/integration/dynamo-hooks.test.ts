/**
 * The one probe on the shared DynamoDB client (infra/tools/dynamo-hooks.ts), and the benchmark's hook built on it
 * (bench/bench-hooks.ts): what each sees of a call that succeeds and of one DynamoDB refuses.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { installBenchHook } from '../../bench/bench-hooks.ts';
import { type DynamoCall, dynamoHooks } from '../../infra/tools/dynamo-hooks.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';

const getItem = (table: string) =>
  documentClient().send(new GetCommand({ TableName: table, Key: { PK: 'none', SK: 'none' } }));

afterEach(() => dynamoHooks.clear());

describe('dynamoHooks', () => {
  it('gives after the output of a call that succeeded, and failed nothing', async () => {
    const seen: string[] = [];
    dynamoHooks.add({
      before: (c) => void seen.push(`before ${c.command}`),
      after: (c, output) => void seen.push(`after ${c.command} ${'Item' in output ? 'item' : 'no item'}`),
      failed: (c) => void seen.push(`failed ${c.command}`),
    });

    await getItem(tableName());

    expect(seen).toEqual(['before GetItemCommand', 'after GetItemCommand no item']);
  });

  it('gives failed the error of a call DynamoDB refused, the same call object as before, and lets the error through', async () => {
    const calls: DynamoCall[] = [];
    const errors: unknown[] = [];
    dynamoHooks.add({
      before: (c) => void calls.push(c),
      after: () => void errors.push('after must not run'),
      failed: (c, error) => {
        calls.push(c);
        errors.push(error);
      },
    });

    await expect(getItem('no-such-table')).rejects.toThrow();

    expect(calls).toHaveLength(2);
    expect(calls[1]).toBe(calls[0]);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).name).toBe('ResourceNotFoundException');
  });

  it('sends what a before hook adds to the input', async () => {
    let output: Record<string, unknown> = {};
    dynamoHooks.add({
      before: (c) => void (c.input.ReturnConsumedCapacity = 'TOTAL'),
      after: (_c, o) => void (output = o),
    });

    await getItem(tableName());

    expect(output.ConsumedCapacity).toMatchObject({ TableName: tableName() });
  });
});

describe("the benchmark's hook", () => {
  it('captures each call with its capacity, and a refused one with its error; scopes count their calls', async () => {
    const hook = installBenchHook();
    hook.startCapture();

    await hook.requestScope(async (done) => {
      await getItem(tableName());
      await getItem('no-such-table').catch(() => undefined);
      done();
    });
    const captured = hook.stopCapture();

    expect(captured.map((c) => [c.command, c.error])).toEqual([
      ['GetItemCommand', undefined],
      ['GetItemCommand', 'ResourceNotFoundException'],
    ]);
    expect(captured[0]?.consumedCapacity).toMatchObject({ TableName: tableName() });
    expect(captured[0]?.items).toEqual([]);
    expect(captured[0]?.input.ReturnConsumedCapacity).toBe('INDEXES');
    expect(hook.totals()).toMatchObject({ requests: 1, calls: 2 });
    expect(hook.takeRequestMs()).toHaveLength(1);
  });
});
