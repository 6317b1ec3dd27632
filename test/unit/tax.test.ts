import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_KOBO, MAX_QUANTITY, sumLineTotals } from '../../shared/domain/money.ts';
import {
  apportion,
  creditNoteByAmount,
  parseVatRate,
  TAX_CATEGORIES,
  type TaxCategory,
  type TaxLineInput,
  type TaxSplit,
  taxInvoice,
  type VatMode,
  type VatSetting,
} from '../../shared/domain/tax.ts';

const VAT_7_5 = 75_000;
const vat = (mode: VatMode, rateUnits = VAT_7_5): VatSetting => ({ mode, rateUnits });
const line = (unitCostKobo: number, more: Partial<TaxLineInput> = {}): TaxLineInput => ({
  quantity: 1,
  unitCostKobo,
  ...more,
});

function split(lines: TaxLineInput[], setting: VatSetting): TaxSplit {
  const result = taxInvoice(lines, setting);
  if (!result.ok) throw new Error(`refused: ${result.refusal.message}`);
  return result.value;
}

/** Half-up VAT written out again: the reference the module is held to. */
const referenceVat = (base: bigint, rateUnits: number, inclusive: boolean): bigint => {
  const denominator = inclusive ? 1_000_000n + BigInt(rateUnits) : 1_000_000n;
  const scaled = base * BigInt(rateUnits);
  const floor = scaled / denominator;
  return 2n * (scaled - floor * denominator) >= denominator ? floor + 1n : floor;
};

