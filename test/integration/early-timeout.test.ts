/**
 * Backstops in the HTTP layer: middy's early answer, just before the function's timeout, when work outlives the
 * database deadline: 504 outcome_unknown once a transaction was sent that DynamoDB did not refuse,
 * 503 (nothing written) otherwise — never a plain "retry" while a write may have committed.
 */
import { describe, expect, it } from 'vitest';
import { markWriteMayHaveCommitted } from '../../shared/call-deadline.ts';
import { createApiHandler } from '../../shared/http/handler.ts';
import { sleep } from '../robustness/helpers.ts';
import { lambdaContext, makeEvent, newAccount } from '../support/api.ts';

describe('early answer before the function timeout', () => {
  it.each([
    [true, 504, 'outcome_unknown'],
    [false, 503, 'service_unavailable'],
  ] as const)('write may have committed: %s → %i %s', async (sent, status, code) => {
    const { key } = await newAccount();
    const handler = createApiHandler('add-payment', async () => {
      if (sent) markWriteMayHaveCommitted(true);
      await sleep(1_500);
      throw new Error('should have been answered early');
    });
    const response = await handler(makeEvent('add-payment', { key, body: {} }), lambdaContext(800));
    expect(response.statusCode, response.body).toBe(status);
    expect(JSON.parse(response.body).code).toBe(code);
  });

  it('a failure after the transaction committed → 504 outcome_unknown, not 500', async () => {
    const { key } = await newAccount();
    const handler = createApiHandler('add-payment', async () => {
      markWriteMayHaveCommitted(true);
      throw new Error('bug after the commit');
    });
    const response = await handler(makeEvent('add-payment', { key, body: {} }), lambdaContext());
    expect(response.statusCode, response.body).toBe(504);
    expect(JSON.parse(response.body).code).toBe('outcome_unknown');
  });
});
