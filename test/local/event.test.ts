import { describe, expect, it } from 'vitest';
import {
  createLambdaContext,
  formatRequestTime,
  isTextContentType,
  parseQueryString,
  type RawHttpRequest,
  splitTarget,
  toApiGatewayEvent,
} from '../../infra/local/event.ts';

const NOW = new Date('2020-03-12T19:03:58.390Z');

function request(overrides: Partial<RawHttpRequest> = {}): RawHttpRequest {
  return {
    method: 'POST',
    url: '/invoices',
    headers: ['Host', 'localhost:3000', 'Content-Type', 'application/json', 'User-Agent', 'curl/8.0'],
    body: Buffer.from('{"a":1}'),
    remoteAddress: '::ffff:127.0.0.1',
    httpVersion: '1.1',
    localPort: 3000,
    ...overrides,
  };
}

describe('toApiGatewayEvent', () => {
  it('builds a payload 2.0 event with the matched route key and request context', () => {
    const event = toApiGatewayEvent(request(), { routeKey: 'POST /invoices', now: NOW, requestId: 'req-1' });
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('POST /invoices');
    expect(event.rawPath).toBe('/invoices');
    expect(event.rawQueryString).toBe('');
    expect(event.queryStringParameters).toBeUndefined();
    expect(event.cookies).toBeUndefined();
    expect(event.requestContext).toMatchObject({
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: 'POST', path: '/invoices', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'curl/8.0' },
      requestId: 'req-1',
      routeKey: 'POST /invoices',
      stage: '$default',
      time: '12/Mar/2020:19:03:58 +0000',
      timeEpoch: NOW.getTime(),
    });
  });

  it('defaults the route key to $default and gives every request its own id', () => {
    const a = toApiGatewayEvent(request());
    const b = toApiGatewayEvent(request());
    expect(a.routeKey).toBe('$default');
    expect(a.requestContext.requestId).not.toBe(b.requestContext.requestId);
    expect(a.requestContext.requestId).toMatch(/^[A-Za-z0-9_-]{15}=$/);
  });

  it('lower-cases header names and comma-joins repeated headers', () => {
    const event = toApiGatewayEvent(
      request({
        headers: [
          'Content-Type',
          'application/json',
          'X-Custom',
          'one',
          'x-custom',
          'two',
          'AUTHORIZATION',
          'Bearer sk_x',
        ],
      }),
    );
    expect(event.headers['content-type']).toBe('application/json');
    expect(event.headers['x-custom']).toBe('one,two');
    expect(event.headers.authorization).toBe('Bearer sk_x');
    expect(Object.keys(event.headers).every((name) => name === name.toLowerCase())).toBe(true);
  });

  it('accepts a header object with repeated values as arrays', () => {
    const event = toApiGatewayEvent(request({ headers: { 'X-Multi': ['a', 'b'], Accept: '*/*', skipped: undefined } }));
    expect(event.headers['x-multi']).toBe('a,b');
    expect(event.headers.accept).toBe('*/*');
    expect('skipped' in event.headers).toBe(false);
  });

  it('adds the headers API Gateway adds', () => {
    const event = toApiGatewayEvent(request({ headers: ['X-Forwarded-For', '10.0.0.1'] }));
    expect(event.headers['x-forwarded-for']).toBe('10.0.0.1, 127.0.0.1');
    expect(event.headers['x-forwarded-port']).toBe('3000');
    expect(event.headers['x-forwarded-proto']).toBe('http');
    expect(event.headers['x-amzn-trace-id']).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
  });

  it('moves cookies out of the headers into cookies[]', () => {
    const event = toApiGatewayEvent(request({ headers: ['Cookie', 'a=1; b=2', 'Cookie', 'c=3'] }));
    expect(event.cookies).toEqual(['a=1', 'b=2', 'c=3']);
    expect(event.headers.cookie).toBeUndefined();
  });

  it('keeps the raw query string and decodes and joins its parameters', () => {
    const event = toApiGatewayEvent(request({ url: '/payments/history?period=today&tag=a%20b&tag=c&flag&plus=1+2' }));
    expect(event.rawPath).toBe('/payments/history');
    expect(event.rawQueryString).toBe('period=today&tag=a%20b&tag=c&flag&plus=1+2');
    expect(event.queryStringParameters).toEqual({ period: 'today', tag: 'a b,c', flag: '', plus: '1+2' });
  });

  it('sends text bodies as UTF-8 and everything else as base64', () => {
    const body = Buffer.from('{"name":"Ọlá"}');
    for (const contentType of [
      'application/json',
      'application/json; charset=utf-8',
      'application/problem+json',
      'text/plain',
    ]) {
      const event = toApiGatewayEvent(request({ headers: ['Content-Type', contentType], body }));
      expect(event.isBase64Encoded, contentType).toBe(false);
      expect(event.body).toBe('{"name":"Ọlá"}');
    }
    for (const headers of [
      ['Content-Type', 'application/x-www-form-urlencoded'],
      ['Content-Type', 'application/octet-stream'],
      [],
    ]) {
      const event = toApiGatewayEvent(request({ headers, body }));
      expect(event.isBase64Encoded, String(headers[1])).toBe(true);
      expect(Buffer.from(event.body!, 'base64').equals(body)).toBe(true);
    }
  });

  it('omits the body of an empty request', () => {
    const event = toApiGatewayEvent(request({ method: 'get', body: Buffer.alloc(0), headers: [] }));
    expect(event.body).toBeUndefined();
    expect(event.isBase64Encoded).toBe(false);
    expect(event.requestContext.http.method).toBe('GET');
    expect(event.requestContext.http.userAgent).toBe('');
  });
});

