/**
 * An invoice's tax split as its client reads it (docs/tax.md "What the client sees"): the rows between the items and
 * the total — subtotal, discount, VAT per category — and each line's discount and category. Part of the invoice
 * document (./invoice-document.ts), so the page, the PDF and the e-mail show the same rows. An invoice without VAT or
 * discounts has none: it reads as it always did.
 */
import type { InvoiceTax } from '../domain/invoice.ts';
import type { TaxCategory, TaxEntry } from '../domain/tax.ts';

/** A labelled amount of the split. */
export interface SplitRow {
  label: string;
  amount: string;
}

const VAT_LABELS: Record<TaxCategory, (entry: TaxEntry, taxable: string) => string> = {
  standard: (entry, taxable) => `VAT ${entry.rate}% on ${taxable}`,
  zero: (_entry, taxable) => `VAT 0% (zero-rated) on ${taxable}`,
  exempt: (_entry, taxable) => `Exempt from VAT: ${taxable}`,
};

/**
 * The rows shown above the total. Exclusive (and off): the subtotal, the discount, then the VAT of each category. Inclusive: the
 * subtotal with its VAT, the discount, then the VAT each category includes.
 */
export function splitRows(tax: InvoiceTax, money: (kobo: number) => string): SplitRow[] {
  const { mode } = tax.vat;
  if (mode === 'off' && tax.discountTotalKobo === 0) return [];
  const inclusive = mode === 'inclusive';
  const rows: SplitRow[] = [
    inclusive
      ? { label: 'Subtotal (incl. VAT)', amount: money(tax.subtotalKobo + tax.taxTotalKobo) }
      : { label: 'Subtotal', amount: money(tax.subtotalKobo) },
  ];
  if (tax.discountTotalKobo > 0) rows.push({ label: 'Discount', amount: money(-tax.discountTotalKobo) });
  for (const entry of tax.taxes) {
    const label = VAT_LABELS[entry.category](entry, money(entry.taxableKobo));
    rows.push({ label: inclusive ? `Included: ${label}` : label, amount: money(entry.amountKobo) });
  }
  return rows;
}

/** How a line's category is named beside it: only when the invoice has VAT and the line is not standard-rated. */
export function lineTaxLabel(tax: InvoiceTax, category: TaxCategory): string | undefined {
  if (tax.vat.mode === 'off' || category === 'standard') return undefined;
  return category === 'zero' ? 'Zero-rated' : 'Exempt from VAT';
}
