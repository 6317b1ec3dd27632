/**
 * A client statement (docs/api.md "Client statement"): the client, the period's effective range (payment history's
 * rules), and the statement built from the client's current balance and its ledger lines since the period began —
 * two reads of the client's own items, checked to have seen the same writes (docs/data-design.md "Receivables").
 */
import { todayForOverdue } from '../clock.ts';
import { formatDayFirst, fromIsoDate, toIsoDate } from '../domain/dates.ts';

import type { ClientRecord } from '../domain/invoice.ts';
import type { Logo } from '../domain/logo.ts';
import { buildStatement, MAX_STATEMENT_LINES, type Statement } from '../domain/statement.ts';
import { type StatementDocument, statementDocument } from '../render/statement-document.ts';
import { statementCreditView } from '../representation/bank-transfer-answers.ts';

import { type StatementView, statementView } from '../representation/report-views.ts';
import type { ClientStatementInput } from '../schemas/history.ts';
import { getAccountLogo } from '../store/account-logo.ts';
import type { Account } from '../store/accounts.ts';
import { queryClientAgingRows } from '../store/aging.ts';
import { queryCreditLines, readClientCredit } from '../store/client-credit.ts';
import { queryLedgerSince } from '../store/ledger.ts';
import { ConflictsOutlastedDeadlineError } from '../store/write-executor.ts';
import type { RequestContext } from './context.ts';
import { effectiveRange } from './history-listing.ts';
import { merchantOf } from './invoice-document.ts';
import { clientRecord } from './read-clients.ts';

/** Reads of a statement before giving up on a client that is being written to all the time (503, retry). */
const CONSISTENT_READ_ATTEMPTS = 3;

/** A client's statement of a range (YYYY-MM-DD), as read: what the JSON, CSV, PDF and e-mail are each made from. */
export interface ClientStatementReading {
  client: ClientRecord;
  range: { from: string; to: string };
  statement: Statement;
}

/** The statement of `client` (already read and visible to its account) over `range`; 400 when it has too many lines. */
export async function readStatementOf(
  client: ClientRecord,
  range: { from: string; to: string },
): Promise<ClientStatementReading> {
  const [balance, lines] = await balanceAndLinesSince(client.companyId, client.id, range);
  const built = buildStatement(balance, lines, range);
  if (!built.ok) throw built.refusal;
  return { client, range, statement: built.value };
}

/**
 * 400 `statement_too_large` when the period has more lines than a statement shows — the statement send's check before
 * it queues the e-mail (the mailer reads the statement itself when it sends). It needs the period's lines only, not a
 * balance consistent with them, so writes to the client meanwhile never hold it up.
 */
export async function refuseTooLargeStatement(
  client: ClientRecord,
  range: { from: string; to: string },
): Promise<void> {
  const atMost = { lines: MAX_STATEMENT_LINES, to: range.to };
  const built = buildStatement(0, await queryLedgerSince(client.companyId, client.id, range.from, atMost), range);
  if (!built.ok) throw built.refusal;
}

/** The client (404 for another account's or an unknown one) and the period's effective range (YYYY-MM-DD). */
export async function statementRequest(context: RequestContext, clientId: number, input: ClientStatementInput) {
  const client = await clientRecord(context, clientId);
  const range = effectiveRange(context, input);
  return { client, range: { from: toIsoDate(range.from), to: toIsoDate(range.to) } };
}

export async function clientStatement(
  context: RequestContext,
  clientId: number,
  input: ClientStatementInput,
): Promise<StatementView & { credit: ReturnType<typeof statementCreditView> }> {
  const { client, range } = await statementRequest(context, clientId, input);
  const { companyId } = context.account;
  const [{ statement }, creditLines, credit] = await Promise.all([
    readStatementOf(client, range),
    queryCreditLines(companyId, client.id, range),
    readClientCredit(companyId, client.id),
  ]);
  const dayFirst = (iso: string) => formatDayFirst(fromIsoDate(iso));
  const { currency } = context.account;
  const of = { client, period: input.period, start: dayFirst(range.from), end: dayFirst(range.to), currency };
  return { ...statementView(of, statement), credit: statementCreditView(creditLines, credit.balanceKobo) };
}

/** The statement as its client reads it, for the PDF (docs/receivables.md "One client: the statement"). */
export async function clientStatementDocument(
  context: RequestContext,
  clientId: number,
  input: ClientStatementInput,
): Promise<StatementDocument> {
  const { client, range } = await statementRequest(context, clientId, input);
  const [reading, logo] = await Promise.all([readStatementOf(client, range), getAccountLogo(client.companyId)]);
  return statementDocumentOf(reading, context.account, logo);
}

/** The document of a statement read for `account`, on the account's today. */
export function statementDocumentOf(
  reading: ClientStatementReading,
  account: Account,
  logo: Logo | undefined,
): StatementDocument {
  return statementDocument({
    ...reading,
    merchant: merchantOf(account, logo),
    today: todayForOverdue(account.timeZone),
    currency: account.currency,
  });
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
