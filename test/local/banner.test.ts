import { describe, expect, it } from 'vitest';
import { curlExamples, readyBanner, usDate } from '../../infra/local/banner.ts';

describe('ready banner', () => {
  it('dates payments by the calendar of the account time zone', () => {
    const lateEvening = new Date('2025-03-31T23:30:00Z');
    expect(usDate(lateEvening, 'Africa/Lagos')).toBe('04/01/2025');
    expect(usDate(lateEvening, 'UTC')).toBe('03/31/2025');
    expect(usDate(lateEvening, 'UTC', 30)).toBe('04/30/2025');
  });

  it('prints the URL, the key and one curl command per endpoint', () => {
    const text = readyBanner({
      baseUrl: 'http://127.0.0.1:3000',
      companyId: 1,
      secretKey: 'sk_demo',
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      tableName: 'invoicing-local',
      dataDir: '.data/dynamodb',
    });
    expect(text.split('\n')[0]).toBe('Invoicing API listening on http://127.0.0.1:3000');
    expect(text).toContain('Demo secret key: sk_demo');
    for (const path of ['/invoices', '/payments', '/payments/history'])
      expect(text).toContain(`'http://127.0.0.1:3000${path}'`);
  });

  it('sends valid JSON bodies in the examples', () => {
    const bodies = curlExamples('http://x', 'sk_demo').map(
      (example) => JSON.parse(/-d '(.*)'$/m.exec(example)![1]!) as Record<string, unknown>,
    );
    expect(bodies[0]).toMatchObject({ fee_bearer: 'client', client: { email: 'ada@example.com' } });
    expect(bodies[1]).toMatchObject({ channel: 'BankTransfer', reference_code: expect.any(String) });
    expect(bodies[2]).toEqual({ period: 'today' });
  });

  it('pays the demo invoice in the payment example when one was seeded', () => {
    const bodies = curlExamples('http://x', 'sk_demo', 'Africa/Lagos', new Date(), 'DemoRef0123456789abc').map(
      (example) => JSON.parse(/-d '(.*)'$/m.exec(example)![1]!) as Record<string, unknown>,
    );
    expect(bodies[1]).toMatchObject({ reference_code: 'DemoRef0123456789abc', amount: '1000' });
  });
});
