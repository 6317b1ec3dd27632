/**
 * Delete (void) an invoice (docs/api.md "Invoices: read, list, delete"): one read, a decision, one transaction that
 * sets `deleted_at` on condition that nothing was paid meanwhile, with its `invoice.deleted` event. A concurrent
 * payment and delete: exactly one commits. Its receivables items (docs/data-design.md "Receivables") are in the same
 * transaction.
 */
import { formatTimestamp } from '../domain/dates.ts';
import { decideInvoiceDeletion } from '../domain/invoice-deletion.ts';
import { invoiceVoidedChange } from '../domain/receivables.ts';
import { invoiceDeletedEvents } from '../domain/webhook-events.ts';
import { invoiceDeleted } from '../representation/views.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { deletionTransaction, invoiceFrom, invoiceKeys } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { receivableActions } from '../store/receivables.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { type RequestContext, refusedWrite } from './context.ts';

export function deleteInvoice(context: RequestContext, referenceCode: string): Promise<WriteResult> {
  return executeWrite(
    {
      keys: () => invoiceKeys(referenceCode),
      decide: (items, attempt) => planDeletion(context, referenceCode, items, attempt),
    },
    undefined,
  );
}

function planDeletion(
  context: RequestContext,
  referenceCode: string,
  items: Map<string, Item>,
  attempt: number,
): WritePlan {
  const { companyId } = context.account;
  const invoice = invoiceFrom(items, referenceCode);
  const now = formatTimestamp(new Date());
  const decision = decideInvoiceDeletion(invoice, companyId, now);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  if (decision.value.kind === 'already_deleted')
    return { actions: [], response: invoiceDeleted(invoice!, context.todayForOverdue) };
  const { balance } = decision.value;
  const answer = invoiceDeleted({ details: invoice!.details, balance }, context.todayForOverdue);
  const events = invoiceDeletedEvents(answer.data, { companyId, createdAt: now, newUlid: newEventUlid });
  return {
    actions: [
      deletionTransaction(tableName(), referenceCode, companyId, invoice!.balance, balance),
      ...receivableActions(tableName(), invoiceVoidedChange(invoice!, balance, context.account.timeZone), attempt),
      ...eventPuts(events),
    ],
    response: answer,
  };
}
