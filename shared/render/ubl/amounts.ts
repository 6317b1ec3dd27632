/**
 * Every amount an e-invoice shows, derived from its lines in integer kobo (docs/e-invoice.md "Amounts"): the line net
 * amounts, one VAT breakdown per category and rate, and the document totals. The arithmetic is the invoices' own
 * (shared/domain/tax.ts: VAT once per rate on the sum of that rate's lines, half-up; inclusive VAT shared over the
 * lines by largest remainders), so the e-invoice's amounts are the invoice's to the kobo. Products are computed in
 * BigInt: quantity × price can pass 2^53 before the total is checked.
 */
import { apportion, divideHalfUp, parseVatRate, vatOf } from '../../domain/tax.ts';
import type { UblDocument, UblLine, VatCategory } from './document.ts';

export interface LineAmounts {
  line: UblLine;
  /** The line net amount: without VAT, after its discount. */
  netKobo: number;
  /** The discount without VAT (the line allowance); 0: none. */
  allowanceKobo: number;
  /** The net price of one unit, a decimal with 2 to 10 decimals (a converted price may need more than 2). */
  unitNetPrice: string;
}

export interface VatBreakdown {
  category: VatCategory;
  /** Absent for `O`. */
  ratePercent?: string;
  taxableKobo: number;
  taxKobo: number;
}

export interface UblAmounts {
  lines: LineAmounts[];
  breakdowns: VatBreakdown[];
  /** Σ line net amounts: also the total without VAT (there are no document-level allowances or charges). */
  lineTotalKobo: number;
  taxTotalKobo: number;
  /** The total with VAT. */
  totalKobo: number;
  prepaidKobo: number;
  payableKobo: number;
}

const PRICE_DECIMALS = 10;
const CATEGORY_ORDER: readonly VatCategory[] = ['S', 'Z', 'E', 'O'];

/** The rate in ten-thousandths of a percent (`7.5` → 75000), as the VAT setting reads it; 0 for a line without one. */
export function rateUnits(ratePercent: string | undefined): number {
  if (ratePercent === undefined) return 0;
  const parsed = parseVatRate(ratePercent);
  if (!parsed.ok) throw new RangeError(`UBL: not a VAT rate: "${ratePercent}"`);
  return parsed.value;
}

function toKobo(value: bigint): number {
  const kobo = Number(value);
  if (!Number.isSafeInteger(kobo)) throw new RangeError(`UBL: amount out of range: ${value}`);
  return kobo;
}

