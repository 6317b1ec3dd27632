/**
 * Send an invoice (docs/api.md "Send an invoice"): one read, a decision, and one transaction that marks the invoice
 * `queued` and puts its mail job — the outbox the mailer works from (docs/sending-invoices.md "Delivery"). Nothing is
 * sent here: the answer only says that the e-mail is queued, which is true once the transaction committed.
 */
import { todayForOverdue } from '../clock.ts';
import { formatTimestamp } from '../domain/dates.ts';
import { decideSend, type SendRequest } from '../domain/invoice-mail.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { idempotencyRequest } from '../store/idempotency.ts';
import { invoiceFrom, invoiceKeys } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { type MailJob, newMailJobId, sendActions } from '../store/mail-jobs.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import type { SendAnswers } from './answers.ts';
import { type RequestContext, refusal } from './context.ts';

export interface SendInvoiceRequest extends SendRequest {
  referenceCode: string;
}

/** `route` is the idempotency scope: the SDKs' `GET /invoices/send/{…}` or `POST /invoices/{…}/send`. */
export function sendInvoice(
  context: RequestContext,
  request: SendInvoiceRequest,
  answers: SendAnswers,
  route: 'send-invoice' | 'email-invoice',
): Promise<WriteResult> {
  const { companyId } = context.account;
  const idempotency =
    context.idempotencyKey === undefined
      ? undefined
      : idempotencyRequest(companyId, route, context.idempotencyKey, request);
  return executeWrite(
    { keys: () => invoiceKeys(request.referenceCode), decide: (items) => planSend(context, request, answers, items) },
    idempotency,
  );
}

function planSend(
  context: RequestContext,
  request: SendInvoiceRequest,
  answers: SendAnswers,
  items: Map<string, Item>,
): WritePlan {
  const { companyId } = context.account;
  const invoice = invoiceFrom(items, request.referenceCode);
  const decision = decideSend(invoice, companyId, request);
  if (!decision.ok) return refusal(decision.error, context);
  const nowMs = Date.now();
  const job: MailJob = {
    jobId: newMailJobId(),
    companyId,
    referenceCode: request.referenceCode,
    to: decision.value.to,
    cc: decision.value.cc,
    message: request.message,
    state: 'queued',
    attempts: 0,
    createdAt: formatTimestamp(new Date(nowMs)),
    lastAttemptAt: null,
    nextAttemptAt: null,
    lastError: null,
    sesMessageId: null,
    sentAt: null,
  };
  const queued = {
    ...invoice!,
    balance: { ...invoice!.balance, mail: { status: 'queued' as const, jobId: job.jobId, sentAt: null, error: null } },
  };
  const { outcome } = answers.queued(queued, todayForOverdue(context.account.timeZone));
  return { actions: sendActions(tableName(), job, invoice!.balance.version, nowMs), response: outcome };
}
