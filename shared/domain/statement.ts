/**
 * A client statement (docs/api.md "Client statement"), pure: the period's ledger lines with a running balance between
 * an opening and a closing balance. The opening balance is the client's current balance less every line from the
 * period's first day on (docs/data-design.md "Receivables"): the lines before the period are never read.
 */
import type { LedgerLine, LedgerLineType } from './receivables.ts';
import { accept, type Decision, Refusal, refuse } from './refusal.ts';

/** More lines than this in one period: ask for a shorter one (a statement is not paged). */
export const MAX_STATEMENT_LINES = 5000;

export interface StatementLine {
  /** YYYY-MM-DD */
  date: string;
  type: LedgerLineType;
  referenceCode: string;
  description: string;
  debitKobo: number;
  creditKobo: number;
  /** The balance after this line. */
  balanceKobo: number;
  /** The invoice's number, when it has one. */
  number?: string;
  /** An invoice line's split (docs/tax.md "VAT"). */
  split?: LedgerLine['split'];
}

export interface Statement {
  openingKobo: number;
  lines: StatementLine[];
  closingKobo: number;
}

export const statementTooLarge = (): Refusal =>
  new Refusal(
    'statement_too_large',
    `The statement has more than ${MAX_STATEMENT_LINES} lines. Ask for a shorter period.`,
  );

const net = (line: Pick<LedgerLine, 'debitKobo' | 'creditKobo'>) => line.debitKobo - line.creditKobo;

/** The split of an invoice line kept before splits were: its whole debit, untaxed and undiscounted. */
const noSplit = (debitKobo: number) => ({ subtotalKobo: debitKobo, discountKobo: 0, taxKobo: 0 });

/**
 * The statement of [`from`, `to`] (YYYY-MM-DD) from the client's balance now and its lines dated `from` or later, in
 * date order (lines after `to` only move the opening balance back). Refused when the period has too many lines.
 */
export function buildStatement(
  currentBalanceKobo: number,
  linesSinceFrom: readonly LedgerLine[],
  range: { from: string; to: string },
): Decision<Statement> {
  let sinceFrom = 0;
  for (const line of linesSinceFrom) sinceFrom += net(line);
  const openingKobo = currentBalanceKobo - sinceFrom;
  const inPeriod = linesSinceFrom.filter((line) => line.date >= range.from && line.date <= range.to);
  if (inPeriod.length > MAX_STATEMENT_LINES) return refuse(statementTooLarge());
  let balanceKobo = openingKobo;
  const lines = inPeriod.map((line) => {
    balanceKobo += net(line);
    return {
      date: line.date,
      type: line.type,
      referenceCode: line.referenceCode,
      description: line.description,
      debitKobo: line.debitKobo,
      creditKobo: line.creditKobo,
      balanceKobo,
      ...(line.number === undefined ? {} : { number: line.number }),
      ...(line.type === 'invoice' ? { split: line.split ?? noSplit(line.debitKobo) } : {}),
    };
  });
  return accept({ openingKobo, lines, closingKobo: balanceKobo });
}
