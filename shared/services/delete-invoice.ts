/**
 * Delete (void) an invoice (docs/api.md "Invoices: read, list, delete"): one read, a decision, one transaction that
 * sets `deleted_at` on condition that nothing was paid meanwhile, with its `invoice.deleted` event. A concurrent
 * payment and delete: exactly one commits. Its receivables items (docs/data-design.md "Receivables") are in the same
 * transaction, and so is the client's credit when the void takes back what the invoice's credit notes gave it.
 */
import type { CreditNote } from '../domain/credit-note-record.ts';
import { formatTimestamp, localDateOf, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { type CreditTakenBack, decideInvoiceDeletion } from '../domain/invoice-deletion.ts';
import { invoiceVoidedChange } from '../domain/receivables.ts';
import { creditNoteDocument, invoiceVoidedTax } from '../domain/tax-report.ts';
import { invoiceDeletedEvents } from '../domain/webhook-events.ts';
import { invoiceDeleted } from '../representation/views.ts';
import { clientCreditKey, creditFrom } from '../store/client-credit.ts';
import { queryCreditNotes } from '../store/credit-notes.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { deletionTransaction, invoiceFrom, invoiceKeys } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { receivableActions } from '../store/receivables.ts';
import { taxDayUpdate } from '../store/tax-rows.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import {
  executeWrite,
  ReadAgain,
  type TransactItem,
  type WritePlan,
  type WriteResult,
} from '../store/write-executor.ts';
import { creditChangeWrites } from './client-credit.ts';
import { type RequestContext, refusedWrite } from './context.ts';

export function deleteInvoice(context: RequestContext, referenceCode: string): Promise<WriteResult> {
  // Its credit notes, read before the invoice on each attempt: the void's tax entry nets them (docs/tax.md "Tax report").
  let creditNotes: CreditNote[] = [];
  return executeWrite(
    {
      keys: async () => {
        creditNotes = await queryCreditNotes(referenceCode);
        // Credit notes may have given the client credit that the void takes back: its credit is decided on too.
        const client = creditNotes[0]?.clientId;
        const credit = client === undefined ? [] : [clientCreditKey(context.account.companyId, client)];
        return [...invoiceKeys(referenceCode), ...credit];
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
  if (invoice && creditNotesChanged(invoice, creditNotes)) throw new ReadAgain();
  const credit = invoice && creditFrom(items, companyId, invoice.details.clientId);
  const decision = decideInvoiceDeletion(invoice, companyId, now, credit);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  if (decision.value.kind === 'already_deleted')
    return { actions: [], response: invoiceDeleted(invoice!, context.todayForOverdue) };
  const { balance, credit: takenBack } = decision.value;
  const answer = invoiceDeleted({ details: invoice!.details, balance }, context.todayForOverdue);
  const events = invoiceDeletedEvents(answer.data, { companyId, createdAt: now, newUlid: newEventUlid });
  return {
    actions: [
      deletionTransaction(tableName(), referenceCode, companyId, invoice!.balance, balance),
      ...receivableActions(tableName(), invoiceVoidedChange(invoice!, balance, context.account.timeZone), attempt),
      ...voidTax(context, invoice!, creditNotes, now, attempt),
      ...(takenBack ? creditTakenBackWrites(context, invoice!, takenBack, now) : []),
      ...eventPuts(events),
    ],
    response: answer,
  };
}

/**
 * A credit note committed between the Query of the credit notes and the invoice's read shows in the header's
 * credit-note total only: the void's tax entry and the client credit read would miss it (read both again).
 */
function creditNotesChanged(invoice: Invoice, creditNotes: CreditNote[]): boolean {
  const noted = creditNotes.reduce((sum, note) => sum + note.totalKobo, 0);
  return noted !== (invoice.balance.creditNotesKobo ?? 0);
}

/** What the invoice's credit notes gave the client's credit, taken back as applied to the voided invoice. */
function creditTakenBackWrites(
  context: RequestContext,
  invoice: Invoice,
  taken: CreditTakenBack,
  now: string,
): TransactItem[] {
  const line = {
    kind: 'applied' as const,
    amountKobo: taken.amountKobo,
    recordedAt: now,
    date: toIsoDate(localDateOf(now, context.account.timeZone)),
    referenceCode: invoice.details.referenceCode,
  };
  const ids = { companyId: invoice.details.companyId, clientId: invoice.details.clientId };
  return creditChangeWrites(ids, taken.before, taken.after, line);
}

/** The void's reversing entry on the void day (docs/tax.md "Tax report"). */
function voidTax(context: RequestContext, invoice: Invoice, creditNotes: CreditNote[], now: string, attempt: number) {
  const figures = invoiceVoidedTax(
    invoice,
    creditNotes.map((note) => creditNoteDocument(note, invoice)),
  );
  const day = toIsoDate(localDateOf(now, context.account.timeZone));
  return taxDayUpdate(context.account.companyId, day, figures, attempt);
}
