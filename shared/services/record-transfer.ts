/**
 * `recordTransfer` (docs/bank-transfers.md "Matching"): a transfer Paystack verified into a client's virtual account
 * becomes payments on the client's open invoices and, for what none takes, the client's credit — in steps of a few
 * invoices (domain/transfer-recording.ts), each one transaction with the transfer's item advanced on condition of the
 * step read (store/transfers.ts): one Paystack reference is recorded once, however often or concurrently its event is
 * processed, and a crash between steps is finished by the next processing.
 */
import { todayForOverdue } from '../clock.ts';
import { receiveCredit } from '../domain/client-credit.ts';
import { type CalendarDate, formatTimestamp, todayIn, toIsoDate } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { onlineChannel, type TransferDetails, type VerifiedCharge } from '../domain/online-recording.ts';
import { applyPayment, newPayment } from '../domain/payment-acceptance.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import type { AllocatedPayment } from '../domain/transfer-allocation.ts';
import { decideTransferStep, PAYMENTS_PER_STEP } from '../domain/transfer-recording.ts';
import { success } from '../outcome.ts';
import { accountFromItem } from '../store/accounts.ts';
import { itemOf } from '../store/batch.ts';
import { clientCreditKey, creditFrom } from '../store/client-credit.ts';
import { mergeCounterUpdates } from '../store/counter-merge.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, latestPaymentFrom } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { keys } from '../store/keys.ts';
import { claimId, IdAllocator, sequenceActions } from '../store/sequences.ts';
import { type TransferRecord, transferFrom, transferKey, transferStepAction } from '../store/transfers.ts';
import { executeWrite, type TransactItem, type WritePlan } from '../store/write-executor.ts';
import { newUlid } from '../ulid.ts';
import { creditChangeWrites, openInvoiceKeysOfClient, openInvoiceOf } from './client-credit.ts';
import { recordedPaymentWrites } from './payment-plan.ts';

export interface TransferRequest {
  companyId: number;
  clientId: number;
  charge: VerifiedCharge & { transfer: TransferDetails };
}

export type TransferResult =
  | { outcome: 'recorded'; paymentIds: number[]; creditKobo: number }
  | { outcome: 'already_recorded'; paymentIds: number[]; creditKobo: number };

export interface StepAnswer {
  done: boolean;
  already: boolean;
  transfer: TransferRecord;
}

/** The step's claim of payment ids: one per open invoice it may pay, PAYMENTS_PER_STEP at most, one at least. */
const paymentIdsFor = (companyId: number, openInvoices: number): IdAllocator =>
  new IdAllocator(tableName(), companyId, 'payment', Math.min(PAYMENTS_PER_STEP, Math.max(1, openInvoices)));

/** Records the transfer (all its steps); `already_recorded` when an earlier processing finished it. */
export async function recordTransfer(request: TransferRequest): Promise<TransferResult> {
  for (let steps = 0; ; steps++) {
    const { done, already, transfer } = await transferStep(request);
    if (done) {
      const result = { paymentIds: transfer.paymentIds, creditKobo: transfer.creditKobo };
      return already && steps === 0 ? { outcome: 'already_recorded', ...result } : { outcome: 'recorded', ...result };
    }
  }
}

/**
 * One step of the recording: one transaction, PAYMENTS_PER_STEP invoices at most. `recordTransfer` runs them until the
 * last; a process that stops between two leaves the transfer's item at the step it committed.
 */
export async function transferStep(request: TransferRequest): Promise<StepAnswer> {
  const { companyId, clientId } = request;
  const step: Step = { request, ids: undefined, openCodes: [] };
  try {
    const result = await executeWrite(
      {
        keys: async () => {
          const open = await openInvoiceKeysOfClient(companyId, clientId);
          step.openCodes = open.referenceCodes;
          step.ids ??= paymentIdsFor(companyId, open.referenceCodes.length);
          return [
            transferKey(companyId, request.charge.reference),
            keys.account(companyId),
            clientCreditKey(companyId, clientId),
            ...open.keys,
            ...(await step.ids.keysToRead()),
          ];
        },
        settle: (committed) => step.ids?.settle(committed),
        decide: (items, attempt) => planStep(step, items, attempt),
      },
      undefined,
    );
    return (result.response as { data: StepAnswer }).data;
  } finally {
    step.ids?.release();
  }
}

interface Step {
  request: TransferRequest;
  /** One claim of the step's payment ids: as many as it may pay (its client's open invoices, PAYMENTS_PER_STEP at most). */
  ids: IdAllocator | undefined;
  openCodes: string[];
}

const answer = (data: StepAnswer): WritePlan['response'] => success(200, data);