describe('helpers', () => {
  it('classifies content types', () => {
    expect(isTextContentType(undefined)).toBe(false);
    expect(isTextContentType('TEXT/CSV')).toBe(true);
    expect(isTextContentType('application/xml')).toBe(true);
    expect(isTextContentType('multipart/form-data; boundary=x')).toBe(false);
  });

  it('splits request targets, including absolute-form ones', () => {
    expect(splitTarget('/a?b=c')).toEqual({ rawPath: '/a', rawQueryString: 'b=c' });
    expect(splitTarget('http://localhost:3000/a?b')).toEqual({ rawPath: '/a', rawQueryString: 'b' });
    expect(splitTarget('/a#frag')).toEqual({ rawPath: '/a', rawQueryString: '' });
  });

  it('keeps malformed percent-escapes as they are', () => {
    expect(parseQueryString('a=%E0%A4%A')).toEqual({ a: '%E0%A4%A' });
    expect(parseQueryString('')).toBeUndefined();
  });

  it('formats the request time like API Gateway', () => {
    expect(formatRequestTime(new Date('2024-01-05T03:04:05Z'))).toBe('05/Jan/2024:03:04:05 +0000');
  });
});

describe('createLambdaContext', () => {
  it('counts the remaining time down from the budget', () => {
    const context = createLambdaContext({ functionName: 'add-invoice', startedAt: Date.now() - 1_000 });
    const remaining = context.getRemainingTimeInMillis();
    expect(remaining).toBeLessThanOrEqual(29_000);
    expect(remaining).toBeGreaterThan(28_000);
    expect(createLambdaContext({ functionName: 'x', timeoutMs: 10, startedAt: 0 }).getRemainingTimeInMillis()).toBe(0);
  });

  it('looks like a Lambda context', () => {
    const context = createLambdaContext({ functionName: 'payment-history', region: 'eu-west-1' });
    expect(context.functionName).toBe('payment-history');
    expect(context.functionVersion).toBe('$LATEST');
    expect(context.invokedFunctionArn).toBe('arn:aws:lambda:eu-west-1:000000000000:function:payment-history');
    expect(context.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(context.logGroupName).toBe('/aws/lambda/payment-history');
    expect(context.awsRequestId).not.toBe(createLambdaContext({ functionName: 'x' }).awsRequestId);
    expect(() => context.succeed('x')).toThrow(/not supported/);
  });
});
