/** Configuration read once, in shared/config.ts; a deployed function without its table fails at once (issue 18). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCAL_TABLE, MissingSettingError, readConfig } from '../../shared/config.ts';

const LAMBDA = { AWS_LAMBDA_FUNCTION_NAME: 'Invoicing-prod-Payments' };

describe('readConfig', () => {
  it('refuses to start a deployed function without TABLE_NAME, naming the variable', () => {
    expect(() => readConfig({ ...LAMBDA })).toThrow(MissingSettingError);
    expect(() => readConfig({ ...LAMBDA })).toThrow(/^TABLE_NAME is not set/);
  });

  it('uses the table it is given when deployed, and traces unless told not to', () => {
    const config = readConfig({ ...LAMBDA, TABLE_NAME: 'Invoicing-prod-Table' });
    expect([config.tableName, config.deployed, config.tracingEnabled]).toEqual(['Invoicing-prod-Table', true, true]);
    expect(readConfig({ ...LAMBDA, TABLE_NAME: 't', POWERTOOLS_TRACE_ENABLED: 'false' }).tracingEnabled).toBe(false);
  });

  it('falls back to the local table only off AWS: DynamoDB Local, sam local, or no Lambda at all', () => {
    for (const env of [
      {},
      { ...LAMBDA, DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000' },
      { ...LAMBDA, AWS_SAM_LOCAL: 'true' },
    ]) {
      const config = readConfig(env);
      expect([config.tableName, config.deployed, config.tracingEnabled]).toEqual([DEFAULT_LOCAL_TABLE, false, false]);
    }
  });

  it('reads the delivery queue, the Powertools names and the local credentials in the same place', () => {
    const config = readConfig({
      DELIVERY_QUEUE_URL: 'https://sqs/q',
      POWERTOOLS_SERVICE_NAME: 'svc',
      AWS_ACCESS_KEY_ID: 'a',
    });
    expect(config.queueUrl('DELIVERY_QUEUE_URL')).toBe('https://sqs/q');
    expect(config.queueUrl('MAIL_QUEUE_URL')).toBeUndefined();
    expect([config.serviceName, config.metricsNamespace]).toEqual(['svc', 'Invoicing']);
    expect(config.localCredentials).toEqual({ accessKeyId: 'a', secretAccessKey: 'local' });
  });

  it("points at Paystack by default; a Paystack-compatible server's base URL is also its checkout origin", () => {
    const defaults = readConfig({});
    expect([defaults.paystackBaseUrl, defaults.paystackCheckoutOrigin]).toEqual([
      'https://api.paystack.co',
      'https://checkout.paystack.com',
    ]);
    const local = readConfig({ PAYSTACK_BASE_URL: 'http://127.0.0.1:3602/' });
    expect([local.paystackBaseUrl, local.paystackCheckoutOrigin]).toEqual([
      'http://127.0.0.1:3602',
      'http://127.0.0.1:3602',
    ]);
    const both = readConfig({
      PAYSTACK_BASE_URL: 'https://paystack.example/api',
      PAYSTACK_CHECKOUT_ORIGIN: 'https://pay.example/checkout',
    });
    expect([both.paystackBaseUrl, both.paystackCheckoutOrigin]).toEqual([
      'https://paystack.example/api',
      'https://pay.example',
    ]);
  });
});
