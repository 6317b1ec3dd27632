import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../shared/http/body.ts';
import { bodyGate } from '../../../shared/http/middleware/body-gate.ts';
import { apiRequest } from './request.ts';

describe('bodyGate middleware', () => {
  it('hands a JSON body to the JSON parser as application/json', async () => {
    // Prepare
    const request = apiRequest({ headers: { 'content-type': 'text/plain' }, body: '{"a":1}' });
    // Act
    await bodyGate().before!(request);
    // Assess
    expect(request.event.headers['content-type']).toBe('application/json');
    expect(request.event.body).toBe('{"a":1}');
  });

  it('turns a form body into the parsed object', async () => {
    // Prepare
    const request = apiRequest({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b[c]=2',
    });
    // Act
    await bodyGate().before!(request);
    // Assess
    expect(request.event.body).toEqual({ a: '1', b: { c: '2' } });
  });

  it(`answers 413 above ${MAX_BODY_BYTES} bytes by default, and above maxBytes when given`, async () => {
    // Prepare
    const large = apiRequest({ headers: { 'content-type': 'application/json' }, body: 'a'.repeat(MAX_BODY_BYTES + 1) });
    const small = apiRequest({ headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    // Act, Assess
    expect(() => bodyGate().before!(large)).toThrow(expect.objectContaining({ code: 'payload_too_large' }));
    expect(() => bodyGate({ maxBytes: 4 }).before!(small)).toThrow(
      expect.objectContaining({ code: 'payload_too_large' }),
    );
  });

  it('answers 415 to a content type it cannot read', async () => {
    // Prepare
    const request = apiRequest({ headers: { 'content-type': 'application/xml' }, body: '<a/>' });
    // Act, Assess
    expect(() => bodyGate().before!(request)).toThrow(expect.objectContaining({ code: 'unsupported_media_type' }));
  });
});
