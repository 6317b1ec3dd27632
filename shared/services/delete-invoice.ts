/**
 * Delete (void) an invoice (docs/api.md "Invoices: read, list, delete"): one read, a decision, one transaction that
 * sets `deleted_at` on condition that nothing was paid meanwhile, with its `invoice.deleted` event. A concurrent
 * payment and delete: exactly one commits. Its receivables items (docs/data-design.md "Receivables") are in the same
 * transaction.
 */
import type { CreditNote } from '../domain/credit-note-record.ts';
import { formatTimestamp, localDateOf, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { decideInvoiceDeletion } from '../domain/invoice-deletion.ts';
import { invoiceVoidedChange } from '../domain/receivables.ts';
import { creditNoteDocument, invoiceVoidedTax } from '../domain/tax-report.ts';
import { invoiceDeletedEvents } from '../domain/webhook-events.ts';
import { invoiceDeleted } from '../representation/views.ts';
import { queryCreditNotes } from '../store/credit-notes.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { deletionTransaction, invoiceFrom, invoiceKeys } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { receivableActions } from '../store/receivables.ts';
import { taxDayUpdate } from '../store/tax-rows.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, ReadAgain, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { type RequestContext, refusedWrite } from './context.ts';

export function deleteInvoice(context: RequestContext, referenceCode: string): Promise<WriteResult> {
  // Its credit notes, read before the invoice on each attempt: the void's tax entry nets them (docs/tax.md "Tax report").
  let creditNotes: CreditNote[] = [];
  return executeWrite(
    {
      keys: async () => {
        creditNotes = await queryCreditNotes(referenceCode);
        return invoiceKeys(referenceCode);
      },
      decide: (items, attempt) => planDeletion(context, referenceCode, { items, creditNotes }, attempt),
    },
    undefined,
  );
}

function planDeletion(
  context: RequestContext,
  referenceCode: string,
  read: { items: Map<string, Item>; creditNotes: CreditNote[] },
  attempt: number,
): WritePlan {
  const { items, creditNotes } = read;
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
      ...voidTax(context, invoice!, creditNotes, now, attempt),
      ...eventPuts(events),
    ],
    response: answer,
  };
}

/**
 * The void's reversing entry on the void day (docs/tax.md "Tax report"). A credit note committed between the Query of
 * the credit notes and the invoice's read shows in the header's credit-note total only: read both again.
 */
function voidTax(context: RequestContext, invoice: Invoice, creditNotes: CreditNote[], now: string, attempt: number) {
  const noted = creditNotes.reduce((sum, note) => sum + note.totalKobo, 0);
  if (noted !== (invoice.balance.creditNotesKobo ?? 0)) throw new ReadAgain();
  const figures = invoiceVoidedTax(
    invoice,
    creditNotes.map((note) => creditNoteDocument(note, invoice)),
  );
  const day = toIsoDate(localDateOf(now, context.account.timeZone));
  return taxDayUpdate(context.account.companyId, day, figures, attempt);
}
