/**
 * Add invoice (docs/api.md "Add invoice"): one read, a decision, one transaction; every uniqueness rule is a condition,
 * and the invoice's number is the account's next (docs/tax.md "Numbers"): taken in the same transaction, on condition
 * that the counter still holds the value read, so only an invoice that commits consumes one.
 */

import { firstCollectionDay } from '../domain/card-collection.ts';
import { type ClientCredit, NO_CREDIT } from '../domain/client-credit.ts';
import { type CalendarDate, formatTimestamp, fromEpochSeconds } from '../domain/dates.ts';
import { formatDocumentNumber } from '../domain/document-number.ts';
import { generateHostedToken } from '../domain/hosted-token.ts';
import {
  buildInvoice,
  type ClientChoice,
  decideInvoice,
  type Invoice,
  invoiceListedAt,
  issueDateError,
  newClient,
  requestedSplit,
} from '../domain/invoice.ts';
import { invoiceIssuedChange, issueDayOf } from '../domain/receivables.ts';
import { generateReferenceCode } from '../domain/reference-code.ts';
import { cardTokenRefusal, namesSavedCard } from '../domain/saved-card.ts';
import { invoiceIssuedTax } from '../domain/tax-report.ts';
import { invoiceCreatedEvents } from '../domain/webhook-events.ts';
import { invoiceCreated } from '../representation/views.ts';
import type { AddInvoiceInput } from '../schemas/invoice.ts';
import { itemOf } from '../store/batch.ts';
import { newCollectionPut } from '../store/card-collections.ts';
import { savedCardFrom, savedCardKey } from '../store/cards.ts';
import { clientCreditKey, creditFrom, creditUnchanged } from '../store/client-credit.ts';
import { clientFrom, clientLookupKey, clientStillExists, newClientActions } from '../store/clients.ts';
import { documentCounterKey, lastNumberFrom, takeNumberAction } from '../store/document-numbers.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { merchantRefKey } from '../store/invoice-lookups.ts';
import { newInvoiceActions } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import type { Key } from '../store/keys.ts';
import { receivableActions } from '../store/receivables.ts';
import { claimId, IdAllocator, sequenceActions } from '../store/sequences.ts';
import { taxDayUpdate } from '../store/tax-rows.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import {
  executeWrite,
  stillExists,
  type TransactItem,
  type WritePlan,
  type WriteResult,
} from '../store/write-executor.ts';
import { applyCreditAfterInvoice } from './client-credit.ts';
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';
import { oneAtATime } from './one-at-a-time.ts';

/**
 * What a caller adds to an invoice's write (a recurring series' period: services/recurring-sweep.ts): items to read
 * with it, a decision before it, the invoice's origin and a queued send, actions committed in its transaction.
 */
export interface InvoiceExtension {
  keys: Key[];
  /** A plan answers instead of the invoice (nothing of it is written); undefined goes on with the invoice. */
  before?(items: Map<string, Item>): WritePlan | undefined;
  shape?(invoice: Invoice): Invoice;
  actions?(invoice: Invoice): TransactItem[];
}

export async function addInvoice(
  context: RequestContext,
  input: AddInvoiceInput,
  extension?: InvoiceExtension,
): Promise<WriteResult> {
  const { companyId } = context.account;
  refuseBeforeReading(context, input);
  const write = invoiceWrite(context, input, extension);
  const idempotency = idempotencyOf(context, 'add-invoice', input);
  try {
    // One number-taking write of the account at a time in this process (./one-at-a-time.ts).
    const result = await oneAtATime(`invoice-number#${companyId}`, () =>
      executeWrite(
        {
          keys: async () => [
            write.clientKey,
            documentCounterKey(companyId, 'invoice'),
            ...(write.refKey ? [write.refKey] : []),
            ...(write.cardKey ? [write.cardKey] : []),
            ...(write.creditKey ? [write.creditKey] : []),
            ...(await write.invoiceIds.keysToRead()),
            ...(input.client ? await write.clientIds.keysToRead() : []),
            ...(extension?.keys ?? []),
          ],
          settle(committed) {
            write.invoiceIds.settle(committed);
            write.clientIds.settle(committed);
          },
          decide: (items, attempt) => planInvoice(write, items, attempt),
        },
        idempotency,
      ),
    );
    await applyCreditAfterInvoice(result, write.creditSeen?.balanceKobo);
    return result;
  } finally {
    write.invoiceIds.release();
    write.clientIds.release();
  }
}

/** What is refused before any database work: an issue date after today, a discount above its line, a zero or over-the-cap total. */
function refuseBeforeReading(context: RequestContext, input: AddInvoiceInput): void {
  const issueError = issueDateError(input.issue_date, context.today, context.account.timeZone);
  if (issueError) throw issueError;
  requestedSplit(input, context.account.vat);
}

function invoiceWrite(context: RequestContext, input: AddInvoiceInput, extension?: InvoiceExtension): InvoiceWrite {
  const { companyId } = context.account;
  const table = tableName();
  return {
    context,
    input,
    clientKey: clientLookupKey(companyId, input),
    refKey: input.merchant_ref === undefined ? undefined : merchantRefKey(companyId, input.merchant_ref),
    cardKey:
      input.card_token !== undefined && namesSavedCard(input.card_token)
        ? savedCardKey(companyId, input.card_token)
        : undefined,
    creditKey: input.client_id === undefined ? undefined : clientCreditKey(companyId, input.client_id),
    creditSeen: undefined,
    invoiceIds: new IdAllocator(table, companyId, 'invoice'),
    clientIds: new IdAllocator(table, companyId, 'client'),
    extension,
  };
}

