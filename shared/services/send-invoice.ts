/**
 * Send an invoice (docs/api.md "Send an invoice"): one read, a decision, and one transaction that marks the invoice
 * `queued` and puts its mail job — the outbox the mailer works from (docs/sending-invoices.md "Delivery"). Nothing is
 * sent here: the answer only says that the e-mail is queued, which is true once the transaction committed.
 */
import { loadConfig } from '../config.ts';
import { formatTimestamp } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { decideSend, mailNotConfigured, normalisedSend, type SendRequest } from '../domain/invoice-mail.ts';
import { invoiceQueued } from '../representation/views.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, invoiceKeys, sendHeaderAction } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { mailJobPut, queuedMailJob } from '../store/mail.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';
import { getInvoice } from './read-invoice.ts';

export interface SendInvoiceRequest extends SendRequest {
  referenceCode: string;
}

/** `route` is the idempotency scope: the SDKs' `GET /invoices/send/{…}` or `POST /invoices/{…}/send`. */
export async function sendInvoice(
  context: RequestContext,
  request: SendInvoiceRequest,
  route: 'send-invoice' | 'email-invoice',
): Promise<WriteResult> {
  if (!loadConfig().mailFrom) {
    await getInvoice(context, request.referenceCode);
    throw mailNotConfigured();
  }
  return executeWrite(
    { keys: () => invoiceKeys(request.referenceCode), decide: (items) => planSend(context, request, items) },
    idempotencyOf(context, route, normalisedSend(request)),
  );
}

function planSend(context: RequestContext, request: SendInvoiceRequest, items: Map<string, Item>): WritePlan {
  const invoice = invoiceFrom(items, request.referenceCode);
  const decision = decideSend(invoice, context.account.companyId, request);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const nowMs = Date.now();
  const job = queuedMailJob({
    companyId: context.account.companyId,
    referenceCode: request.referenceCode,
    ...decision.value,
    message: request.message,
    createdAt: formatTimestamp(new Date(nowMs)),
  });
  const queued: Invoice = {
    ...invoice!,
    balance: { ...invoice!.balance, mail: { status: 'queued', jobId: job.jobId, sentAt: null, error: null } },
  };
  return {
    actions: [
      sendHeaderAction(tableName(), { ...job, version: invoice!.balance.version }),
      mailJobPut(tableName(), job, nowMs),
    ],
    response: invoiceQueued(queued, context.todayForOverdue),
  };
}
