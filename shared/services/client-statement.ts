/**
 * A client statement (docs/api.md "Client statement"): the client, the period's effective range (payment history's
 * rules), and the statement built from the client's current balance and its ledger lines since the period began —
 * two reads of the client's own items, checked to have seen the same writes (docs/data-design.md "Receivables").
 */
import { formatDayFirst, fromIsoDate, toIsoDate } from '../domain/dates.ts';
import { buildStatement, MAX_STATEMENT_LINES } from '../domain/statement.ts';
import { statementCreditView } from '../representation/bank-transfer-answers.ts';
import { type StatementView, statementView } from '../representation/report-views.ts';
import type { ClientStatementInput } from '../schemas/history.ts';
import { queryClientAgingRows } from '../store/aging.ts';
import { queryCreditLines, readClientCredit } from '../store/client-credit.ts';
import { queryLedgerSince } from '../store/ledger.ts';
import { ConflictsOutlastedDeadlineError } from '../store/write-executor.ts';
import type { RequestContext } from './context.ts';
import { effectiveRange } from './history-listing.ts';
import { clientRecord } from './read-clients.ts';

/** Reads of a statement before giving up on a client that is being written to all the time (503, retry). */
const CONSISTENT_READ_ATTEMPTS = 3;

export async function clientStatement(
  context: RequestContext,
  clientId: number,
  input: ClientStatementInput,
): Promise<StatementView & { credit: ReturnType<typeof statementCreditView> }> {
  const { account } = context;
  const client = await clientRecord(context, clientId); // 404 for another account's or an unknown client
  const range = effectiveRange(context, input);
  const from = toIsoDate(range.from);
  const to = toIsoDate(range.to);
  const [[balance, lines], creditLines, credit] = await Promise.all([
    balanceAndLinesSince(account.companyId, client.id, { from, to }),
    queryCreditLines(account.companyId, client.id, { from, to }),
    readClientCredit(account.companyId, client.id),
  ]);
  const built = buildStatement(balance, lines, { from, to });
  if (!built.ok) throw built.refusal;
  const dayFirst = (iso: string) => formatDayFirst(fromIsoDate(iso));
  const of = { client, period: input.period, start: dayFirst(from), end: dayFirst(to), currency: account.currency };
  return { ...statementView(of, built.value), credit: statementCreditView(creditLines, credit.balanceKobo) };
}

/**
 * The client's balance now (Σ its aging rows) and its lines from `from` on, as of one moment: the rows' `changes`
 * count every write of the client, so equal counts before and after the ledger read mean no write fell between. A
 * client written to throughout every attempt is answered like a write that kept conflicting: 503, retry shortly.
 */
async function balanceAndLinesSince(companyId: number, clientId: number, range: { from: string; to: string }) {
  for (let attempt = 1; attempt <= CONSISTENT_READ_ATTEMPTS; attempt++) {
    const before = await queryClientAgingRows(companyId, clientId);
    const lines = await queryLedgerSince(companyId, clientId, range.from, { lines: MAX_STATEMENT_LINES, to: range.to });
    const after = await queryClientAgingRows(companyId, clientId);
    if (after.changes === before.changes) {
      const balance = after.rows.reduce((sum, row) => sum + row.outstandingKobo, 0);
      return [balance, lines] as const;
    }
  }
  throw new ConflictsOutlastedDeadlineError();
}