interface InvoiceWrite {
  context: RequestContext;
  input: AddInvoiceInput;
  /** Where the client is looked up: by id, or by email for a new one. */
  clientKey: Key;
  /** The merchant_ref's uniqueness item, when one was sent. */
  refKey: Key | undefined;
  /** The saved card a `card_token` of this service names (docs/getting-paid-online.md "Saved cards"). */
  cardKey: Key | undefined;
  /** A client named by id: its credit is read with the rest and held unchanged by the transaction. */
  creditKey: Key | undefined;
  /** The credit the last attempt read (what applying credit after the invoice goes by). */
  creditSeen: ClientCredit | undefined;
  invoiceIds: IdAllocator;
  clientIds: IdAllocator;
  extension: InvoiceExtension | undefined;
}

/**
 * From what was read: the refusal, or the invoice (and its new client), its receivables items, the id claims and the
 * event, as one transaction.
 */
function planInvoice(write: InvoiceWrite, items: Map<string, Item>, attempt: number): WritePlan {
  const { context, input, refKey, extension } = write;
  const { account } = context;
  const instead = extension?.before?.(items);
  if (instead) return instead;
  const merchantRefTaken = refKey !== undefined && itemOf(items, refKey) !== undefined;
  const decision = decideInvoice(account, input, { client: clientFrom(items, write.clientKey), merchantRefTaken });
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const now = formatTimestamp(new Date());
  const existingClient = 'existing' in decision.value ? decision.value.existing.id : undefined;
  const card = write.cardKey && savedCardFrom(items, write.cardKey);
  const cardRefusal = cardTokenRefusal(input.card_token, card, existingClient);
  if (cardRefusal) return refusedWrite(cardRefusal, context);
  const chosen = clientFor(write, decision.value, items, now);
  const invoiceId = claimId(write.invoiceIds, items);
  const ids = { invoiceId: invoiceId.id, referenceCode: generateReferenceCode(), hostedToken: generateHostedToken() };
  const lastNumber = lastNumberFrom(items, account.companyId, 'invoice');
  const issue = {
    vat: account.vat,
    number: formatDocumentNumber(account.invoicePrefix, lastNumber + 1),
    today: context.today,
  };
  const built = buildInvoice(input, chosen.client, ids, account.currency, now, issue);
  const invoice = extension?.shape ? extension.shape(built) : built;
  const answer = invoiceCreated(invoice, context.todayForOverdue);
  const events = invoiceCreatedEvents(answer.data, {
    companyId: account.companyId,
    createdAt: now,
    newUlid: newEventUlid,
  });
  return {
    actions: [
      ...chosen.actions,
      // The saved card must not be forgotten before the invoice that names it commits.
      ...(write.cardKey ? [stillExists(tableName(), write.cardKey)] : []),
      ...heldCredit(write, items, existingClient === undefined),
      ...newInvoiceActions(tableName(), invoice, invoiceListedAt(invoice.details, account.timeZone)),
      takeNumberAction(tableName(), account.companyId, 'invoice', lastNumber),
      ...(card ? [collectionOf(invoice, card.token, context.todayForOverdue)] : []),
      ...receivableActions(tableName(), invoiceIssuedChange(invoice, account.timeZone), attempt),
      ...issuedTax(invoice, account.timeZone, attempt),
      ...sequenceActions([...chosen.claims, invoiceId]),
      ...eventPuts(events),
      ...(extension?.actions?.(invoice) ?? []),
    ],
    response: answer,
  };
}

/** The invoice's amounts on the tax report's row of its issue day (docs/tax.md "Tax report"). */
function issuedTax(invoice: Invoice, timeZone: string, attempt: number): TransactItem[] {
  const day = issueDayOf(invoice.details, timeZone);
  return taxDayUpdate(invoice.details.companyId, day, invoiceIssuedTax(invoice), attempt);
}

/**
 * The credit this attempt knows the client has, kept for applying credit after the commit: a client named by id, as
 * read and held unchanged by the transaction (credit arriving meanwhile retries the write); a client this write
 * creates, none. A client found by e-mail is not known before the read: its credit is read after the commit.
 */
function heldCredit(write: InvoiceWrite, items: Map<string, Item>, creatingClient: boolean): TransactItem[] {
  write.creditSeen = creatingClient ? NO_CREDIT : undefined;
  const clientId = write.input.client_id;
  if (!write.creditKey || clientId === undefined) return [];
  const ids = { companyId: write.context.account.companyId, clientId };
  write.creditSeen = creditFrom(items, ids.companyId, clientId);
  return [creditUnchanged(tableName(), ids, write.creditSeen)];
}

/**
 * An invoice created with a saved card is collected automatically (docs/getting-paid-online.md "Automatic
 * collection"): its first attempt on the due date, or at once when created on or after it.
 */
function collectionOf(invoice: Invoice, cardToken: string, today: CalendarDate): TransactItem {
  const { details } = invoice;
  return newCollectionPut(tableName(), {
    referenceCode: details.referenceCode,
    companyId: details.companyId,
    clientId: details.clientId,
    cardToken,
    firstDay: firstCollectionDay(fromEpochSeconds(details.dueDate), today),
  });
}

/** The invoice's client, and what the transaction does about it: check that it still exists, or put it. */
function clientFor(write: InvoiceWrite, choice: ClientChoice, items: Map<string, Item>, now: string) {
  const table = tableName();
  if ('existing' in choice)
    return { client: choice.existing, actions: [clientStillExists(table, write.clientKey)], claims: [] };
  const claim = claimId(write.clientIds, items);
  const client = newClient(write.context.account.companyId, claim.id, choice.create, now);
  return { client, actions: newClientActions(table, client), claims: [claim] };
}
