/**
 * Recording a transfer into a client's virtual account in steps, pure (docs/bank-transfers.md "Exactly once"): one
 * transaction holds the payments of PAYMENTS_PER_STEP invoices, so a transfer that settles more is recorded that many
 * invoices at a time. The first step matches with the whole rule (narration, exact amount, oldest due: ./transfer-allocation.ts);
 * each later step goes on with what is left, oldest due first, on the invoices as they are then. The last step puts
 * what no open invoice takes on the client's credit. Σ payments + credit = the transfer, whatever the steps.
 */
import { type AllocatedPayment, allocateTransfer, applyCredit, type OpenInvoice } from './transfer-allocation.ts';

/** Actions in one DynamoDB transaction at most (TransactWriteItems). */
export const TRANSACTION_ITEMS = 100;

/**
 * Actions one payment of a transfer or of credit writes at most: the invoice header, the payment, its day's totals,
 * the account's and the client's aging rows, the open-invoice item's delete (when it settles the invoice), the ledger
 * line, the hosted receipt, the events `payment.recorded` and `invoice.paid`, and the receipt e-mail's job. (No
 * withholding-tax line: neither carries any.) Counter updates of one item are merged, so several payments may write
 * fewer, never more.
 */
export const ITEMS_PER_PAYMENT = 11;

/**
 * Actions a step writes once, whatever its payments: the transfer's item, the id sequence's update (one claim of all
 * the step's ids), and the credit's balance, its line, its client's item in the account's credit listing and
 * `client.credit_changed`.
 */
export const ITEMS_PER_STEP = 6;

/**
 * Payments in one step's transaction: as many as fit, (100 − 6) / 11 rounded down = 8. A transfer that settles up to 8
 * invoices is recorded in one transaction, all its payments together; a larger one in steps of 8 held together by its
 * item, recorded once however often it is processed.
 */
export const PAYMENTS_PER_STEP = Math.floor((TRANSACTION_ITEMS - ITEMS_PER_STEP) / ITEMS_PER_PAYMENT);

export interface TransferStepInput {
  amountKobo: number;
  /** What earlier steps gave invoices (0 on the first). */
  allocatedKobo: number;
  firstStep: boolean;
  narration: string;
  /** The client's open invoices as read now. */
  openInvoices: readonly OpenInvoice[];
  /** Payments this step may make (the ids it claimed): PAYMENTS_PER_STEP at most. */
  paymentsAtMost: number;
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
  const most = Math.max(1, Math.min(PAYMENTS_PER_STEP, input.paymentsAtMost));
  const payments = whole.payments.slice(0, most);
  const done = whole.payments.length <= most;
  return { payments, creditKobo: done ? whole.creditKobo : 0, done };
}

function continued(remaining: number, open: readonly OpenInvoice[]) {
  const applied = applyCredit(remaining, open);
  return {
    payments: applied.payments.map((payment) => ({ ...payment, allocation: 'oldest_due' as const })),
    creditKobo: applied.creditKobo,
  };
}
