/**
 * VAT and discounts on an invoice or a credit note, pure and exact (docs/decisions.md "VAT and discounts"). A line's amount
 * is quantity × unit cost, its discount at most that, and what remains is taxed by category: `standard` at the
 * account's rate, `zero` at 0 %, `exempt` not at all. VAT is rounded half-up to the kobo once per invoice, on the sum
 * of the standard lines, never line by line. `exclusive`: the lines exclude VAT and it is added. `inclusive`: the lines
 * include it and it is taken out (gross × rate / (100 + rate)). `off`: no VAT; discounts still reduce.
 * Everything is computed in BigInt; amounts the invoice would show beyond the money maximum are refused.
 */
import { MAX_AMOUNT_KOBO } from './money.ts';
import { formatPercent, parsePercent } from './percent.ts';
import { accept, type Decision, type FieldError, invalidFields, refuse } from './refusal.ts';
import type { ParseResult } from './result.ts';

export const VAT_MODES = ['off', 'exclusive', 'inclusive'] as const;
export type VatMode = (typeof VAT_MODES)[number];

export const TAX_CATEGORIES = ['standard', 'zero', 'exempt'] as const;
export type TaxCategory = (typeof TAX_CATEGORIES)[number];

/** The UBL tax category code of each (UNCL5305); `O` is an invoice of an account with VAT `off` (outside VAT). */
export const UBL_TAX_CATEGORY = { standard: 'S', zero: 'Z', exempt: 'E', off: 'O' } as const;

/** A VAT rate is held in ten-thousandths of a percent: 7.5 % is 75,000 (up to 4 decimals, exact). */
export const VAT_RATE_DECIMALS = 4;
const RATE_SCALE = 1_000_000n; // units in 100 %

/** The account's VAT setting, which an invoice keeps as it was when the invoice was created. */
export interface VatSetting {
  mode: VatMode;
  /** In ten-thousandths of a percent. */
  rateUnits: number;
}

/** No VAT by default (existing totals unchanged); Nigeria's 7.5 % once an account turns it on. */
export const DEFAULT_VAT: Readonly<VatSetting> = { mode: 'off', rateUnits: 75_000 };

/** A VAT rate setting ("7.5": 0–100, at most 4 decimals) in ten-thousandths of a percent. */
export const parseVatRate = (input: unknown): ParseResult<number> => parsePercent(input, VAT_RATE_DECIMALS);

export interface TaxLineInput {
  quantity: number;
  unitCostKobo: number;
  /** Default 0; at most quantity × unit cost. */
  discountKobo?: number | undefined;
  /** Default `standard`. */
  tax?: TaxCategory | undefined;
}

export interface TaxedLine {
  /** quantity × unit cost (VAT included in `inclusive` mode). */
  amountKobo: number;
  discountKobo: number;
  /** After the discount and without VAT; in `inclusive` mode its share of the invoice's VAT is taken out. */
  netKobo: number;
  tax: TaxCategory;
}

/** One row of `taxes` per category the invoice has lines in (none with VAT `off`): a report and UBL read these. */
export interface TaxEntry {
  name: 'VAT';
  category: TaxCategory;
  /** The rate as given ("7.5"); "0" for zero-rated and exempt. */
  rate: string;
  /** The category's lines after discounts, without VAT (for `exempt`: the exempt amount). */
  taxableKobo: number;
  amountKobo: number;
}

/**
 * An invoice's or credit note's split. `totalKobo` = subtotal − discount total + tax total, and = Σ line amounts −
 * discounts (+ VAT when exclusive). `subtotalKobo` is Σ line amounts without VAT: in `inclusive` mode Σ line amounts −
 * the VAT, so that the same equation holds.
 */
export interface TaxSplit {
  subtotalKobo: number;
  discountTotalKobo: number;
  taxTotalKobo: number;
  totalKobo: number;
  taxes: TaxEntry[];
  lines: TaxedLine[];
}

/** Half-up rounding of numerator / denominator (both ≥ 0, denominator > 0). */
export const divideHalfUp = (numerator: bigint, denominator: bigint): bigint =>
  (2n * numerator + denominator) / (2n * denominator);

/** The VAT in an exclusive net (rate × net) or an inclusive gross (gross × rate / (100 + rate)), half-up, once. */
export function vatOf(mode: 'exclusive' | 'inclusive', base: bigint, rateUnits: number): bigint {
  const rate = BigInt(rateUnits);
  return divideHalfUp(base * rate, mode === 'exclusive' ? RATE_SCALE : RATE_SCALE + rate);
}

/**
 * Splits `total` over `weights` in proportion, exactly (largest remainders: each part is the floor of its share, and
 * the kobo left go one each to the largest remainders, the earlier first on a tie).
 */
export function apportion(total: bigint, weights: readonly bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) {
    if (total !== 0n) throw new RangeError('apportion: no weight to split a non-zero amount by');
    return weights.map(() => 0n);
  }
  const parts = weights.map((w) => (total * w) / sum);
  const remainders = weights.map((w, index) => ({ index, remainder: (total * w) % sum }));
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  let left = total - parts.reduce((a, b) => a + b, 0n);
  for (const { index } of remainders) {
    if (left === 0n) break;
    parts[index]! += 1n;
    left -= 1n;
  }
  return parts;
}

interface ExactLine {
  amount: bigint;
  discount: bigint;
  net: bigint;
  tax: TaxCategory;
}

