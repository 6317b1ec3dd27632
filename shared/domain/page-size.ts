/**
 * How many payments a history page can carry (docs/api.md "Payment history and pagination": a page's body stays under
 * 5,000,000 bytes, because AWS Lambda cannot return more than 6 MB). Pure: works on byte lengths of the
 * payments as they will be sent, each serialised once.
 */

/** The largest history response body, in bytes. */
export const MAX_PAGE_BYTES = 5_000_000;

/** Room kept for everything around the payments: the envelope, period, dates and the next cursor. */
export const PAGE_ENVELOPE_RESERVE_BYTES = 8_192;

/**
 * The number of leading payments whose JSON (joined by commas) fits in `budgetBytes`; at least one, so
 * that every page makes progress even when a single payment is larger than the budget. Reads the sizes
 * lazily and stops at the first that does not fit, so a caller can serialise payments one by one and
 * never serialise more than one payment beyond the page.
 */
export function paymentsThatFit(
  byteLengths: Iterable<number>,
  budgetBytes = MAX_PAGE_BYTES - PAGE_ENVELOPE_RESERVE_BYTES,
): number {
  const page = new PageBudget(budgetBytes);
  for (const bytes of byteLengths) if (!page.take(bytes)) break;
  return page.count;
}

/** A page being filled payment by payment (the incremental form of `paymentsThatFit`). */
export class PageBudget {
  #total = 0;
  #count = 0;

  constructor(private readonly budgetBytes = MAX_PAGE_BYTES - PAGE_ENVELOPE_RESERVE_BYTES) {}

  /** Adds a payment of `bytes` if it fits (the first one always does); false when the page is full without it. */
  take(bytes: number): boolean {
    const total = this.#total + bytes + (this.#count > 0 ? 1 : 0);
    if (total > this.budgetBytes && this.#count > 0) return false;
    this.#total = total;
    this.#count++;
    return true;
  }

  /** Payments taken so far. */
  get count(): number {
    return this.#count;
  }
}

/**
 * How many leading payments of a history page need their invoice read, judged by each payment's size when it was
 * recorded (`undefined` when unknown: counted as fitting). Those that fit by that size, and the next one, so that
 * the page can find out from its real size that it does not fit. An invoice is immutable apart from its balance,
 * so the real sizes differ by a few bytes; if they turn out smaller, the caller reads the rest.
 */
export function paymentsWorthReading(
  recordedSizes: readonly (number | undefined)[],
  budgetBytes = MAX_PAGE_BYTES - PAGE_ENVELOPE_RESERVE_BYTES,
): number {
  const fit = paymentsThatFit(
    recordedSizes.map((size) => size ?? 0),
    budgetBytes,
  );
  return Math.min(recordedSizes.length, fit + 1);
}
