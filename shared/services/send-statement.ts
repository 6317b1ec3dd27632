/**
 * E-mail a client's statement (docs/receivables.md "One client: the statement"): the period's lines are counted first, so that
 * a period too long for one (400 `statement_too_large`) is refused with nothing written; then one transaction puts the mail job —
 * the outbox the mailer works from, as an invoice's send does. The mailer reads the statement again and draws its PDF
 * when it sends it, so the e-mail shows the period as it stands then.
 */
import { loadConfig } from '../config.ts';
import { visibleClient } from '../domain/client.ts';
import { formatDayFirst, formatTimestamp, fromIsoDate } from '../domain/dates.ts';
import { mailNotConfigured } from '../domain/invoice-mail.ts';
import { decideStatementRecipient } from '../domain/statement-mail.ts';
import { statementQueued } from '../representation/report-views.ts';
import type { SendStatementInput } from '../schemas/history.ts';
import { clientFrom, clientKey } from '../store/clients.ts';
import { tableName } from '../store/dynamodb-client.ts';
import type { Item } from '../store/items.ts';
import { mailJobPut, queuedMailJob, type StatementMail } from '../store/mail.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { refuseTooLargeStatement, statementRequest } from './client-statement.ts';
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';

export async function sendStatement(
  context: RequestContext,
  clientId: number,
  input: SendStatementInput,
): Promise<WriteResult> {
  const { client, range } = await statementRequest(context, clientId, input); // 404, 400 invalid_period
  if (!loadConfig().mailFrom) throw mailNotConfigured();
  const recipient = decideStatementRecipient(client, input.to);
  if (!recipient.ok) throw recipient.refusal;
  await refuseTooLargeStatement(client, range); // 400 statement_too_large
  const statement: StatementMail = { clientId, ...range };
  const key = clientKey(context.account.companyId, clientId);
  return executeWrite(
    {
      keys: () => [key],
      decide: (items) => planSend(context, { statement, to: input.to, period: input.period }, items),
    },
    idempotencyOf(context, 'send-client-statement', { clientId, ...input }),
  );
}

interface SendPlan {
  statement: StatementMail;
  to: string | undefined;
  period: string;
}

function planSend(context: RequestContext, plan: SendPlan, items: Map<string, Item>): WritePlan {
  const { companyId } = context.account;
  const visible = visibleClient(clientFrom(items, clientKey(companyId, plan.statement.clientId)), companyId, {
    includeDeleted: true,
  });
  if (!visible.ok) return refusedWrite(visible.refusal, context);
  const recipient = decideStatementRecipient(visible.value, plan.to);
  if (!recipient.ok) return refusedWrite(recipient.refusal, context);
  const nowMs = Date.now();
  const job = queuedMailJob({
    companyId,
    referenceCode: '',
    to: recipient.value,
    createdAt: formatTimestamp(new Date(nowMs)),
    statement: plan.statement,
  });
  const dayFirst = (iso: string) => formatDayFirst(fromIsoDate(iso));
  const of = { period: plan.period, start: dayFirst(plan.statement.from), end: dayFirst(plan.statement.to) };
  return {
    actions: [mailJobPut(tableName(), job, nowMs)],
    response: statementQueued({ clientId: plan.statement.clientId, to: job.to, jobId: job.jobId, ...of }),
  };
}
