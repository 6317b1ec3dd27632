import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatKobo, MAX_AMOUNT_KOBO, parseAmount, parseQuantity, sumLineTotals } from '../../shared/domain/money.ts';

const groupThousands = (plain: string): string => {
  const [whole, fraction] = plain.split('.');
  return `${whole.replace(/\B(?=(\d{3})+$)/g, ',')}.${fraction}`;
};

const kobo = fc.integer({ min: 0, max: MAX_AMOUNT_KOBO });
const digits = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

describe('parseAmount', () => {
  it.each([
    ['1500', 150_000],
    [1500, 150_000],
    ['1500.5', 150_050],
    [1500.5, 150_050],
    ['1,500.50', 150_050],
    ['50,000.00', 5_000_000],
    ['1,234,567', 123_456_700],
    [' 1500 ', 150_000],
    ['\t10.05\n', 1005],
    ['0', 0],
    [0, 0],
    ['0.01', 1],
    [0.1, 10],
    ['999999999999.99', MAX_AMOUNT_KOBO],
    ['999,999,999,999.99', MAX_AMOUNT_KOBO],
  ])('accepts %j as %i kobo', (input, expected) => {
    // Act
    const result = parseAmount(input);
    // Assess
    expect(result).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['10.005'],
    [10.005],
    ['1,50.00'],
    ['1500,000'],
    ['1,5000'],
    [',500'],
    ['1 500'],
    ['1e3'],
    [1e21],
    [1e-7],
    ['-5'],
    [-1],
    ['+5'],
    [''],
    ['   '],
    ['.5'],
    ['5.'],
    ['1..5'],
    ['abc'],
    ['1000000000000.00'],
    ['999999999999.991'],
    [1_000_000_000_000],
    [Number.NaN],
    [Number.POSITIVE_INFINITY],
    [true],
    [null],
    [undefined],
    [{ amount: 5 }],
    [['5']],
  ])('rejects %j', (input) => {
    // Act
    const result = parseAmount(input);
    // Assess
    expect(result.ok).toBe(false);
  });

  it('names the expected format in its message', () => {
    // Act
    const result = parseAmount('10.005');
    // Assess
    expect(result).toEqual({ ok: false, message: expect.stringContaining('1,500.00') });
  });

  it.each([['-5'], [-5], [' -1,500.00 '], [-0.5]])('tells %j that it must not be negative', (input) => {
    expect(parseAmount(input)).toEqual({ ok: false, message: 'must not be negative' });
  });

  it.each([['-'], ['--5'], ['-10.005']])('keeps the format message for malformed %j', (input) => {
    expect(parseAmount(input)).toEqual({ ok: false, message: expect.stringContaining('1,500.00') });
  });

  it('rejects one kobo above the maximum', () => {
    // Prepare
    const justAbove = formatKobo(MAX_AMOUNT_KOBO + 1);
    // Act
    const result = parseAmount(justAbove);
    // Assess
    expect(justAbove).toBe('1000000000000.00');
    expect(result.ok).toBe(false);
  });

  it('round-trips formatKobo for every amount in range', () => {
    fc.assert(
      fc.property(kobo, (k) => {
        expect(parseAmount(formatKobo(k))).toEqual({ ok: true, value: k });
      }),
    );
  });

  it('parses the thousands-grouped rendering to the same value', () => {
    fc.assert(
      fc.property(kobo, (k) => {
        expect(parseAmount(groupThousands(formatKobo(k)))).toEqual({ ok: true, value: k });
      }),
    );
  });

  it('parses the JSON number form to the same value', () => {
    fc.assert(
      fc.property(kobo, (k) => {
        // Prepare
        const asNumber = k / 100;
        const exactDecimal = formatKobo(k).replace(/\.?0+$/, '') || '0';
        fc.pre(String(asNumber) === exactDecimal);
        // Act / Assess
        expect(parseAmount(asNumber)).toEqual({ ok: true, value: k });
      }),
    );
  });

  it('rejects any string with three or more decimals', () => {
    fc.assert(
      fc.property(digits(1, 12), digits(3, 8), (whole, fraction) => {
        expect(parseAmount(`${whole}.${fraction}`).ok).toBe(false);
      }),
    );
  });

  it('rejects any negative amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_AMOUNT_KOBO }), (k) => {
        expect(parseAmount(`-${formatKobo(k)}`).ok).toBe(false);
        expect(parseAmount(-k / 100).ok).toBe(false);
      }),
    );
  });
});

