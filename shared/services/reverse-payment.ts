/**
 * Reverse a payment recorded by mistake (docs/api.md "Reversing a payment"): read the payment, its invoice and the
 * payments before it; decide; commit the payment's status, the invoice's balance and the day's totals in one
 * transaction with the `payment.reversed` event, its receivables items (docs/data-design.md "Receivables") and the
 * Idempotency-Key's record; a payment from credit gives its amount back to the client's credit in the same transaction.
 */
import { formatTimestamp, localDateOf, toIsoDate } from '../domain/dates.ts';
import { type AcceptedReversal, decideReversal, type ReversalRequest } from '../domain/payment-reversal.ts';
import { paymentReversedChange } from '../domain/receivables.ts';
import { withholdingReversedTax } from '../domain/tax-report.ts';
import { paymentReversedEvents } from '../domain/webhook-events.ts';
import { paymentReversed } from '../representation/views.ts';
import { tableName } from '../store/dynamodb-client.ts';
import type { Item } from '../store/items.ts';
import { reversalKeys, reversalReading, reversalTransaction } from '../store/payment-reversals.ts';
import { receiptReversalActions } from '../store/receipts.ts';
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
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';

export function reversePayment(context: RequestContext, request: ReversalRequest): Promise<WriteResult> {
  const { companyId } = context.account;
  const idempotency = idempotencyOf(context, 'reverse-payment', request);
  // Earlier payments an attempt found missing from its read (a reversal committed between the walk and the read).
  const missing: number[] = [];
  return executeWrite(
    {
      // The payment and its invoice change together (a payment, a reversal): decided on one instant of both.
      read: 'snapshot',
      keys: () => reversalKeys(companyId, request.paymentId, missing),
      decide: (items, attempt) => planReversal(context, request, items, missing, attempt),
    },
    idempotency,
  );
}

function planReversal(
  context: RequestContext,
  request: ReversalRequest,
  items: Map<string, Item>,
  missing: number[],
  attempt: number,
): WritePlan {
  const { companyId } = context.account;
  const now = formatTimestamp(new Date());
  const decision = decideReversal(reversalReading(items, companyId, request.paymentId), companyId, request, now);
  if ('missing' in decision) {
    missing.push(decision.missing);
    throw new ReadAgain();
  }
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const accepted = decision.value;
  const invoiceAfter = { details: accepted.invoice.details, balance: accepted.balance };
  const answer = paymentReversed(accepted.payment, invoiceAfter, context.todayForOverdue);
  const events = paymentReversedEvents(answer.data, { companyId, createdAt: now, newUlid: newEventUlid });
  const viewBytes = Buffer.byteLength(JSON.stringify(answer.data));
  return {
    actions: [
      ...reversalTransaction(tableName(), accepted, viewBytes),
      ...receivableActions(
        tableName(),
        paymentReversedChange(accepted.invoice, accepted.balance, accepted.payment, context.account.timeZone),
        attempt,
      ),
      ...receiptReversalActions(tableName(), accepted.invoice.details.hostedToken, accepted.payment),
      // A reversing entry on the reversal's own day (docs/tax.md "Tax report"): a closed period stays as reported.
      ...taxDayUpdate(
        companyId,
        toIsoDate(localDateOf(now, context.account.timeZone)),
        withholdingReversedTax(accepted.payment),
        attempt,
      ),
      ...creditReturnWrites(context, accepted, now),
      ...eventPuts(events),
    ],
    response: answer,
  };
}

/** A payment from credit reversed: its amount back in the client's credit, with its line and `client.credit_changed`. */
function creditReturnWrites(context: RequestContext, accepted: AcceptedReversal, now: string): TransactItem[] {
  if (!accepted.credit) return [];
  const { payment } = accepted;
  const line = {
    kind: 'application_reversed' as const,
    amountKobo: payment.amountKobo,
    recordedAt: now,
    date: toIsoDate(localDateOf(now, context.account.timeZone)),
    referenceCode: payment.referenceCode,
    paymentId: payment.id,
  };
  const ids = { companyId: payment.companyId, clientId: payment.clientId };
  return creditChangeWrites(ids, accepted.credit.before, accepted.credit.after, line);
}
