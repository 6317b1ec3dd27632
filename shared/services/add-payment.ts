/**
 * Add payment (docs/api.md "Add payment"): one read, a decision, one transaction that rewrites only the small invoice
 * header (what every recorded payment writes: ./payment-plan.ts). A payment may carry the withholding tax the client
 * deducted (docs/tax.md "Withholding tax"): the invoice is credited both.
 */
import { formatTimestamp } from '../domain/dates.ts';
import { decidePayment, futureDateError, newPayment, withholdingError } from '../domain/payment-acceptance.ts';
import type { AddPaymentInput } from '../schemas/payment.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, invoiceKeys, latestPaymentFrom } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { claimId, IdAllocator, sequenceActions } from '../store/sequences.ts';
import { executeWrite, type WritePlan, type WriteResult } from '../store/write-executor.ts';
import { newUlid } from '../ulid.ts';
import { idempotencyOf, type RequestContext, refusedWrite } from './context.ts';
import { recordedPaymentWrites } from './payment-plan.ts';

export async function addPayment(context: RequestContext, input: AddPaymentInput): Promise<WriteResult> {
  const { account } = context;
  const dateError = futureDateError(input.date, context.today, account.timeZone);
  if (dateError) throw dateError;
  const whtError = withholdingError({ whtKobo: input.wht_amount, whtReference: input.wht_reference });
  if (whtError) throw whtError;
  const paymentIds = new IdAllocator(tableName(), account.companyId, 'payment');
  const idempotency = idempotencyOf(context, 'add-payment', input);
  try {
    return await executeWrite(
      {
        keys: async () => [...invoiceKeys(input.reference_code), ...(await paymentIds.keysToRead())],
        settle: (committed) => paymentIds.settle(committed),
        decide: (items, attempt) => planPayment({ context, input, paymentIds }, items, attempt),
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
  paymentIds: IdAllocator;
}

/** From what was read: the refusal, or one transaction of the payment's writes (./payment-plan.ts) and the id claim. */
function planPayment(
  { context, input, paymentIds }: PaymentWrite,
  items: Map<string, Item>,
  attempt: number,
): WritePlan {
  const { account } = context;
  const now = formatTimestamp(new Date());
  const invoiceRead = invoiceFrom(items, input.reference_code);
  const decision = decidePayment(invoiceRead, account.companyId, input.amount, now, input.wht_amount ?? 0);
  if (!decision.ok) return refusedWrite(decision.refusal, context);
  const { invoice, balance, settles } = decision.value;
  const id = claimId(paymentIds, items);
  const request = {
    amountKobo: input.amount,
    date: input.date,
    channel: input.channel,
    whtKobo: input.wht_amount,
    whtReference: input.wht_reference,
  };
  const previousPaymentId = latestPaymentFrom(items, input.reference_code)?.id;
  const ids = { id: id.id, recordedId: newUlid(), previousPaymentId };
  const payment = newPayment(invoice, ids, request, account.currency, now);
  const { todayForOverdue } = context;
  const writes = recordedPaymentWrites({
    companyId: account.companyId,
    todayForOverdue,
    invoice,
    balance,
    settles,
    payment,
    attempt,
    now,
    sendReceipts: account.sendReceipts === true,
  });
  return { actions: [...writes.actions, ...sequenceActions([id])], response: writes.answer };
}