describe('taxInvoice: examples', () => {
  it('exclusive: 3 × ₦1,000 at 7.5 % adds ₦225 of VAT', () => {
    expect(split([line(100_000, { quantity: 3 })], vat('exclusive'))).toEqual({
      subtotalKobo: 300_000,
      discountTotalKobo: 0,
      taxTotalKobo: 22_500,
      totalKobo: 322_500,
      taxes: [{ name: 'VAT', category: 'standard', rate: '7.5', taxableKobo: 300_000, amountKobo: 22_500 }],
      lines: [{ amountKobo: 300_000, discountKobo: 0, netKobo: 300_000, tax: 'standard' }],
    });
  });

  it('rounds once per invoice, not per line: two lines of ₦100.06 carry ₦15.01, not 2 × ₦7.50', () => {
    // Each line alone: 750.45 kobo → 750; together: 1,500.9 → 1,501.
    const result = split([line(10_006), line(10_006)], vat('exclusive'));
    expect(result.taxTotalKobo).toBe(1501);
    expect(result.totalKobo).toBe(20_012 + 1501);
  });

  it('rounds once per invoice: three 7-kobo lines carry 2 kobo (1.575), where each line alone would round up to 1', () => {
    expect(split([line(7), line(7), line(7)], vat('exclusive')).taxTotalKobo).toBe(2);
  });

  it.each([
    [20, 2], // 1.5 → 2 (half up)
    [19, 1], // 1.425
    [100, 8], // 7.5 → 8
    [6, 0], // 0.45
  ])('exclusive rounds half up: a net of %i kobo carries %i kobo', (net, tax) => {
    expect(split([line(net)], vat('exclusive')).taxTotalKobo).toBe(tax);
  });

  it('inclusive: ₦1,075 holds ₦75 of VAT on a net of ₦1,000', () => {
    const result = split([line(107_500)], vat('inclusive'));
    expect(result).toMatchObject({ subtotalKobo: 100_000, taxTotalKobo: 7_500, totalKobo: 107_500 });
    expect(result.taxes).toEqual([
      { name: 'VAT', category: 'standard', rate: '7.5', taxableKobo: 100_000, amountKobo: 7_500 },
    ]);
  });

  it('inclusive with a discount: subtotal is the line amounts less VAT, so total = subtotal − discounts + tax', () => {
    // Gross ₦1,075 less ₦75 = ₦1,000 gross, of which VAT 69.77 (6,976.74 kobo rounded).
    const result = split([line(107_500, { discountKobo: 7_500 })], vat('inclusive'));
    expect(result).toMatchObject({
      subtotalKobo: 107_500 - 6_977,
      discountTotalKobo: 7_500,
      taxTotalKobo: 6_977,
      totalKobo: 100_000,
    });
    expect(result.lines[0]).toEqual({ amountKobo: 107_500, discountKobo: 7_500, netKobo: 93_023, tax: 'standard' });
  });

  it('inclusive shares the one VAT over the standard lines exactly (the lines nets add up to the taxable amount)', () => {
    const result = split([line(50_000), line(50_000), line(10_000, { tax: 'exempt' })], vat('inclusive'));
    expect(result.taxTotalKobo).toBe(6_977);
    expect(result.lines.map((l) => l.netKobo)).toEqual([46_511, 46_512, 10_000]);
    expect(result.taxes.map((t) => [t.category, t.taxableKobo, t.amountKobo])).toEqual([
      ['standard', 93_023, 6_977],
      ['exempt', 10_000, 0],
    ]);
  });

  it('zero-rated and exempt lines carry no VAT and appear as their own entries, in a fixed order', () => {
    const lines = [line(40_000, { tax: 'exempt' }), line(100_000), line(20_000, { tax: 'zero' })];
    const result = split(lines, vat('exclusive'));
    expect(result.taxes).toEqual([
      { name: 'VAT', category: 'standard', rate: '7.5', taxableKobo: 100_000, amountKobo: 7_500 },
      { name: 'VAT', category: 'zero', rate: '0', taxableKobo: 20_000, amountKobo: 0 },
      { name: 'VAT', category: 'exempt', rate: '0', taxableKobo: 40_000, amountKobo: 0 },
    ]);
    expect(result.totalKobo).toBe(167_500);
  });

  it('off: no tax, no entries; a discount still reduces its line', () => {
    const result = split([line(50_000, { quantity: 2, discountKobo: 10_000 })], vat('off'));
    expect(result).toEqual({
      subtotalKobo: 100_000,
      discountTotalKobo: 10_000,
      taxTotalKobo: 0,
      totalKobo: 90_000,
      taxes: [],
      lines: [{ amountKobo: 100_000, discountKobo: 10_000, netKobo: 90_000, tax: 'standard' }],
    });
  });

  it('refuses a discount above its line amount, naming the item', () => {
    const result = taxInvoice([line(100), line(100, { quantity: 2, discountKobo: 201 })], vat('off'));
    expect(!result.ok && result.refusal.code).toBe('validation_failed');
    expect(!result.ok && result.refusal.errors.map((e) => e.field)).toEqual(['items.1.discount']);
  });

  it('refuses, without overflowing, amounts beyond the money maximum', () => {
    const lines = Array.from({ length: 100 }, () => line(MAX_AMOUNT_KOBO, { quantity: MAX_QUANTITY }));
    const result = taxInvoice(lines, vat('exclusive'));
    expect(!result.ok && result.refusal.errors[0]?.field).toBe('items');
  });

  it('refuses a total pushed over the maximum by VAT', () => {
    expect(taxInvoice([line(MAX_AMOUNT_KOBO)], vat('exclusive')).ok).toBe(false);
    expect(taxInvoice([line(MAX_AMOUNT_KOBO)], vat('inclusive')).ok).toBe(true);
  });

  it('a rate with 4 decimals is kept and shown as given', () => {
    const rate = parseVatRate('7.1234');
    expect(rate).toEqual({ ok: true, value: 71_234 });
    expect(split([line(100_000)], vat('exclusive', 71_234)).taxes[0]?.rate).toBe('7.1234');
  });
});

const category = fc.constantFrom<TaxCategory>(...TAX_CATEGORIES);
// Mostly amounts an invoice has; now and then ones near or beyond the maximum.
const unitCost = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 1_000_000 }), weight: 8 },
  { arbitrary: fc.integer({ min: 0, max: 10_000_000_000 }), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: MAX_AMOUNT_KOBO }), weight: 1 },
);
const quantity = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 10 }), weight: 4 },
  { arbitrary: fc.integer({ min: 1, max: MAX_QUANTITY }), weight: 1 },
);
const taxLine = fc
  .record({ quantity, unitCostKobo: unitCost, tax: category, discountShare: fc.option(fc.double({ min: 0, max: 1 })) })
  .map(({ discountShare, ...rest }): TaxLineInput => {
    const amount = rest.quantity * rest.unitCostKobo; // test data only: kept to a discount that fits the line
    const discountKobo = discountShare === null ? 0 : Math.min(Math.floor(amount * discountShare), MAX_AMOUNT_KOBO);
    return { ...rest, discountKobo: Number.isSafeInteger(discountKobo) ? discountKobo : 0 };
  });
