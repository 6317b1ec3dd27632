/**
 * Money as a person reads it (`₦1,500.50`), for the page, the PDF and the e-mail; the API's own form (`"1500.50"`,
 * no separators) is shared/domain/money.ts `formatKobo`. The signs are ones the PDF's font (Noto Sans) draws.
 */
import { formatKobo } from '../domain/money.ts';

const SIGNS: Record<string, string> = { NGN: '₦', USD: '$', GBP: '£', EUR: '€', GHS: 'GH₵' };

/** Groups of three digits separated by commas, two decimals, prefixed by the currency's sign (or its code). */
export function formatMoney(kobo: number, currency: string): string {
  const [units, cents] = formatKobo(kobo).split('.') as [string, string];
  const negative = units.startsWith('-');
  const digits = negative ? units.slice(1) : units;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const sign = SIGNS[currency] ?? `${currency} `;
  return `${negative ? '-' : ''}${sign}${grouped}.${cents}`;
}
