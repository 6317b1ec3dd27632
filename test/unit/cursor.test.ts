import { createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PERIODS } from '../../shared/domain/periods.ts';
import { type CursorState, decodeCursor, encodeCursor } from '../../shared/http/cursor.ts';

const secret = randomBytes(32).toString('base64');
const otherSecret = randomBytes(32).toString('base64');

const isoDate = fc
  .date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const states: fc.Arbitrary<CursorState> = fc.record({
  period: fc.constantFrom(...PERIODS),
  from: isoDate,
  to: isoDate,
  after: fc.dictionary(fc.string({ minLength: 1 }), fc.string()),
});

const state: CursorState = {
  period: 'month',
  from: '2026-11-01',
  to: '2026-11-22',
  after: { PK: 'PAYMENT#1#9', SK: 'PAYMENT', GSI1PK: 'PAYMENTS#1', GSI1SK: '2026-11-20#01J' },
};

describe('history cursors', () => {
  it('decode what they encode (property)', () => {
    fc.assert(
      fc.property(states, (original) => {
        // Act
        const decoded = decodeCursor(secret, encodeCursor(secret, original));
        // Assess
        expect(decoded).toEqual(original);
      }),
    );
  });

  it('are opaque URL-safe text: payload and signature in base64url', () => {
    // Act
    const cursor = encodeCursor(secret, state);
    // Assess
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it("do not verify under another account's secret", () => {
    // Prepare
    const cursor = encodeCursor(otherSecret, state);
    // Act, Assess
    expect(decodeCursor(secret, cursor)).toBeUndefined();
  });

  it('never decode a changed cursor to another state (property)', () => {
    // base64url ignores the unused low bits of a final character, so a few edits decode to the same bytes:
    // those may verify, but only ever as the original state.
    const cursor = encodeCursor(secret, state);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: cursor.length - 1 }),
        fc.constantFrom(...'ABCabc012-_.'),
        (index, replacement) => {
          fc.pre(cursor[index] !== replacement);
          // Prepare
          const tampered = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
          // Act
          const decoded = decodeCursor(secret, tampered);
          // Assess
          if (decoded !== undefined) expect(decoded).toEqual(state);
        },
      ),
    );
  });

  it.each([[''], ['.'], ['abc'], ['a.b.c'], ['%%%.%%%']])('reject the malformed cursor %j', (cursor) => {
    // Act, Assess
    expect(decodeCursor(secret, cursor)).toBeUndefined();
  });

  it.each([
    ['version 2', { v: 2, p: 'month', f: '2026-11-01', t: '2026-11-22', a: {} }],
    ['a date not YYYY-MM-DD', { v: 1, p: 'month', f: '11/01/2026', t: '2026-11-22', a: {} }],
    ['no position', { v: 1, p: 'month', f: '2026-11-01', t: '2026-11-22' }],
    ['a position value that is not text', { v: 1, p: 'month', f: '2026-11-01', t: '2026-11-22', a: { PK: 1 } }],
    ['not JSON', 'not json'],
  ])('reject a correctly signed payload with %s', (_case, payload) => {
    // Prepare: sign it as encodeCursor does (HMAC-SHA-256 under the base64 secret)
    const body = Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)).toString('base64url');
    const signature = createHmac('sha256', Buffer.from(secret, 'base64')).update(body).digest('base64url');
    // Act, Assess
    expect(decodeCursor(secret, `${body}.${signature}`)).toBeUndefined();
  });
});
