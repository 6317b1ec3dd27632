/**
 * What every recorded payment writes, manual or online (docs/api.md "Add payment"; docs/getting-paid-online.md
 * "Recording"): the invoice header from its balance as read to the balance after, the payment, its day's totals, its
 * receivables items (aging, open invoice, ledger line), its receipt on the hosted page, the events
 * `payment.recorded` (and `invoice.paid` when nothing is left due) — with the answer they carry — and the receipt
 * e-mail's job when the account sends receipts. Add payment and
 * online recording each add their own items (the id claim, the Idempotency-Key's record, the checkout attempt…) to one
 * transaction with these.
 */
import { loadConfig } from '../config.ts';
import { type CalendarDate, fromEpochSeconds, toIsoDate } from '../domain/dates.ts';
import type { Invoice, InvoiceBalance } from '../domain/invoice.ts';
import { receiptRecipient } from '../domain/invoice-mail.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { recordedDelta } from '../domain/period-totals.ts';
import { paymentRecordedChange } from '../domain/receivables.ts';
import { withholdingTax } from '../domain/tax-report.ts';
import { paymentEvents } from '../domain/webhook-events.ts';
import { type Answer, paymentRecorded } from '../representation/views.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { paymentTransaction } from '../store/invoices.ts';
import { mailJobPut, queuedMailJob } from '../store/mail.ts';
import { dayTotalsUpdate } from '../store/period-totals.ts';
import { receiptActions } from '../store/receipts.ts';
import { receivableActions } from '../store/receivables.ts';
import { taxDayUpdate } from '../store/tax-rows.ts';
import { eventPuts, newEventUlid } from '../store/webhooks.ts';
import type { TransactItem } from '../store/write-executor.ts';

export interface RecordedPayment {
  companyId: number;
  /** The account's date for overdue: the answer's `payment_status`. */
  todayForOverdue: CalendarDate;
  /** The invoice as read, and its balance after the payment. */
  invoice: Invoice;
  balance: InvoiceBalance;
  /** The payment settles the invoice (nothing is left due): `invoice.paid` goes with `payment.recorded`. */
  settles: boolean;
  payment: PaymentRecord;
  /** The write executor's attempt (a retried attempt spreads its aging row over shards). */
  attempt: number;
  /** YYYY-MM-DD HH:MM:SS (UTC) of the write. */
  now: string;
  /** The account e-mails a receipt for every payment (`account:update --send-receipts`). */
  sendReceipts: boolean;
}

export interface PaymentWrites {
  actions: TransactItem[];
  answer: Answer;
}

/** The items and the answer of one recorded payment. */
export function recordedPaymentWrites(recording: RecordedPayment): PaymentWrites {
  const { companyId, invoice, balance, settles, payment, attempt } = recording;
  const answer = paymentRecorded(payment, { details: invoice.details, balance }, recording.todayForOverdue);
  // Its size in history, for planning history pages' reads (docs/data-design.md "Payments").
  const recorded = { ...payment, viewBytes: Buffer.byteLength(JSON.stringify(answer.data)) };
  const events = paymentEvents({ settles }, answer.data, {
    companyId,
    createdAt: recording.now,
    newUlid: newEventUlid,
  });
  return {
    actions: [
      ...paymentTransaction(tableName(), invoice.balance, balance, recorded),
      dayTotalsUpdate(tableName(), recorded, recordedDelta(recorded)),
      ...receivableActions(tableName(), paymentRecordedChange(invoice, balance, recorded), attempt),
      ...taxDayUpdate(
        companyId,
        toIsoDate(fromEpochSeconds(payment.transactionDate)),
        withholdingTax(payment),
        attempt,
      ),
      ...receiptActions(tableName(), invoice.details.hostedToken, recorded),
      ...eventPuts(events),
      ...receiptMail(recording),
    ],
    answer,
  };
}

/** The receipt e-mail's job, in the payment's own transaction: exactly one per payment. */
function receiptMail({ sendReceipts, invoice, balance, payment, now }: RecordedPayment): TransactItem[] {
  const to = receiptRecipient(sendReceipts, invoice.details.client.email, loadConfig().mailFrom !== undefined);
  // Nothing was credited (all of it goes back: a voided or paid invoice): no receipt for money not kept.
  if (to === undefined || payment.amountKobo <= 0) return [];
  const job = queuedMailJob({
    companyId: payment.companyId,
    referenceCode: payment.referenceCode,
    to,
    createdAt: now,
    receipt: {
      paymentId: payment.id,
      amountKobo: payment.amountKobo,
      transactionDate: payment.transactionDate,
      channel: payment.channel,
      amountDueKobo: balance.amountDueKobo,
    },
  });
  return [mailJobPut(tableName(), job, Date.now())];
}
