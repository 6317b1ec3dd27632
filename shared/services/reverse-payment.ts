/**
 * Reverse a payment recorded by mistake (SPEC §14 "Reversals"): read the payment, its invoice and the payments before
 * it; decide; commit the payment's status, the invoice's balance and the day's totals in one transaction with the
 * `payment.reversed` event, its receivables items (docs/data-design.md "Receivables") and the Idempotency-Key's record.
 */
import { todayForOverdue } from '../clock.ts';
import { formatTimestamp } from '../domain/dates.ts';
import { decideReversal, type ReversalRequest } from '../domain/payment-reversal.ts';
import { paymentReversed } from '../domain/receivables.ts';
import { paymentReversedEvents } from '../domain/webhook-events.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { idempotencyRequest } from '../store/idempotency.ts';
import type { Item } from '../store/items.ts';
import { reversalKeys, reversalReading, reversalTransaction } from '../store/payment-reversals.ts';
import { receivableActions } from '../store/receivables.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, ReadAgain, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import type { PaymentReversalAnswers } from './answers.ts';
import { type RequestContext, refusal } from './context.ts';

export function reversePayment(
  context: RequestContext,
  request: ReversalRequest,
  answers: PaymentReversalAnswers,
): Promise<WriteResult> {
  const { companyId } = context.account;
  const idempotency =
    context.idempotencyKey === undefined
      ? undefined
      : idempotencyRequest(companyId, 'reverse-payment', context.idempotencyKey, request);
  // Earlier payments an attempt found missing from its read (a reversal committed between the walk and the read).
  const missing: number[] = [];
  return executeWrite(
    {
      keys: () => reversalKeys(companyId, request.paymentId, missing),
      decide: (items, attempt) => planReversal(context, request, answers, items, missing, attempt),
    },
    idempotency,
  );
}

function planReversal(
  context: RequestContext,
  request: ReversalRequest,
  answers: PaymentReversalAnswers,
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
  if (!decision.ok) return refusal(decision.error, context);
  const accepted = decision.value;
  const { data, outcome } = answers.reversed(
    accepted.payment,
    { details: accepted.invoice.details, balance: accepted.balance },
    todayForOverdue(context.account.timeZone),
  );
  const events = paymentReversedEvents(data, { companyId, createdAt: now, newUlid: newEventUlid });
  const viewBytes = Buffer.byteLength(JSON.stringify(data));
  return {
    actions: [
      ...reversalTransaction(tableName(), accepted, viewBytes),
      ...receivableActions(
        tableName(),
        paymentReversed(accepted.invoice, accepted.balance, accepted.payment, context.account.timeZone),
        attempt,
      ),
      ...eventPuts(events),
    ],
    response: outcome,
  };
}