/** `numeratorKobo ÷ quantity` in currency units, rounded half-up to 10 decimals, trailing zeros after 2 dropped. */
export function unitPriceText(numeratorKobo: bigint, quantity: bigint): string {
  const scaled = divideHalfUp(numeratorKobo * 10n ** BigInt(PRICE_DECIMALS - 2), quantity);
  const digits = scaled.toString().padStart(PRICE_DECIMALS + 1, '0');
  const whole = digits.slice(0, -PRICE_DECIMALS);
  const fraction = digits.slice(-PRICE_DECIMALS).replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/** The key lines share a VAT breakdown by: their category and rate. */
const groupKey = (line: UblLine) => `${line.category} ${line.category === 'O' ? '' : rateUnits(line.ratePercent)}`;

/** What the client is charged for a line: quantity × price − discount, on the basis the price was entered. */
function chargedKobo(line: UblLine): bigint {
  return BigInt(line.quantity) * BigInt(line.unitPriceKobo) - BigInt(line.discountKobo ?? 0);
}

export function ublAmounts(document: UblDocument): UblAmounts {
  const groups: Record<string, UblLine[]> = {};
  for (const line of document.lines) (groups[groupKey(line)] ??= []).push(line);
  const perLine = new Map<UblLine, LineAmounts>();
  const breakdowns: VatBreakdown[] = [];
  for (const lines of Object.values(groups)) {
    const group = document.pricesIncludeVat ? inclusiveGroup(lines) : exclusiveGroup(lines);
    for (const amounts of group.lines) perLine.set(amounts.line, amounts);
    breakdowns.push(group.breakdown);
  }
  breakdowns.sort(byCategoryThenRate);
  return totals(
    document,
    document.lines.map((line) => perLine.get(line)!),
    breakdowns,
  );
}

function totals(document: UblDocument, lines: LineAmounts[], breakdowns: VatBreakdown[]): UblAmounts {
  const lineTotalKobo = toKobo(lines.reduce((sum, l) => sum + BigInt(l.netKobo), 0n));
  const taxTotalKobo = toKobo(breakdowns.reduce((sum, b) => sum + BigInt(b.taxKobo), 0n));
  const totalKobo = toKobo(BigInt(lineTotalKobo) + BigInt(taxTotalKobo));
  const prepaidKobo = document.prepaidKobo ?? 0;
  if (prepaidKobo < 0 || prepaidKobo > totalKobo) throw new RangeError('UBL: the prepaid amount exceeds the total');
  return {
    lines,
    breakdowns,
    lineTotalKobo,
    taxTotalKobo,
    totalKobo,
    prepaidKobo,
    payableKobo: totalKobo - prepaidKobo,
  };
}

function byCategoryThenRate(a: VatBreakdown, b: VatBreakdown): number {
  const byCategory = CATEGORY_ORDER.indexOf(a.category) - CATEGORY_ORDER.indexOf(b.category);
  if (byCategory !== 0) return byCategory;
  const [rateA, rateB] = [rateUnits(a.ratePercent), rateUnits(b.ratePercent)];
  return rateA === rateB ? 0 : rateA > rateB ? -1 : 1;
}

function breakdownOf(first: UblLine, taxable: bigint, tax: bigint): VatBreakdown {
  const breakdown: VatBreakdown = { category: first.category, taxableKobo: toKobo(taxable), taxKobo: toKobo(tax) };
  if (first.category !== 'O') breakdown.ratePercent = first.ratePercent ?? '0';
  return breakdown;
}

/** Net prices: VAT = rate × Σ line nets, rounded once. */
function exclusiveGroup(lines: UblLine[]): { lines: LineAmounts[]; breakdown: VatBreakdown } {
  const rate = rateUnits(lines[0]!.ratePercent);
  const amounts = lines.map((line) => ({
    line,
    netKobo: toKobo(chargedKobo(line)),
    allowanceKobo: line.discountKobo ?? 0,
    unitNetPrice: unitPriceText(BigInt(line.unitPriceKobo), 1n),
  }));
  const taxable = amounts.reduce((sum, a) => sum + BigInt(a.netKobo), 0n);
  return { lines: amounts, breakdown: breakdownOf(lines[0]!, taxable, vatOf('exclusive', taxable, rate)) };
}

/**
 * Prices with VAT: VAT = Σ charged × rate / (100 + rate), rounded once; the group's net is what was charged less that
 * VAT. The VAT is shared among the lines in proportion to what each was charged (largest remainders get the odd
 * kobo), so the line nets add up to the group's net exactly; each line's discount is converted to net likewise.
 */
function inclusiveGroup(lines: UblLine[]): { lines: LineAmounts[]; breakdown: VatBreakdown } {
  const rate = rateUnits(lines[0]!.ratePercent);
  const charged = lines.map(chargedKobo);
  const gross = charged.reduce((sum, c) => sum + c, 0n);
  const tax = vatOf('inclusive', gross, rate);
  const shares = apportion(tax, charged);
  const amounts = lines.map((line, i) => {
    const net = charged[i]! - shares[i]!;
    const discount = BigInt(line.discountKobo ?? 0);
    const discountNet = discount - vatOf('inclusive', discount, rate);
    return {
      line,
      netKobo: toKobo(net),
      allowanceKobo: toKobo(discountNet),
      unitNetPrice: unitPriceText(net + discountNet, BigInt(line.quantity)),
    };
  });
  return { lines: amounts, breakdown: breakdownOf(lines[0]!, gross - tax, tax) };
}