const setting = fc.record({
  mode: fc.constantFrom<VatMode>('off', 'exclusive', 'inclusive'),
  rateUnits: fc.oneof(fc.constant(VAT_7_5), fc.integer({ min: 0, max: 1_000_000 })),
});
const sumOf = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('taxInvoice: properties over 10,000 invoices', () => {
  it('adds up to the kobo, VAT once per invoice, never negative, refused only beyond the maximum', () => {
    fc.assert(
      fc.property(fc.array(taxLine, { minLength: 1, maxLength: 8 }), setting, (lines, vatSetting) => {
        const gross = lines.reduce((a, l) => a + BigInt(l.quantity) * BigInt(l.unitCostKobo), 0n);
        const discounts = lines.reduce((a, l) => a + BigInt(l.discountKobo ?? 0), 0n);
        const standard = lines.filter((l) => l.tax === 'standard');
        const standardBase = standard.reduce(
          (a, l) => a + BigInt(l.quantity) * BigInt(l.unitCostKobo) - BigInt(l.discountKobo!),
          0n,
        );
        const expectedVat =
          vatSetting.mode === 'off'
            ? 0n
            : referenceVat(standardBase, vatSetting.rateUnits, vatSetting.mode === 'inclusive');
        const expectedTotal = gross - discounts + (vatSetting.mode === 'exclusive' ? expectedVat : 0n);
        const result = taxInvoice(lines, vatSetting);
        expect(result.ok).toBe(gross <= BigInt(MAX_AMOUNT_KOBO) && expectedTotal <= BigInt(MAX_AMOUNT_KOBO));
        if (!result.ok) return;
        const s = result.value;
        expect(BigInt(s.taxTotalKobo)).toBe(expectedVat);
        expect(BigInt(s.totalKobo)).toBe(expectedTotal);
        expect(s.totalKobo).toBe(s.subtotalKobo - s.discountTotalKobo + s.taxTotalKobo);
        expect(s.taxTotalKobo).toBeGreaterThanOrEqual(0);
        expect(sumOf(s.lines.map((l) => l.netKobo)) + s.taxTotalKobo).toBe(s.totalKobo);
        expect(sumOf(s.taxes.map((t) => t.amountKobo))).toBe(s.taxTotalKobo);
        if (vatSetting.mode !== 'off')
          expect(sumOf(s.taxes.map((t) => t.taxableKobo))).toBe(s.totalKobo - s.taxTotalKobo);
        for (const c of TAX_CATEGORIES) {
          const nets = s.lines.filter((l) => l.tax === c).map((l) => l.netKobo);
          const entry = s.taxes.find((t) => t.category === c);
          if (vatSetting.mode !== 'off') expect(entry?.taxableKobo ?? 0).toBe(sumOf(nets));
        }
        expect(s.lines.every((l) => l.netKobo >= 0 && l.netKobo <= l.amountKobo - l.discountKobo)).toBe(true);
      }),
      { numRuns: 10_000 },
    );
  });

  it('off leaves existing totals unchanged: without discounts the total is Σ quantity × unit cost', () => {
    fc.assert(
      fc.property(fc.array(taxLine, { minLength: 1, maxLength: 8 }), (lines) => {
        const plain = lines.map((l) => ({ ...l, discountKobo: 0 }));
        const existing = sumLineTotals(plain);
        const result = taxInvoice(plain, vat('off'));
        expect(result.ok).toBe(existing.ok);
        if (result.ok && existing.ok)
          expect(result.value).toMatchObject({ totalKobo: existing.value, taxTotalKobo: 0 });
      }),
      { numRuns: 10_000 },
    );
  });

  it('inclusive gives back what exclusive added: an exclusive invoice of nets N totals G per category; an inclusive one priced at G gives back N and the same VAT', () => {
    // Why it always holds: exclusive VAT V = N·r + d with |d| ≤ ½; inclusive takes G·r/(1 + r) = V − d/(1 + r), which is
    // within ½ of V for any r > 0 (and r = 0 is trivial), so it rounds back to V.
    fc.assert(
      fc.property(fc.array(taxLine, { minLength: 1, maxLength: 8 }), setting, (lines, { rateUnits }) => {
        const exclusive = taxInvoice(lines, vat('exclusive', rateUnits));
        fc.pre(exclusive.ok);
        if (!exclusive.ok) return;
        const grossLines = exclusive.value.taxes.map((t) => line(t.taxableKobo + t.amountKobo, { tax: t.category }));
        const inclusive = split(grossLines, vat('inclusive', rateUnits));
        expect(inclusive.taxes).toEqual(exclusive.value.taxes);
        expect(inclusive.totalKobo).toBe(exclusive.value.totalKobo);
      }),
      { numRuns: 10_000 },
    );
  });

  it('the other way round to the kobo: the net an inclusive invoice gives back, taxed exclusive, lands within 1 kobo of its gross', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Math.floor(MAX_AMOUNT_KOBO / 2) }), setting, (gross, { rateUnits }) => {
        const inclusive = split([line(gross)], vat('inclusive', rateUnits));
        const exclusive = split([line(inclusive.subtotalKobo)], vat('exclusive', rateUnits));
        expect(Math.abs(exclusive.totalKobo - gross)).toBeLessThanOrEqual(1);
        expect(Math.abs(exclusive.taxTotalKobo - inclusive.taxTotalKobo)).toBeLessThanOrEqual(1);
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('apportion', () => {
  it('splits exactly, each part within 1 kobo of its share (property)', () => {
    const weights = fc.array(fc.bigInt({ min: 0n, max: BigInt(MAX_AMOUNT_KOBO) }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(weights, fc.bigInt({ min: 0n, max: BigInt(MAX_AMOUNT_KOBO) }), (w, total) => {
        const sum = w.reduce((a, b) => a + b, 0n);
        fc.pre(sum > 0n);
        const parts = apportion(total, w);
        expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
        parts.forEach((part, i) => {
          const exact = total * w[i]!; // part × sum lies within one sum of it
          expect(part * sum - exact < sum && exact - part * sum < sum).toBe(true);
        });
      }),
    );
  });
});

describe('creditNoteByAmount', () => {
  const invoice = split(
    [line(100_000), line(20_000, { tax: 'zero' }), line(40_000, { tax: 'exempt' })],
    vat('exclusive'),
  );

  it("splits a gross amount over the invoice's categories by what each contributed, VAT taken out once", () => {
    // The invoice: ₦1,075 standard (VAT included), ₦200 zero-rated, ₦400 exempt: ₦1,675. Credit ₦167.50, a tenth.
    const note = creditNoteByAmount(16_750, { vat: vat('exclusive'), taxes: invoice.taxes });
    expect(note).toEqual({
      subtotalKobo: 16_000,
      discountTotalKobo: 0,
      taxTotalKobo: 750,
      totalKobo: 16_750,
      taxes: [
        { name: 'VAT', category: 'standard', rate: '7.5', taxableKobo: 10_000, amountKobo: 750 },
        { name: 'VAT', category: 'zero', rate: '0', taxableKobo: 2_000, amountKobo: 0 },
        { name: 'VAT', category: 'exempt', rate: '0', taxableKobo: 4_000, amountKobo: 0 },
      ],
      lines: [],
    });
  });

  it('with VAT off, one untaxed amount', () => {
    const note = creditNoteByAmount(5_000, { vat: vat('off'), taxes: [] });
    expect(note).toMatchObject({ subtotalKobo: 5_000, taxTotalKobo: 0, totalKobo: 5_000, taxes: [] });
  });

  it('adds up exactly, and the whole total credited gives back the invoice split (property)', () => {
    fc.assert(
      fc.property(fc.array(taxLine, { minLength: 1, maxLength: 6 }), setting, (lines, vatSetting) => {
        const result = taxInvoice(lines, vatSetting);
        fc.pre(result.ok && result.value.totalKobo > 0);
        if (!result.ok) return;
        const credited = { vat: vatSetting, taxes: result.value.taxes };
        const whole = creditNoteByAmount(result.value.totalKobo, credited);
        expect(whole.taxes).toEqual(result.value.taxes);
        const part = creditNoteByAmount(Math.floor(result.value.totalKobo / 3), credited);
        expect(part.subtotalKobo + part.taxTotalKobo).toBe(part.totalKobo);
        expect(sumOf(part.taxes.map((t) => t.taxableKobo + t.amountKobo))).toBe(
          vatSetting.mode === 'off' ? 0 : part.totalKobo,
        );
        expect(sumOf(part.taxes.map((t) => t.amountKobo))).toBe(part.taxTotalKobo);
      }),
      { numRuns: 2_000 },
    );
  });
});