describe('formatKobo', () => {
  it.each([
    [150_050, '1500.50'],
    [0, '0.00'],
    [1, '0.01'],
    [10, '0.10'],
    [100, '1.00'],
    [MAX_AMOUNT_KOBO, '999999999999.99'],
  ])('formats %i as %s', (input, expected) => {
    expect(formatKobo(input)).toBe(expected);
  });

  it('always has exactly two decimals and no separators', () => {
    fc.assert(
      fc.property(kobo, (k) => {
        expect(formatKobo(k)).toMatch(/^(0|[1-9]\d*)\.\d{2}$/);
      }),
    );
  });
});

describe('parseQuantity', () => {
  it.each([
    ['3', 3],
    [3, 3],
    [2.0, 2],
    [' 7 ', 7],
    ['1', 1],
    [1_000_000, 1_000_000],
    ['1000000', 1_000_000],
  ])('accepts %j as %i', (input, expected) => {
    expect(parseQuantity(input)).toEqual({ ok: true, value: expected });
  });

  it.each([
    [0],
    ['0'],
    [-1],
    ['-1'],
    ['1.5'],
    [1.5],
    ['2.0'],
    ['1e3'],
    [1e7],
    ['1000001'],
    [1_000_001],
    [''],
    ['1 0'],
    [Number.NaN],
    [true],
    [null],
  ])('rejects %j', (input) => {
    expect(parseQuantity(input).ok).toBe(false);
  });

  it('accepts every integer in 1..1,000,000 as number or string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (q) => {
        expect(parseQuantity(q)).toEqual({ ok: true, value: q });
        expect(parseQuantity(String(q))).toEqual({ ok: true, value: q });
      }),
    );
  });
});

describe('sumLineTotals', () => {
  it('multiplies and sums exactly', () => {
    // Prepare
    const lines = [
      { quantity: 3, unitCostKobo: 150_050 },
      { quantity: 1, unitCostKobo: 0 },
      { quantity: 2, unitCostKobo: 1 },
    ];
    // Act
    const result = sumLineTotals(lines);
    // Assess
    expect(result).toEqual({ ok: true, value: 450_152 });
  });

  it('accepts a total of exactly the maximum and rejects one kobo more', () => {
    expect(sumLineTotals([{ quantity: 1, unitCostKobo: MAX_AMOUNT_KOBO }])).toEqual({
      ok: true,
      value: MAX_AMOUNT_KOBO,
    });
    expect(
      sumLineTotals([
        { quantity: 1, unitCostKobo: MAX_AMOUNT_KOBO },
        { quantity: 1, unitCostKobo: 1 },
      ]),
    ).toEqual({ ok: false, message: 'must not exceed 999999999999.99' });
  });

  it('equals BigInt arithmetic, and fails exactly when that exceeds the maximum', () => {
    const unitCost = fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), kobo);
    const line = fc.record({ quantity: fc.integer({ min: 1, max: 1_000_000 }), unitCostKobo: unitCost });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 100 }), (lines) => {
        // Prepare
        const expected = lines.reduce((sum, l) => sum + BigInt(l.quantity) * BigInt(l.unitCostKobo), 0n);
        // Act
        const result = sumLineTotals(lines);
        // Assess
        if (expected > BigInt(MAX_AMOUNT_KOBO)) expect(result.ok).toBe(false);
        else expect(result).toEqual({ ok: true, value: Number(expected) });
      }),
    );
  });
});
