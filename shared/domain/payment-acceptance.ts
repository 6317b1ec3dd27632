/**
 * Whether a payment is accepted (docs/api.md "Add payment"): partial payments accumulate; no overpayment; nothing on a
 * paid invoice. A payment may carry withholding tax (docs/decisions.md "Withholding tax"): the client paid
 * `amount` and withheld `wht_amount`, and the invoice is credited both.
 */
import { type CalendarDate, compareDates, toEpochSeconds } from './dates.ts';
import { amountDueOf, type Invoice, type InvoiceBalance, paymentStatusOf } from './invoice.ts';
import { acceptsPayments } from './invoice-deletion.ts';
import { AMOUNT_NEGATIVE, formatKobo } from './money.ts';
import type { PaymentRecord } from './payment-record.ts';
import { accept, type Decision, invalidFields, notFound, Refusal, refuse } from './refusal.ts';

export interface PaymentRequest extends Withholding {
  amountKobo: number;
  date: CalendarDate;
  channel: string;
}

/** The refusal of a payment dated after today in the account's time zone, or undefined. */
export function futureDateError(date: CalendarDate, today: CalendarDate, timeZone: string): Refusal | undefined {
  if (compareDates(date, today) <= 0) return undefined;
  return invalidFields([
    { code: 'invalid_date', field: 'date', message: `must not be after today (${timeZone}), format MM/DD/YYYY` },
  ]);
}

/** The longest `wht_reference` (the client's withholding tax receipt or certificate number). */
export const MAX_WHT_REFERENCE_LENGTH = 64;

/** What a payment says of withholding tax: absent on most payments. */
export interface Withholding {
  whtKobo?: number | undefined;
  whtReference?: string | undefined;
}

/**
 * The refusal of a payment's withholding tax fields, or undefined: `wht_amount` is whole kobo, not negative;
 * `wht_reference` at most 64 characters and only beside a `wht_amount` above zero (a reference without tax withheld is
 * a mistake in the request).
 */
export function withholdingError(input: Withholding): Refusal | undefined {
  const { whtKobo, whtReference } = input;
  if (whtKobo !== undefined && (!Number.isSafeInteger(whtKobo) || whtKobo < 0))
    return invalidFields([{ code: 'invalid_amount', field: 'wht_amount', message: AMOUNT_NEGATIVE }]);
  if (whtReference === undefined) return undefined;
  if (whtReference.length > MAX_WHT_REFERENCE_LENGTH)
    return invalidFields([
      { code: 'too_long', field: 'wht_reference', message: `must be at most ${MAX_WHT_REFERENCE_LENGTH} characters` },
    ]);
  if (!whtKobo)
    return invalidFields([{ code: 'invalid_value', field: 'wht_reference', message: 'needs a wht_amount above zero' }]);
  return undefined;
}

/**
 * The invoice balance after a payment of `amountKobo` with `withheldKobo` of withholding tax (credited together), or
 * the refusal.
 */
export function applyPayment(
  balance: InvoiceBalance,
  amountKobo: number,
  now: string,
  withheldKobo = 0,
): Decision<InvoiceBalance> {
  if (balance.amountDueKobo <= 0) {
    return refuse(
      new Refusal('invoice_already_paid', 'This invoice is already fully paid.', [
        {
          code: 'invoice_already_paid',
          field: 'reference_code',
          message: 'the invoice has no amount due',
          amount_due: formatKobo(0),
        },
      ]),
    );
  }
  const creditedKobo = amountKobo + withheldKobo;
  if (creditedKobo > balance.amountDueKobo) return refuse(exceedsBalance(balance.amountDueKobo, withheldKobo));
  const amountPaidKobo = balance.amountPaidKobo + creditedKobo;
  const paymentStatus = paymentStatusOf(balance.totalKobo, amountPaidKobo, balance.creditedKobo);
  return accept({
    totalKobo: balance.totalKobo,
    amountPaidKobo,
    amountDueKobo: amountDueOf(balance, amountPaidKobo),
    paymentStatus,
    paidAt: paymentStatus === 'paid' ? now : null,
    paymentsCount: balance.paymentsCount + 1,
    deletedAt: balance.deletedAt,
    version: balance.version + 1,
    updatedAt: now,
    ...(balance.creditedKobo === undefined ? {} : { creditedKobo: balance.creditedKobo }),
    ...(balance.creditNotesKobo === undefined ? {} : { creditNotesKobo: balance.creditNotesKobo }),
  });
}

function exceedsBalance(amountDueKobo: number, withheldKobo: number): Refusal {
  const due = formatKobo(amountDueKobo);
  const [what, most] =
    withheldKobo > 0
      ? ['The amount plus wht_amount exceeds', `must be at most the amount due less wht_amount, ${due} in all`]
      : ['The amount exceeds', `must be at most the amount due, ${due}`];
  return new Refusal('amount_exceeds_balance', `${what} the amount due on this invoice (${due}).`, [
    { code: 'amount_exceeds_balance', field: 'amount', message: most, amount_due: due },
  ]);
}

export interface AcceptedPayment {
  /** The invoice as read. */
  invoice: Invoice;
  /** Its balance after the payment. */
  balance: InvoiceBalance;
  /**
   * This payment settled the invoice: it leaves nothing due (a payment on an invoice already paid is refused, so a
   * paid invoice here is always this payment's doing). It is what `invoice.paid` is sent for.
   */
  settles: boolean;
}

/**
 * Whether `companyId` may pay `amountKobo` (with `withheldKobo` of withholding tax) on the invoice read (undefined when
 * there is none), and the balance after it. Another account's invoice is indistinguishable from a missing one.
 */
export function decidePayment(
  invoice: Invoice | undefined,
  companyId: number,
  amountKobo: number,
  now: string,
  withheldKobo = 0,
): Decision<AcceptedPayment> {
  if (!invoice || invoice.details.companyId !== companyId) return refuse(notFound('invoice_not_found'));
  if (!acceptsPayments(invoice.balance))
    return refuse(
      new Refusal('invoice_deleted', 'This invoice was deleted; it accepts no payments.', [
        { code: 'invoice_deleted', field: 'reference_code', message: 'the invoice was deleted' },
      ]),
    );
  const applied = applyPayment(invoice.balance, amountKobo, now, withheldKobo);
  return applied.ok ? accept({ invoice, balance: applied.value, settles: applied.value.amountDueKobo === 0 }) : applied;
}

/**
 * The payment record of an accepted payment on `invoice`; `previousPaymentId` is the invoice's latest payment until
 * now.
 */
export function newPayment(
  invoice: Invoice,
  ids: { id: number; recordedId: string; previousPaymentId: number | undefined },
  request: PaymentRequest,
  currency: string,
  now: string,
): PaymentRecord {
  const { details } = invoice;
  return {
    ...(ids.previousPaymentId === undefined ? {} : { previousPaymentId: ids.previousPaymentId }),
    inTotals: true,
    ...(request.whtKobo ? { inTaxReport: true } : {}),
    id: ids.id,
    companyId: details.companyId,
    clientId: details.clientId,
    invoiceId: details.id,
    referenceCode: details.referenceCode,
    amountKobo: request.amountKobo,
    currency,
    transactionDate: toEpochSeconds(request.date),
    channel: request.channel,
    createdAt: now,
    recordedId: ids.recordedId,
    ...(request.whtKobo ? { whtKobo: request.whtKobo } : {}),
    ...(request.whtReference !== undefined ? { whtReference: request.whtReference } : {}),
  };
}