function planStep(step: Step, items: Map<string, Item>, attempt: number): WritePlan {
  const { companyId, clientId, charge } = step.request;
  const before = transferFrom(items, companyId, charge.reference);
  if (before?.done) return { actions: [], response: answer({ done: true, already: true, transfer: before }) };
  const account = accountFromItem(itemOf(items, keys.account(companyId))!);
  const invoices = new Map<string, Invoice>();
  for (const code of step.openCodes) {
    const invoice = invoiceFrom(items, code);
    if (invoice && isPayable(invoice, clientId)) invoices.set(code, invoice);
  }
  const ids = claimId(step.ids!, items);
  const decided = decideTransferStep({
    amountKobo: charge.amountKobo,
    allocatedKobo: before?.allocatedKobo ?? 0,
    firstStep: before === undefined,
    narration: charge.transfer.narration,
    openInvoices: [...invoices.values()].map(openInvoiceOf),
    paymentsAtMost: ids.ids.length,
  });
  const now = formatTimestamp(new Date());
  const paidOn = todayIn(account.timeZone, charge.paidAt ? new Date(charge.paidAt) : new Date());
  const { currency, timeZone, sendReceipts = false } = account;
  const context = { step, items, attempt, now, paidOn, currency, timeZone, sendReceipts };
  const writes = decided.payments.map((allocated, i) =>
    paymentWrites(context, invoices.get(allocated.referenceCode)!, allocated, ids.ids[i]!),
  );
  const paid = writes.reduce((sum, write) => sum + write.payment.amountKobo, 0);
  const after: TransferRecord = {
    companyId,
    reference: charge.reference,
    clientId,
    amountKobo: charge.amountKobo,
    allocatedKobo: (before?.allocatedKobo ?? 0) + paid + decided.creditKobo,
    step: (before?.step ?? 0) + 1,
    paymentIds: [...(before?.paymentIds ?? []), ...writes.map((write) => write.payment.id)],
    creditKobo: decided.creditKobo,
    done: decided.done,
  };
  const credit = decided.creditKobo > 0 ? creditWrites(step.request, items, decided.creditKobo, now, paidOn) : [];
  return {
    actions: mergeCounterUpdates([
      transferStepAction(tableName(), before, after),
      ...writes.flatMap((write) => write.actions),
      ...credit,
      ...sequenceActions([ids]),
    ]),
    response: answer({ done: decided.done, already: false, transfer: after }),
  };
}

/** Open, of this client, in naira, and not voided: what a transfer to the client's account may pay. */
const isPayable = (invoice: Invoice, clientId: number): boolean =>
  invoice.details.clientId === clientId &&
  invoice.balance.deletedAt === null &&
  invoice.balance.amountDueKobo > 0 &&
  invoice.details.currency === 'NGN';

interface StepContext {
  step: Step;
  items: Map<string, Item>;
  attempt: number;
  now: string;
  paidOn: CalendarDate;
  currency: string;
  timeZone: string;
  /** The account e-mails a receipt for every payment. */
  sendReceipts: boolean;
}

function paymentWrites(context: StepContext, invoice: Invoice, allocated: AllocatedPayment, paymentId: number) {
  const { step, items, now } = context;
  const { charge } = step.request;
  const previousPaymentId = latestPaymentFrom(items, invoice.details.referenceCode)?.id;
  const request = { amountKobo: allocated.amountKobo, date: context.paidOn, channel: onlineChannel(charge.channel) };
  const base = newPayment(
    invoice,
    { id: paymentId, recordedId: newUlid(), previousPaymentId },
    request,
    context.currency,
    now,
  );
  const { transfer } = charge;
  const payment: PaymentRecord = {
    ...base,
    online: {
      transactionId: charge.transactionId,
      reference: charge.reference,
      gatewayResponse: charge.gatewayResponse,
      message: charge.message,
      amountChargedKobo: charge.amountKobo,
      feesKobo: charge.feesKobo,
      sender: {
        name: transfer.senderName,
        bank: transfer.senderBank,
        accountLast4: transfer.senderAccountNumber.slice(-4),
      },
      allocation: allocated.allocation,
    },
  };
  const balance = applyPayment(invoice.balance, payment.amountKobo, now);
  if (!balance.ok) throw new Error(`a transfer's payment was refused: ${balance.refusal.code}`);
  const writes = recordedPaymentWrites({
    companyId: invoice.details.companyId,
    todayForOverdue: todayForOverdue(context.timeZone),
    sendReceipts: context.sendReceipts,
    invoice,
    balance: balance.value,
    settles: balance.value.amountDueKobo === 0,
    payment,
    attempt: context.attempt,
    now,
  });
  return { payment, actions: writes.actions as TransactItem[] };
}

function creditWrites(
  request: TransferRequest,
  items: Map<string, Item>,
  creditKobo: number,
  now: string,
  paidOn: CalendarDate,
): TransactItem[] {
  const { companyId, clientId, charge } = request;
  const before = creditFrom(items, companyId, clientId);
  const after = receiveCredit(before, creditKobo, charge.reference);
  return creditChangeWrites({ companyId, clientId }, before, after, {
    kind: 'received',
    amountKobo: creditKobo,
    recordedAt: now,
    date: toIsoDate(paidOn),
    transferReference: charge.reference,
  });
}
