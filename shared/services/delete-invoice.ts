/**
 * Delete (void) an invoice (SPEC §13): one read, a decision, one transaction that sets `deleted_at` on condition that
 * nothing was paid meanwhile, with its `invoice.deleted` event. A concurrent payment and delete: exactly one commits.
 */
import { todayForOverdue } from '../clock.ts';
import { formatTimestamp } from '../domain/dates.ts';
import { decideInvoiceDeletion } from '../domain/invoice-deletion.ts';
import { invoiceVoided } from '../domain/receivables.ts';
import { invoiceDeletedEvents } from '../domain/webhook-events.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { deletionTransaction, invoiceFrom, invoiceKeys } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { receivableActions } from '../store/receivables.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import type { InvoiceDeletionAnswers } from './answers.ts';
import { type RequestContext, refusal } from './context.ts';

export function deleteInvoice(
  context: RequestContext,
  referenceCode: string,
  answers: InvoiceDeletionAnswers,
): Promise<WriteResult> {
  return executeWrite(
    {
      keys: () => invoiceKeys(referenceCode),
      decide: (items, attempt) => planDeletion(context, referenceCode, answers, items, attempt),
    },
    undefined,
  );
}

function planDeletion(
  context: RequestContext,
  referenceCode: string,
  answers: InvoiceDeletionAnswers,
  items: Map<string, Item>,
  attempt: number,
): WritePlan {
  const { companyId } = context.account;
  const invoice = invoiceFrom(items, referenceCode);
  const now = formatTimestamp(new Date());
  const decision = decideInvoiceDeletion(invoice, companyId, now);
  if (!decision.ok) return refusal(decision.error, context);
  const today = todayForOverdue(context.account.timeZone);
  if (decision.value.kind === 'already_deleted')
    return { actions: [], response: answers.deleted(invoice!, today).outcome };
  const { balance } = decision.value;
  const { data, outcome } = answers.deleted({ details: invoice!.details, balance }, today);
  const events = invoiceDeletedEvents(data, { companyId, createdAt: now, newUlid: newEventUlid });
  return {
    actions: [
      deletionTransaction(tableName(), referenceCode, companyId, invoice!.balance, balance),
      ...receivableActions(tableName(), invoiceVoided(invoice!, balance, context.account.timeZone), attempt),
      ...eventPuts(events),
    ],
    response: outcome,
  };
}
