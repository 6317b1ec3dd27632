/**
 * Issue a credit note on an invoice (docs/tax.md "Credit notes"): one read, a decision, one transaction. The invoice's
 * header moves from the version read (less due, its credit-note total counted: concurrent credit notes decide one after
 * the other, never above the cap); the note takes the account's next `CN-` number in the same transaction (gapless,
 * like invoice numbers: store/document-numbers.ts); what it credits beyond the amount due becomes the client's credit
 * (store/client-credit.ts, on condition of the balance's version read); its receivables items, its line on the hosted
 * page and `credit_note.created` go with it.
 */
import { receiveCredit } from '../domain/client-credit.ts';
import { type CreditNoteRequest, type IssuedCreditNote, issueCreditNote } from '../domain/credit-note-record.ts';
import { formatTimestamp, fromEpochSeconds, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { creditNoteChange } from '../domain/receivables.ts';
import { creditNoteDocument, creditNoteTax } from '../domain/tax-report.ts';
import { creditNoteCreatedEvents } from '../domain/webhook-events.ts';
import { creditNoteCreated } from '../representation/credit-note-answers.ts';
import { clientCreditKey, creditFrom } from '../store/client-credit.ts';
import { newCreditNoteActions } from '../store/credit-notes.ts';
import { documentCounterKey, lastNumberFrom, takeNumberAction } from '../store/document-numbers.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { creditNoteHeaderAction, invoiceFrom, invoiceKeys, loadInvoices } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { receivableActions } from '../store/receivables.ts';
import { taxDayUpdate } from '../store/tax-rows.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, type TransactItem, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { newUlid } from '../ulid.ts';
import { creditChangeWrites } from './client-credit.ts';
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';
import { oneAtATime } from './one-at-a-time.ts';

export interface CreditNoteWrite {
  referenceCode: string;
  request: CreditNoteRequest;
}

export function createCreditNote(context: RequestContext, write: CreditNoteWrite): Promise<WriteResult> {
  const { companyId } = context.account;
  const { referenceCode } = write;
  const idempotency = idempotencyOf(context, 'create-credit-note', { reference_code: referenceCode, ...write.request });
  // One number-taking write of the account at a time in this process (./one-at-a-time.ts), as add invoice does.
  return oneAtATime(`credit-note-number#${companyId}`, () =>
    executeWrite(
      {
        keys: async () => {
          // The invoice's client never changes: its credit balance is read with the rest (one item more).
          const client = await clientOfInvoice(companyId, referenceCode);
          return [
            ...invoiceKeys(referenceCode),
            documentCounterKey(companyId, 'credit_note'),
            ...(client === undefined ? [] : [clientCreditKey(companyId, client)]),
          ];
        },
        decide: (items, attempt) => planCreditNote(context, write, items, attempt),
      },
      idempotency,
    ),
  );
}

/** The client of the account's invoice, or undefined (none, or another account's: the decision answers 404). */
async function clientOfInvoice(companyId: number, referenceCode: string): Promise<number | undefined> {
  const invoice = (await loadInvoices([referenceCode])).get(referenceCode);
  return invoice?.details.companyId === companyId ? invoice.details.clientId : undefined;
}

function planCreditNote(
  context: RequestContext,
  write: CreditNoteWrite,
  items: Map<string, Item>,
  attempt: number,
): WritePlan {
  const { companyId } = context.account;
  const now = formatTimestamp(new Date());
  const invoice = invoiceFrom(items, write.referenceCode);
  const lastNumber = lastNumberFrom(items, companyId, 'credit_note');
  const issue = { companyId, id: `cn_${newUlid()}`, lastNumber, today: context.today, now };
  const decision = issueCreditNote(invoice, write.request, issue);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const issued = decision.value;
  const after: Invoice = { details: invoice!.details, balance: issued.balance };
  const answer = creditNoteCreated(issued.note, after, context.todayForOverdue);
  const events = creditNoteCreatedEvents(answer.data, { companyId, createdAt: now, newUlid: newEventUlid });
  const table = tableName();
  return {
    actions: [
      creditNoteHeaderAction(
        table,
        { referenceCode: write.referenceCode, companyId },
        invoice!.balance,
        issued.balance,
      ),
      ...newCreditNoteActions(table, issued.note, invoice!.details.hostedToken),
      takeNumberAction(table, companyId, 'credit_note', lastNumber),
      ...receivableActions(table, creditNoteChange(invoice!, issued.balance, issued.note), attempt),
      ...taxDayUpdate(
        companyId,
        toIsoDate(fromEpochSeconds(issued.note.issueDate)),
        noteTax(issued, invoice!),
        attempt,
      ),
      ...clientCreditActions(context, items, issued),
      ...eventPuts(events),
    ],
    response: answer,
  };
}

/** What the credit note takes off the tax report of its issue day (docs/tax.md "Tax report"). */
const noteTax = (issued: IssuedCreditNote, invoice: Invoice) => creditNoteTax(creditNoteDocument(issued.note, invoice));

/** What the credit note credits beyond the amount due, added to the client's credit (nothing when it is all taken). */
function clientCreditActions(
  context: RequestContext,
  items: Map<string, Item>,
  issued: IssuedCreditNote,
): TransactItem[] {
  const { note } = issued;
  const amountKobo = note.effect.clientCreditKobo;
  if (amountKobo === 0) return [];
  const ids = { companyId: note.companyId, clientId: note.clientId };
  const before = creditFrom(items, ids.companyId, ids.clientId);
  const line = {
    kind: 'received' as const,
    amountKobo,
    recordedAt: note.createdAt,
    date: toIsoDate(context.today),
    referenceCode: note.referenceCode,
  };
  return creditChangeWrites(ids, before, receiveCredit(before, amountKobo), line);
}
