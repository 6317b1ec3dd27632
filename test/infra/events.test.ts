import { describe, expect, it } from 'vitest';
import { routeNamed } from '../../shared/routes.ts';
import { FUNCTION_FIXTURES, loadEvent } from './event-fixtures.ts';

describe.each(Object.values(FUNCTION_FIXTURES).map((name) => [name, routeNamed(name)] as const))(
  'test/events/%s.json',
  (name, route) => {
    const event = loadEvent(name);
    const routeKey = `${route.method} ${route.path}`;

    it(`is an HTTP API payload 2.0 event for ${routeKey}`, () => {
      expect(event).toMatchObject({
        version: '2.0',
        routeKey,
        rawPath: route.path,
        isBase64Encoded: false,
        requestContext: { routeKey, stage: '$default', http: { method: route.method, path: route.path } },
      });
      expect(event.requestContext.requestId).toEqual(expect.any(String));
    });

    it('has lower-case headers with a JSON content type and a placeholder bearer secret key', () => {
      for (const header of Object.keys(event.headers)) expect(header).toBe(header.toLowerCase());
      expect(event.headers['content-type']).toBe('application/json');
      expect(event.headers.authorization).toMatch(/^Bearer sk_[A-Za-z0-9]{40}$/);
    });

    it('carries a JSON object body', () => {
      expect(JSON.parse(event.body)).toEqual(expect.any(Object));
      expect(event.headers['content-length']).toBe(String(Buffer.byteLength(event.body)));
    });
  },
);
