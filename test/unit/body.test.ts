import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, prepareBody } from '../../shared/http/body.ts';
import { ApiError } from '../../shared/http/errors.ts';

const event = (body: string | undefined, contentType?: string, base64 = false): APIGatewayProxyEventV2 => ({
  version: '2.0',
  routeKey: 'POST /payments',
  rawPath: '/payments',
  rawQueryString: '',
  headers: contentType === undefined ? {} : { 'content-type': contentType },
  requestContext: {} as APIGatewayProxyEventV2['requestContext'],
  isBase64Encoded: base64,
  ...(body === undefined ? {} : { body: base64 ? Buffer.from(body).toString('base64') : body }),
});

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof ApiError ? error.code : 'not an ApiError';
  }
};

describe('prepareBody', () => {
  it.each([
    ['application/json'],
    ['application/json; charset=utf-8'],
    ['application/merge-patch+json'],
    ['text/plain'],
    ['TEXT/PLAIN; charset=latin1'],
    [undefined],
  ])('hands %s to the JSON parser as application/json', (contentType) => {
    // Prepare
    const request = event('{"a":1}', contentType);
    // Act
    const kind = prepareBody(request);
    // Assess
    expect(kind).toBe('json');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toBe('{"a":1}');
  });

  it('parses a form body with bracket notation into the object a JSON body gives', () => {
    // Prepare
    const request = event('amount=1500&client[email]=a%40b.co&items[0][item]=x', 'application/x-www-form-urlencoded');
    // Act
    const kind = prepareBody(request);
    // Assess
    expect(kind).toBe('form');
    expect(request.body).toEqual({ amount: '1500', client: { email: 'a@b.co' }, items: [{ item: 'x' }] });
    expect(request.isBase64Encoded).toBe(false);
  });

  it("parses a JSON object sent with the form type (curl's -d) as JSON", () => {
    // Prepare
    const request = event('  {"amount":"1500"}', 'application/x-www-form-urlencoded');
    // Act, Assess
    expect(prepareBody(request)).toBe('json');
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('does not let a form body set the prototype', () => {
    // Prepare
    const request = event('__proto__[polluted]=1&constructor[prototype][x]=1', 'application/x-www-form-urlencoded');
    // Act
    prepareBody(request);
    // Assess
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(request.body)).toBe(Object.prototype);
  });

  it.each([['application/xml'], ['multipart/form-data; boundary=x'], ['image/png']])(
    'answers 415 to %s',
    (contentType) => {
      // Act, Assess
      expect(codeOf(() => prepareBody(event('<a/>', contentType)))).toBe('unsupported_media_type');
    },
  );

  it('answers 413 above the limit, counting decoded bytes, and accepts the limit itself', () => {
    // Prepare
    const atLimit = 'a'.repeat(MAX_BODY_BYTES);
    // Act, Assess
    expect(codeOf(() => prepareBody(event(atLimit, 'application/json')))).toBeUndefined();
    expect(codeOf(() => prepareBody(event(`${atLimit}a`, 'application/json')))).toBe('payload_too_large');
    expect(codeOf(() => prepareBody(event(`${atLimit}a`, 'application/json', true)))).toBe('payload_too_large');
    expect(codeOf(() => prepareBody(event('é'.repeat(MAX_BODY_BYTES / 2 + 1), 'application/json')))).toBe(
      'payload_too_large',
    );
  });

  it('takes its limit as an option', () => {
    // Act, Assess
    expect(codeOf(() => prepareBody(event('12345', 'application/json'), 4))).toBe('payload_too_large');
  });

  it('checks the size before the content type (a huge body of any type is a 413)', () => {
    // Act, Assess
    expect(codeOf(() => prepareBody(event('a'.repeat(MAX_BODY_BYTES + 1), 'image/png')))).toBe('payload_too_large');
  });

  it('decides every content type either JSON, form, or 415, never anything else (property)', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string({ unit: fc.constantFrom(...'ab1=&{} '), maxLength: 200 }),
        (contentType, body) => {
          // Act
          let outcome: string;
          try {
            outcome = prepareBody(event(body, contentType));
          } catch (error) {
            outcome = error instanceof ApiError ? error.code : 'unexpected';
          }
          // Assess
          expect(['json', 'form', 'unsupported_media_type']).toContain(outcome);
        },
      ),
    );
  });
});
