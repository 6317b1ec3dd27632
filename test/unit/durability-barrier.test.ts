/** The key the local durability barrier reads back after a transaction (infra/local/durability-barrier.ts). */
import { describe, expect, it } from 'vitest';
import { DurabilityUnconfirmedError, writtenKey } from '../../infra/local/durability-barrier.ts';
import { DeadlineReachedError } from '../../shared/call-deadline.ts';
import { classifyTransactionFailure } from '../../shared/store/write-executor.ts';

describe('writtenKey', () => {
  it('takes the key attributes of the first item put, ignoring condition checks before it', () => {
    // Prepare
    const input = {
      TransactItems: [
        { ConditionCheck: { TableName: 't', Key: { PK: { S: 'A' }, SK: { S: 'B' } }, ConditionExpression: 'x' } },
        { Put: { TableName: 't', Item: { PK: { S: 'P' }, SK: { S: 'Q' }, amount: { N: '5' } } } },
      ],
    };
    // Act
    const key = writtenKey(input);
    // Assess
    expect(key).toEqual({ tableName: 't', key: { PK: { S: 'P' }, SK: { S: 'Q' } } });
  });

  it('takes the key of an update or a delete', () => {
    const update = {
      TransactItems: [
        { Update: { TableName: 't', Key: { PK: { S: 'U' }, SK: { S: 'V' } }, UpdateExpression: 'SET a = :a' } },
      ],
    };
    const remove = { TransactItems: [{ Delete: { TableName: 't', Key: { PK: { S: 'D' }, SK: { S: 'E' } } } }] };
    expect(writtenKey(update)?.key).toEqual({ PK: { S: 'U' }, SK: { S: 'V' } });
    expect(writtenKey(remove)?.key).toEqual({ PK: { S: 'D' }, SK: { S: 'E' } });
  });

  it('finds nothing to read back in a transaction of condition checks only', () => {
    const input = {
      TransactItems: [{ ConditionCheck: { TableName: 't', Key: { PK: { S: 'A' } }, ConditionExpression: 'x' } }],
    };
    expect(writtenKey(input)).toBeUndefined();
  });
});

describe('a failed barrier read', () => {
  it('leaves the outcome unknown, even when the read itself was refused before it was sent', () => {
    // The deadline refusing to start the read must not turn an acknowledged transaction into "not written".
    const failure = new DurabilityUnconfirmedError(new DeadlineReachedError(false));
    expect(classifyTransactionFailure(new DeadlineReachedError(false))).toBe('not_committed');
    expect(classifyTransactionFailure(failure)).toBe('unknown');
  });
});
