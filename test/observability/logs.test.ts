/**
 * Logs and metrics as CloudWatch receives them: the handlers run in a child process with the Lambda
 * environment (LOG_LEVEL, POWERTOOLS_*, on-demand initialisation), and the test reads its stdout and stderr.
 * Every line is JSON: a Powertools log line, or a CloudWatch EMF metric blob. Request lines carry route,
 * request_id, company_id, status and latency_ms (and error_code for errors); no line holds the secret
 * key, the card token or any request body content. LOG_LEVEL is honoured.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));

async function drive(env: Record<string, string>, mode = 'all') {
  const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'test/observability/driver.ts', mode], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT!,
      TABLE_NAME: process.env.TABLE_NAME!,
      AWS_REGION: 'local',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
      POWERTOOLS_SERVICE_NAME: 'invoicing',
      POWERTOOLS_METRICS_NAMESPACE: 'Invoicing',
      ...env,
    },
    timeout: 60_000,
  });
  // Lambda sends both streams to CloudWatch (Powertools writes ERROR lines to stderr).
  const all = `${stdout}\n${stderr}`.split('\n').filter((line) => line.trim() !== '');
  const driverLine = all.find((line) => line.startsWith('DRIVER '))!;
  const secrets = JSON.parse(driverLine.slice('DRIVER '.length)) as {
    secretKey: string;
    cardToken: string;
    marker: string;
    bodies: string[];
  };
  const lines = all.filter((line) => line !== driverLine);
  return { lines, secrets, records: lines.map((line) => JSON.parse(line) as Record<string, any>) };
}

describe('structured logs and EMF metrics', () => {
  it('logs one JSON line per request with its fields, and never a secret or a body', async () => {
    const { lines, secrets, records } = await drive({ LOG_LEVEL: 'INFO' });
    const logs = records.filter((r) => !('_aws' in r));
    const requests = logs.filter((r) => r.message === 'request' || r.message === 'request failed');
    expect(requests.map((r) => [r.route, r.status, r.error_code])).toEqual([
      ['add-invoice', 201, undefined],
      ['add-payment', 201, undefined],
      ['payment-history', 200, undefined],
      ['add-payment', 409, 'amount_exceeds_balance'],
      ['add-invoice', 400, 'validation_failed'],
      ['add-invoice', 401, 'invalid_api_key'],
      ['add-invoice', 500, 'internal_error'],
    ]);
    for (const line of requests) {
      expect(line).toMatchObject({
        service: 'invoicing',
        request_id: expect.any(String),
        latency_ms: expect.any(Number),
        timestamp: expect.any(String),
      });
      expect(line.level).toBe(line.status >= 500 ? 'ERROR' : 'INFO');
      expect(line.function_request_id).toEqual(expect.any(String));
      if (line.status !== 401) expect(line.company_id).toEqual(expect.any(Number));
      else expect(line.company_id).toBeUndefined();
    }
    expect(requests.at(-1)!.error).toMatchObject({ name: 'Error', message: 'simulated failure' });

    const secretsToHide = [
      secrets.secretKey,
      secrets.secretKey.slice(3),
      secrets.cardToken,
      secrets.marker,
      'Bearer',
      ...secrets.bodies,
    ];
    for (const line of lines) for (const secret of secretsToHide) expect(line).not.toContain(secret);
  });

  it('emits EMF metrics: ColdStart, InvoicesCreated, PaymentsRecorded, PaymentAmount (major units), Errors by code', async () => {
    const { records } = await drive({ LOG_LEVEL: 'WARN' });
    const metrics = records.filter((r) => '_aws' in r);
    const find = (name: string) =>
      metrics.filter((m) => m._aws.CloudWatchMetrics[0].Metrics.some((d: { Name: string }) => d.Name === name));
    for (const m of metrics) expect(m._aws.CloudWatchMetrics[0].Namespace).toBe('Invoicing');

    expect(find('ColdStart')).toHaveLength(1);
    expect(find('InvoicesCreated')).toHaveLength(1);
    expect(find('InvoicesCreated')[0]).toMatchObject({
      InvoicesCreated: 1,
      route: 'add-invoice',
      service: 'invoicing',
    });
    expect(find('PaymentsRecorded')[0]).toMatchObject({ PaymentsRecorded: 1, route: 'add-payment' });
    expect(find('PaymentAmount')[0]).toMatchObject({ PaymentAmount: 1250.5, currency: 'NGN' });
    expect(find('Errors').map((m) => [m.route, m.error_code, m.Errors])).toEqual([
      ['add-payment', 'amount_exceeds_balance', 1],
      ['add-invoice', 'validation_failed', 1],
      ['add-invoice', 'invalid_api_key', 1],
      ['add-invoice', 'internal_error', 1],
    ]);
    expect(find('Errors')[0]._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service', 'route', 'error_code']]);
  });

  it('takes the log level from LOG_LEVEL', async () => {
    const { records } = await drive({ LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true' }, 'one');
    expect(records).toEqual([]);
    const debug = await drive({ LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'true' }, 'one');
    expect(debug.records.map((r) => r.message)).toEqual(['request']);
  });
});
