/** Every database call ends well before the function's timeout (docs/api.md "Ambiguous outcomes"). */

import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { TIMEOUT } from '../../infra/function-settings.ts';
import { FUNCTION_TIMEOUT_MS } from '../../infra/function-timeout.ts';
import { callDeadline } from '../../shared/http/handler.ts';
import { DYNAMODB_TIMEOUTS, documentClient } from '../../shared/store/dynamodb-client.ts';
import { MIN_TIME_TO_SEND_TRANSACTION_MS } from '../../shared/store/write-executor.ts';

describe('time budget', () => {
  it('the deployed timeout and the local runtime use one value', () => {
    expect(TIMEOUT.toMilliseconds()).toBe(FUNCTION_TIMEOUT_MS);
  });

  it('database calls must end half a second before the function times out, and middy answers in between', () => {
    // The deadline is taken from the clock between these two readings (a busy machine may let milliseconds pass).
    const before = Date.now();
    const deadline = callDeadline({ getRemainingTimeInMillis: () => FUNCTION_TIMEOUT_MS } as Context);
    const after = Date.now();
    expect(deadline - after).toBeLessThanOrEqual(FUNCTION_TIMEOUT_MS - 500);
    expect(deadline - before).toBeGreaterThan(FUNCTION_TIMEOUT_MS - 1_000);
  });

  it('a read and a transaction, each with every SDK attempt timing out, still fit before the deadline', () => {
    const worstCall = DYNAMODB_TIMEOUTS.maxAttempts * DYNAMODB_TIMEOUTS.requestTimeoutMs + 1_000; // + the SDK's retry delay
    expect(2 * worstCall).toBeLessThan(FUNCTION_TIMEOUT_MS - 500);
    expect(DYNAMODB_TIMEOUTS.connectionTimeoutMs).toBeLessThanOrEqual(DYNAMODB_TIMEOUTS.requestTimeoutMs);
    expect(MIN_TIME_TO_SEND_TRANSACTION_MS).toBeGreaterThanOrEqual(DYNAMODB_TIMEOUTS.requestTimeoutMs);
  });

  it('the client is built with these settings', async () => {
    const config = documentClient().config;
    expect(await config.maxAttempts()).toBe(DYNAMODB_TIMEOUTS.maxAttempts);
    expect(config.retryMode).toBe(DYNAMODB_TIMEOUTS.retryMode);
    const handlerConfig = await (
      config.requestHandler as unknown as { configProvider: Promise<Record<string, unknown>> }
    ).configProvider;
    expect(handlerConfig).toMatchObject({
      connectionTimeout: 1_000,
      requestTimeout: 1_500,
      throwOnRequestTimeout: true,
    });
  });
});
