import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatPercent, parsePercent } from '../../shared/domain/percent.ts';

describe('parsePercent and formatPercent', () => {
  it.each([
    ['7.5', 4, 75_000, '7.5'],
    ['7.50', 4, 75_000, '7.5'],
    ['0.0001', 4, 1, '0.0001'],
    ['12.25', 2, 1225, '12.25'],
    ['100', 4, 1_000_000, '100'],
    ['0', 2, 0, '0'],
    [' 5 ', 0, 5, '5'],
  ])('%j with %i decimals is %i units, shown as %j', (input, decimals, units, shown) => {
    expect(parsePercent(input, decimals)).toEqual({ ok: true, value: units });
    expect(formatPercent(units, decimals)).toBe(shown);
  });

  it.each([['7.55555'], ['100.0001'], ['-1'], ['.5'], ['5.'], ['7,5'], [Number.NaN], [undefined]])(
    'refuses %j (4 decimals)',
    (input) => {
      expect(parsePercent(input, 4).ok).toBe(false);
    },
  );

  it('reads back what it shows (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (units) => {
        expect(parsePercent(formatPercent(units, 4), 4)).toEqual({ ok: true, value: units });
      }),
    );
  });
});
