/**
 * Recording a transfer into a client's virtual account in steps, pure (docs/bank-transfers.md "Matching"): one
 * transaction holds the payments of a few invoices only, so a transfer that settles many is recorded a few invoices at
 * a time. The first step matches with the whole rule (narration, exact amount, oldest due: ./transfer-allocation.ts);
 * each later step goes on with what is left, oldest due first, on the invoices as they are then. The last step puts
 * what no open invoice takes on the client's credit. Σ payments + credit = the transfer, whatever the steps.
 */
import { type AllocatedPayment, allocateTransfer, applyCredit, type OpenInvoice } from './transfer-allocation.ts';

/**
 * Payments in one step's transaction. One: a payment's id comes from the account's id sequence, one id per write
 * (store/sequences.ts), and each payment writes about ten items. A transfer is still recorded once (its item holds the
 * steps), but invoices are paid one transaction each: the cost grows with the invoices a transfer settles.
 */
export const PAYMENTS_PER_STEP = 1;

export interface TransferStepInput {
  amountKobo: number;
  /** What earlier steps gave invoices (0 on the first). */
  allocatedKobo: number;
  firstStep: boolean;
  narration: string;
  /** The client's open invoices as read now. */
  openInvoices: readonly OpenInvoice[];
}

export interface TransferStep {
  payments: AllocatedPayment[];
  /** What goes on the client's credit: only on the last step. */
  creditKobo: number;
  /** This is the last step. */
  done: boolean;
}

export function decideTransferStep(input: TransferStepInput): TransferStep {
  const remaining = input.amountKobo - input.allocatedKobo;
  if (remaining < 0) throw new RangeError('a transfer allocated more than it carried');
  const whole = input.firstStep
    ? allocateTransfer({ amountKobo: remaining, narration: input.narration }, input.openInvoices)
    : continued(remaining, input.openInvoices);
  const payments = whole.payments.slice(0, PAYMENTS_PER_STEP);
  const done = whole.payments.length <= PAYMENTS_PER_STEP;
  return { payments, creditKobo: done ? whole.creditKobo : 0, done };
}

function continued(remaining: number, open: readonly OpenInvoice[]) {
  const applied = applyCredit(remaining, open);
  return {
    payments: applied.payments.map((payment) => ({ ...payment, allocation: 'oldest_due' as const })),
    creditKobo: applied.creditKobo,
  };
}
