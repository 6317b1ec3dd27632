/** Add invoice (docs/api.md "Add invoice"): one read, a decision, one transaction; every uniqueness rule is a condition. */

import { formatTimestamp } from '../domain/dates.ts';
import { buildInvoice, type ClientChoice, decideInvoice, invoiceTotal, newClient } from '../domain/invoice.ts';
import { generateReferenceCode } from '../domain/reference-code.ts';
import { invoiceCreatedEvents } from '../domain/webhook-events.ts';
import type { AddInvoiceInput } from '../schemas.ts';
import { itemOf } from '../store/batch.ts';
import { clientFrom, clientLookupKey, clientStillExists, newClientActions } from '../store/clients.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { idempotencyRequest } from '../store/idempotency.ts';
import { merchantRefKey, newInvoiceActions } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { claimId, IdAllocator, sequenceActions } from '../store/sequences.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, type WriteResult } from '../store/write-executor.ts';
import type { InvoiceAnswers } from './answers.ts';
import { type RequestContext, refusal } from './context.ts';

export async function addInvoice(
  context: RequestContext,
  input: AddInvoiceInput,
  answers: InvoiceAnswers,
): Promise<WriteResult> {
  const { account } = context;
  const { companyId } = account;
  invoiceTotal(input); // 400 for a zero or over-the-cap total, before any database work
  const table = tableName();
  const clientKey = clientLookupKey(companyId, input);
  const refKey = input.merchant_ref === undefined ? undefined : merchantRefKey(companyId, input.merchant_ref);
  const invoiceIds = new IdAllocator(table, companyId, 'invoice');
  const clientIds = new IdAllocator(table, companyId, 'client');
  const idempotency =
    context.idempotencyKey === undefined
      ? undefined
      : idempotencyRequest(companyId, 'add-invoice', context.idempotencyKey, input);

  /** The invoice's client, and what the transaction does about it: check that it still exists, or put it. */
  const clientFor = (choice: ClientChoice, items: Map<string, Item>, now: string) => {
    if ('existing' in choice)
      return { client: choice.existing, actions: [clientStillExists(table, clientKey)], claims: [] };
    const claim = claimId(clientIds, items);
    const client = newClient(companyId, claim.id, choice.create, now);
    return { client, actions: newClientActions(table, client), claims: [claim] };
  };

  try {
    return await executeWrite(
      {
        keys: async () => [
          clientKey,
          ...(refKey ? [refKey] : []),
          ...(await invoiceIds.keysToRead()),
          ...(input.client ? await clientIds.keysToRead() : []),
        ],
        settle(committed) {
          invoiceIds.settle(committed);
          clientIds.settle(committed);
        },
        decide(items) {
          const merchantRefTaken = refKey !== undefined && itemOf(items, refKey) !== undefined;
          const decision = decideInvoice(account, input, { client: clientFrom(items, clientKey), merchantRefTaken });
          if (!decision.ok) return refusal(decision.error, context);
          const now = formatTimestamp(new Date());
          const chosen = clientFor(decision.value, items, now);
          const invoiceId = claimId(invoiceIds, items);
          const invoice = buildInvoice(
            input,
            chosen.client,
            { invoiceId: invoiceId.id, referenceCode: generateReferenceCode() },
            account.currency,
            now,
          );
          const { data, outcome } = answers.created(invoice);
          const events = invoiceCreatedEvents(data, {
            companyId: account.companyId,
            createdAt: now,
            newUlid: newEventUlid,
          });
          return {
            actions: [
              ...chosen.actions,
              ...newInvoiceActions(table, invoice),
              ...sequenceActions([...chosen.claims, invoiceId]),
              ...eventPuts(events),
            ],
            response: outcome,
          };
        },
      },
      idempotency,
    );
  } finally {
    invoiceIds.release();
    clientIds.release();
  }
}
