/** Add payment (docs/api.md "Add payment"): one read, a decision, one transaction that rewrites only the small invoice header. */
import { todayForOverdue } from '../clock.ts';
import { formatTimestamp, todayIn } from '../domain/dates.ts';
import { decidePayment, futureDateError, newPayment } from '../domain/payment-acceptance.ts';
import { recordedDelta } from '../domain/period-totals.ts';
import { paymentRecorded } from '../domain/receivables.ts';
import { paymentEvents } from '../domain/webhook-events.ts';
import type { AddPaymentInput } from '../schemas/payment.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { idempotencyRequest } from '../store/idempotency.ts';
import { invoiceFrom, invoiceKeys, latestPaymentFrom, paymentTransaction } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { dayTotalsUpdate } from '../store/period-totals.ts';
import { receivableActions } from '../store/receivables.ts';
import { claimId, IdAllocator, sequenceActions } from '../store/sequences.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { newUlid } from '../ulid.ts';
import type { PaymentAnswers } from './answers.ts';
import { type RequestContext, refusal } from './context.ts';

export async function addPayment(
  context: RequestContext,
  input: AddPaymentInput,
  answers: PaymentAnswers,
): Promise<WriteResult> {
  const { account } = context;
  const dateError = futureDateError(input.date, todayIn(account.timeZone), account.timeZone);
  if (dateError) throw dateError;
  const paymentIds = new IdAllocator(tableName(), account.companyId, 'payment');
  const idempotency =
    context.idempotencyKey === undefined
      ? undefined
      : idempotencyRequest(account.companyId, 'add-payment', context.idempotencyKey, input);
  try {
    return await executeWrite(
      {
        keys: async () => [...invoiceKeys(input.reference_code), ...(await paymentIds.keysToRead())],
        settle: (committed) => paymentIds.settle(committed),
        decide: (items, attempt) => planPayment({ context, input, answers, paymentIds }, items, attempt),
      },
      idempotency,
    );
  } finally {
    paymentIds.release();
  }
}

interface PaymentWrite {
  context: RequestContext;
  input: AddPaymentInput;
  answers: PaymentAnswers;
  paymentIds: IdAllocator;
}

/**
 * From what was read: the refusal, or one transaction of the payment, the invoice's new balance, the payment's day
 * totals, its receivables items, the id claim and the events.
 */
function planPayment(
  { context, input, answers, paymentIds }: PaymentWrite,
  items: Map<string, Item>,
  attempt: number,
): WritePlan {
  const { account } = context;
  const now = formatTimestamp(new Date());
  const decision = decidePayment(invoiceFrom(items, input.reference_code), account.companyId, input.amount, now);
  if (!decision.ok) return refusal(decision.error, context);
  const { invoice, balance } = decision.value;
  const id = claimId(paymentIds, items);
  const request = { amountKobo: input.amount, date: input.date, channel: input.channel };
  const previousPaymentId = latestPaymentFrom(items, input.reference_code)?.id;
  const ids = { id: id.id, recordedId: newUlid(), previousPaymentId };
  const payment = newPayment(invoice, ids, request, account.currency, now);
  const { data, outcome } = answers.recorded(
    payment,
    { details: invoice.details, balance },
    todayForOverdue(account.timeZone),
  );
  // Its size in history, for planning history pages' reads (docs/data-design.md "Payments").
  const recorded = { ...payment, viewBytes: Buffer.byteLength(JSON.stringify(data)) };
  const events = paymentEvents(data, { companyId: account.companyId, createdAt: now, newUlid: newEventUlid });
  return {
    actions: [
      ...paymentTransaction(tableName(), invoice.balance, balance, recorded),
      dayTotalsUpdate(tableName(), recorded, recordedDelta(recorded)),
      ...receivableActions(tableName(), paymentRecorded(invoice, balance, recorded), attempt),
      ...sequenceActions([id]),
      ...eventPuts(events),
    ],
    response: outcome,
  };
}
