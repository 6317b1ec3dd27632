/**
 * The Paystack webhook signature (shared/domain/paystack-signature.ts, docs/getting-paid-online.md "Webhooks"): hex
 * HMAC-SHA512 of the exact body bytes keyed with the secret key; checked against Node's own HMAC and Paystack's
 * documented example of verifying it, and refused for every other body, key or header.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPaystackSignatureValid, paystackSignature } from '../../shared/domain/paystack-signature.ts';

const KEY = 'sk_test_0123456789abcdef0123456789abcdef01234567';
const BODY = Buffer.from('{"event":"charge.success","data":{"reference":"ABC-1","amount":101523}}');
// Paystack's guide: crypto.createHmac('sha512', secret).update(JSON.stringify(req.body)).digest('hex')
const documented = (body: Buffer, key: string) => createHmac('sha512', key).update(body).digest('hex');

describe('isPaystackSignatureValid', () => {
  it('accepts the hex HMAC-SHA512 of the exact bytes under the secret key (either hex case)', () => {
    const signature = documented(BODY, KEY);
    expect(paystackSignature(BODY, KEY)).toBe(signature);
    expect(isPaystackSignatureValid(BODY, signature, KEY)).toBe(true);
    expect(isPaystackSignatureValid(BODY, signature.toUpperCase(), KEY)).toBe(true);
  });

  it('refuses a missing, empty, short, non-hex or another key’s signature', () => {
    const signature = documented(BODY, KEY);
    for (const given of [undefined, '', signature.slice(0, 127), `${signature}0`, `${signature.slice(0, 127)}g`])
      expect(isPaystackSignatureValid(BODY, given, KEY)).toBe(false);
    expect(isPaystackSignatureValid(BODY, documented(BODY, `${KEY}x`), KEY)).toBe(false);
  });

  it('refuses the signature of any other body: one byte changed, re-serialised JSON, trailing newline', () => {
    const signature = documented(BODY, KEY);
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 1));
    expect(isPaystackSignatureValid(reserialised, signature, KEY)).toBe(false);
    expect(isPaystackSignatureValid(Buffer.concat([BODY, Buffer.from('\n')]), signature, KEY)).toBe(false);
    fc.assert(
      fc.property(fc.nat(BODY.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const tampered = Buffer.from(BODY);
        tampered[at] = tampered[at]! ^ flip;
        expect(isPaystackSignatureValid(tampered, signature, KEY)).toBe(false);
      }),
    );
  });

  it('works on bytes, not text: a body that is not valid UTF-8 is signed and checked as its bytes', () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    expect(isPaystackSignatureValid(bytes, documented(bytes, KEY), KEY)).toBe(true);
    expect(isPaystackSignatureValid(Buffer.from(bytes.toString('utf8')), documented(bytes, KEY), KEY)).toBe(false);
  });
});