/** The invoice's split, or a `validation_failed` refusal (a discount above its line, amounts beyond the maximum). */
export function taxInvoice(inputs: readonly TaxLineInput[], vat: VatSetting): Decision<TaxSplit> {
  const errors: FieldError[] = [];
  const lines = inputs.map((input, index): ExactLine => {
    const amount = BigInt(assertKobo(input.quantity, 'quantity')) * BigInt(assertKobo(input.unitCostKobo, 'unit cost'));
    const discount = BigInt(assertKobo(input.discountKobo ?? 0, 'discount'));
    if (discount > amount)
      errors.push({ code: 'invalid_amount', field: `items.${index}.discount`, message: DISCOUNT_TOO_LARGE });
    return { amount, discount, net: amount - discount, tax: input.tax ?? 'standard' };
  });
  if (errors.length > 0) return refuse(invalidFields(errors));
  const { vatKobo, taxes } = vatOfLines(lines, vat);
  const gross = sum(lines.map((line) => line.amount));
  const discounts = sum(lines.map((line) => line.discount));
  const subtotal = vat.mode === 'inclusive' ? gross - vatKobo : gross;
  const total = subtotal - discounts + vatKobo;
  if (gross > MAX || total > MAX)
    return refuse(invalidFields([{ code: 'invalid_amount', field: 'items', message: TOTAL_TOO_LARGE }]));
  return accept({
    subtotalKobo: Number(subtotal),
    discountTotalKobo: Number(discounts),
    taxTotalKobo: Number(vatKobo),
    totalKobo: Number(total),
    taxes,
    lines: linesWithoutVat(lines, vat.mode === 'inclusive' ? vatKobo : 0n),
  });
}

const MAX = BigInt(MAX_AMOUNT_KOBO);
const DISCOUNT_TOO_LARGE = 'must not exceed the line amount (quantity × unit_cost)';
const TOTAL_TOO_LARGE = 'the invoice amounts must not exceed 999999999999.99';

function vatOfLines(lines: readonly ExactLine[], vat: VatSetting): { vatKobo: bigint; taxes: TaxEntry[] } {
  if (vat.mode === 'off') return { vatKobo: 0n, taxes: [] };
  const bases = new Map<TaxCategory, bigint>();
  for (const line of lines) bases.set(line.tax, (bases.get(line.tax) ?? 0n) + line.net);
  const standard = bases.get('standard') ?? 0n;
  const vatKobo = vatOf(vat.mode, standard, vat.rateUnits);
  // Inclusive: the standard lines are gross, so their taxable amount is that gross less the VAT in it.
  const taxable = (category: TaxCategory, base: bigint) =>
    category === 'standard' && vat.mode === 'inclusive' ? base - vatKobo : base;
  const taxes = TAX_CATEGORIES.filter((category) => bases.has(category)).map(
    (category): TaxEntry => ({
      name: 'VAT',
      category,
      rate: category === 'standard' ? formatPercent(vat.rateUnits, VAT_RATE_DECIMALS) : '0',
      taxableKobo: Number(taxable(category, bases.get(category)!)),
      amountKobo: category === 'standard' ? Number(vatKobo) : 0,
    }),
  );
  return { vatKobo, taxes };
}

/** Each line's net without VAT: inclusive VAT is shared over the standard lines by their amounts, exactly. */
function linesWithoutVat(lines: readonly ExactLine[], inclusiveVat: bigint): TaxedLine[] {
  const standard = lines.map((line) => (line.tax === 'standard' ? line.net : 0n));
  const shares = apportion(inclusiveVat, standard);
  return lines.map((line, index) => ({
    amountKobo: Number(line.amount),
    discountKobo: Number(line.discount),
    netKobo: Number(line.net - shares[index]!),
    tax: line.tax,
  }));
}

/** What a credit note by amount needs of its invoice. */
export interface CreditedInvoice {
  /** The invoice's VAT setting (its rate when it was created). */
  vat: VatSetting;
  /** The invoice's `taxes` (empty with VAT `off`). */
  taxes: readonly TaxEntry[];
}

/**
 * A credit note for a gross amount (VAT included): the amount is split over the invoice's tax categories in
 * proportion to what each contributed to the invoice's total (largest remainders: the parts add up exactly), and the
 * VAT in the standard part is taken out as in `inclusive` mode, rounded once. With VAT `off` it is one untaxed amount.
 */
export function creditNoteByAmount(amountKobo: number, invoice: CreditedInvoice): TaxSplit {
  const amount = BigInt(assertKobo(amountKobo, 'amount'));
  const { vat, taxes: invoiceTaxes } = invoice;
  const split = (vatKobo: bigint, taxes: TaxEntry[]): TaxSplit => ({
    subtotalKobo: Number(amount - vatKobo),
    discountTotalKobo: 0,
    taxTotalKobo: Number(vatKobo),
    totalKobo: Number(amount),
    taxes,
    lines: [],
  });
  if (vat.mode === 'off' || invoiceTaxes.length === 0) return split(0n, []);
  const weights = invoiceTaxes.map((entry) => BigInt(entry.taxableKobo + entry.amountKobo));
  const parts = apportion(amount, weights);
  const taxes = invoiceTaxes.map((entry, index): TaxEntry => {
    const part = parts[index]!;
    const vatKobo = entry.category === 'standard' ? vatOf('inclusive', part, vat.rateUnits) : 0n;
    return { ...entry, taxableKobo: Number(part - vatKobo), amountKobo: Number(vatKobo) };
  });
  return split(sum(taxes.map((entry) => BigInt(entry.amountKobo))), taxes);
}

function sum(values: readonly bigint[]): bigint {
  return values.reduce((a, b) => a + b, 0n);
}

function assertKobo(n: number, what: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative safe integer: ${n}`);
  return n;
}
