/** Issue 17 §6: the add-payment examples `npm start` serves on /docs work when tried on the day (infra/local/docs.ts). */
import { describe, expect, it } from 'vitest';
import { withLiveExamples } from '../../infra/local/docs.ts';
import { renderOpenApiDocument } from '../../shared/openapi/document.ts';

describe('the /docs document of npm start', () => {
  it("pays the demo invoice 1,000.00 today (the account's day) and names the server it came from", () => {
    // Prepare: 23:30 UTC on 31 March is already 1 April in Lagos
    const now = new Date('2025-03-31T23:30:00Z');
    // Act
    const served = JSON.parse(
      withLiveExamples(renderOpenApiDocument(), {
        referenceCode: 'DemoRef123',
        baseUrl: 'http://127.0.0.1:4321',
        now,
        timeZone: 'Africa/Lagos',
      }),
    );
    // Assess
    const content = served.paths['/payments'].post.requestBody.content;
    const examples = Object.values(content['application/json'].examples) as { value: Record<string, unknown> }[];
    expect(examples.length).toBeGreaterThan(0);
    for (const { value } of examples)
      expect(value).toMatchObject({ reference_code: 'DemoRef123', date: '04/01/2025', amount: '1000' });
    const form = new URLSearchParams(content['application/x-www-form-urlencoded'].example);
    expect([form.get('reference_code'), form.get('date'), form.get('amount')]).toEqual([
      'DemoRef123',
      '04/01/2025',
      '1000',
    ]);
    expect(served.servers[0]).toEqual({ url: '/', description: 'This server (http://127.0.0.1:4321)' });
  });
});
