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
  let total = 0;
  let count = 0;
  for (const bytes of byteLengths) {
    total += bytes + (count > 0 ? 1 : 0);
    if (total > budgetBytes) return Math.max(1, count);
    count++;
  }
  return count;
}
