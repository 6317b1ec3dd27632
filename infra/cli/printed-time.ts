/**
 * Every time the CLI prints is UTC `YYYY-MM-DD HH:MM:SS` (docs/accounts.md "Output and errors"). The delivery states keep some
 * times as ISO 8601 (an attempt's, the next attempt's); those are printed in the same form as the rest.
 */
import { formatTimestamp } from '../../shared/domain/dates.ts';

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

/** A stored time as the CLI prints it; one already in that form (or none) as it is. */
export function printedTime(stored: string | null): string | null {
  if (stored === null || !ISO_INSTANT.test(stored)) return stored;
  const date = new Date(stored);
  return Number.isNaN(date.getTime()) ? stored : formatTimestamp(date);
}
