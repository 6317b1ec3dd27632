import { describe, expect, it } from 'vitest';
import {
  cancellationReasons,
  isRetryableCancellation,
  isTransientDatabaseError,
} from '../../shared/store/database-errors.ts';

const awsError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, ...extra });
const cancelled = (...codes: string[]) =>
  awsError('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });

describe('DynamoDB errors, read in the store (shared/store/database-errors.ts)', () => {
  it.each([
    ['a throttle', awsError('ThrottlingException'), true],
    ['a timeout', awsError('TimeoutError'), true],
    ['a reset connection', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), true],
    ['a transaction cancelled by a throttled action', cancelled('None', 'ThrottlingError'), true],
    ['a transaction cancelled by a conflict', cancelled('TransactionConflict', 'None'), true],
    ['a transaction cancelled by its conditions', cancelled('ConditionalCheckFailed', 'None'), false],
    ['a failed condition', awsError('ConditionalCheckFailedException'), false],
    ['a validation error', awsError('ValidationException'), false],
    ['not an error at all', 'boom', false],
  ])('%s is transient: %s', (_what, error, transient) => {
    expect(isTransientDatabaseError(error)).toBe(transient);
  });

  it('reads the cancellation reasons of a transaction and of a single conditional write', () => {
    expect(cancellationReasons(cancelled('None', 'ConditionalCheckFailed'))).toEqual([
      { Code: 'None' },
      { Code: 'ConditionalCheckFailed' },
    ]);
    expect(cancellationReasons(awsError('ConditionalCheckFailedException'))).toEqual([
      { Code: 'ConditionalCheckFailed' },
    ]);
    expect(cancellationReasons(awsError('TransactionCanceledException'))).toEqual([]);
    expect(cancellationReasons(awsError('ThrottlingException'))).toBeUndefined();
  });

  it('a cancellation is retried (read and decide again) only when what was read changed', () => {
    expect(isRetryableCancellation([{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }])).toBe(true);
    expect(isRetryableCancellation([{ Code: 'TransactionConflict' }, { Code: undefined }])).toBe(true);
    expect(isRetryableCancellation([{ Code: 'None' }, { Code: 'ThrottlingError' }])).toBe(false);
    expect(isRetryableCancellation([{ Code: 'ValidationError' }])).toBe(false);
  });
});
