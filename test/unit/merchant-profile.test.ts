/** The merchant profile's rules (shared/domain/merchant-profile.ts) and the hosted token. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateHostedToken, HOSTED_TOKEN_PATTERN } from '../../shared/domain/hosted-token.ts';
import { parseProfileValue, parseReminderOffsets } from '../../shared/domain/merchant-profile.ts';

describe('parseProfileValue', () => {
  it('trims and collapses whitespace; keeps the address lines; empty means unset', () => {
    expect(parseProfileValue('bankName', '  Zenith   Bank ')).toEqual({ ok: true, value: 'Zenith Bank' });
    expect(parseProfileValue('address', ' 12  Marina Rd \r\n\n\n\nLagos ')).toEqual({
      ok: true,
      value: '12 Marina Rd\n\nLagos',
    });
    expect(parseProfileValue('email', '   ')).toEqual({ ok: true, value: undefined });
  });

  it('refuses over-long values, wrong shapes and control characters', () => {
    expect(parseProfileValue('taxId', 'x'.repeat(51)).ok).toBe(false);
    expect(parseProfileValue('email', 'a@b').ok).toBe(false);
    expect(parseProfileValue('email', 'billing@acme.ng').ok).toBe(true);
    expect(parseProfileValue('phone', '0801-234-5678').ok).toBe(true);
    expect(parseProfileValue('phone', 'ring me').ok).toBe(false);
    expect(parseProfileValue('accountNumber', 'GB33BUKB20201555555555').ok).toBe(true);
    expect(parseProfileValue('accountName', 'Acme\u0000Ltd').ok).toBe(false);
  });
});

describe('parseReminderOffsets', () => {
  it('parses, sorts and bounds the schedule', () => {
    expect(parseReminderOffsets('14,-3, 0 ,7')).toEqual({ ok: true, value: [-3, 0, 7, 14] });
    expect(parseReminderOffsets('-0,+5')).toEqual({ ok: true, value: [0, 5] });
    expect(parseReminderOffsets('')).toEqual({ ok: true, value: [] });
    for (const wrong of ['1.5', '-366', '366', '1,1', 'a', '1;2', '1,2,3,4,5,6,7,8,9,10,11'])
      expect(parseReminderOffsets(wrong).ok, wrong).toBe(false);
  });

  it('accepts any set of up to 10 distinct days in range, in any order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -365, max: 365 }), { maxLength: 10 }), (days) => {
        const parsed = parseReminderOffsets(days.join(','));
        expect(parsed).toEqual({ ok: true, value: [...days].sort((a, b) => a - b) });
      }),
    );
  });
});

describe('generateHostedToken', () => {
  it('is 24 base64url characters (144 random bits), different every time', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateHostedToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(HOSTED_TOKEN_PATTERN);
  });
});
