import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlExamples, exportLine, readyBanner, usDate } from '../../infra/local/banner.ts';

describe('ready banner', () => {
  it('dates payments by the calendar of the account time zone', () => {
    const lateEvening = new Date('2025-03-31T23:30:00Z');
    expect(usDate(lateEvening, 'Africa/Lagos')).toBe('04/01/2025');
    expect(usDate(lateEvening, 'UTC')).toBe('03/31/2025');
    expect(usDate(lateEvening, 'UTC', 30)).toBe('04/30/2025');
  });

  it('prints the URL, the key, the export line and one curl command per endpoint, on $BASE with $KEY', () => {
    const text = readyBanner({
      baseUrl: 'http://127.0.0.1:3000',
      companyId: 1,
      secretKey: 'sk_demo',
      demoReferenceCode: 'DemoRef0123456789abc',
      dynamodbEndpoint: 'http://127.0.0.1:8000',
      tableName: 'invoicing-local',
      dataDir: '.data/dynamodb',
    });
    expect(text.split('\n')[0]).toBe('Invoicing API listening on http://127.0.0.1:3000');
    expect(text).toContain('Demo secret key: sk_demo');
    expect(text.split('\n')).toContain('export BASE=http://127.0.0.1:3000 KEY=sk_demo REF=DemoRef0123456789abc');
    for (const path of ['/invoices', '/payments', '/payments/history']) expect(text).toContain(`"$BASE${path}"`);
    expect(text).not.toMatch(/curl[^\n]*http:/);
  });

  it('exports no REF when there is no demo invoice', () => {
    expect(exportLine('http://x', 'sk_demo')).toBe('export BASE=http://x KEY=sk_demo');
  });

  it('sends valid JSON bodies once the shell has read them, the demo invoice as $REF', () => {
    // Prepare: a shell whose `curl` prints its -d argument, after the export line.
    const exported = exportLine('http://x', 'sk_demo', 'DemoRef0123456789abc');
    const bodySent = (example: string) =>
      JSON.parse(
        execFileSync(
          'sh',
          [
            '-c',
            `curl() { while [ $# -gt 0 ]; do [ "$1" = -d ] && printf '%s' "$2"; shift; done; }\n${exported}\n${example}`,
          ],
          {
            encoding: 'utf8',
          },
        ),
      ) as Record<string, unknown>;
    // Act
    const bodies = curlExamples('Africa/Lagos', new Date(), 'DemoRef0123456789abc').map(bodySent);
    // Assess
    expect(bodies[0]).toMatchObject({ fee_bearer: 'client', client: { email: 'ada@example.com' } });
    expect(bodies[1]).toMatchObject({
      channel: 'BankTransfer',
      reference_code: 'DemoRef0123456789abc',
      amount: '1000',
    });
    expect(bodies[2]).toEqual({ period: 'today' });
  });

  it('leaves a placeholder for the reference code when no demo invoice was seeded', () => {
    const payment = curlExamples('Africa/Lagos', new Date())[1]!;
    expect(payment).toContain('"reference_code":"REFERENCE_CODE_FROM_INVOICE"');
    expect(payment).not.toContain('$REF');
  });
});
