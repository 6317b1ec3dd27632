/**
 * Pause or resume an invoice's reminders (docs/api.md "Reminders"): one read, a decision, one conditional update of the
 * header. Resuming an open invoice wakes it for the next sweep, so that a reminder due today is sent today.
 */
import type { Invoice } from '../domain/invoice.ts';
import { isOpen } from '../domain/overdue.ts';
import { decideRemindersChange, NO_REMINDERS, type RemindersRequest } from '../domain/reminders.ts';
import { invoiceRemindersUpdated } from '../representation/answers.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, invoiceKeys } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { remindersPauseAction } from '../store/reminders.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';

export interface ChangeRemindersRequest extends RemindersRequest {
  referenceCode: string;
}

export function changeReminders(context: RequestContext, request: ChangeRemindersRequest): Promise<WriteResult> {
  return executeWrite(
    { keys: () => invoiceKeys(request.referenceCode), decide: (items) => planChange(context, request, items) },
    idempotencyOf(context, 'invoice-reminders', request),
  );
}

function planChange(context: RequestContext, request: ChangeRemindersRequest, items: Map<string, Item>): WritePlan {
  const decision = decideRemindersChange(invoiceFrom(items, request.referenceCode), context.account.companyId);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const invoice = decision.value;
  const reminders = invoice.balance.reminders ?? NO_REMINDERS;
  const changed: Invoice = {
    ...invoice,
    balance: { ...invoice.balance, reminders: { ...reminders, paused: request.paused } },
  };
  const action = remindersPauseAction(tableName(), {
    referenceCode: request.referenceCode,
    companyId: context.account.companyId,
    version: invoice.balance.version,
    paused: request.paused,
    wake: !request.paused && isOpen(invoice.balance),
  });
  return { actions: [action], response: invoiceRemindersUpdated(changed, context.todayForOverdue) };
}
