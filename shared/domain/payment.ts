/** Pure payment rules (docs/api.md "Add payment"): partial payments accumulate; no overpayment; nothing on a paid invoice. */
import { ConflictError } from '../errors';
import { formatKobo } from './money';
import { paymentStatusOf, type InvoiceBalance } from './invoice';

/** The invoice balance after a payment of `amountKobo`, or the 409 that refuses it. */
export function applyPayment(balance: InvoiceBalance, amountKobo: number, now: string): InvoiceBalance {
  if (balance.amountDueKobo <= 0) {
    throw new ConflictError('invoice_already_paid', 'This invoice is already fully paid.', [
      { code: 'invoice_already_paid', field: 'reference_code', message: 'the invoice has no amount due', amount_due: formatKobo(0) },
    ]);
  }
  if (amountKobo > balance.amountDueKobo) {
    const due = formatKobo(balance.amountDueKobo);
    throw new ConflictError('amount_exceeds_balance', `The amount exceeds the amount due on this invoice (${due}).`, [
      { code: 'amount_exceeds_balance', field: 'amount', message: `must be at most the amount due, ${due}`, amount_due: due },
    ]);
  }
  const amountPaidKobo = balance.amountPaidKobo + amountKobo;
  const paymentStatus = paymentStatusOf(balance.totalKobo, amountPaidKobo);
  return {
    totalKobo: balance.totalKobo,
    amountPaidKobo,
    amountDueKobo: balance.totalKobo - amountPaidKobo,
    paymentStatus,
    paidAt: paymentStatus === 'paid' ? now : null,
    version: balance.version + 1,
    updatedAt: now,
  };
}
