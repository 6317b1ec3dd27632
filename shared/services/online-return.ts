/**
 * The client's return from Paystack's checkout (docs/getting-paid-online.md "The return"): `GET /i/{token}/paid
 * ?reference=…` never records from the redirect alone — it asks Paystack's verify about a reference this service
 * issued for this invoice, records what it confirms (./record-online-payment.ts), and shows "Payment received", or
 * "being confirmed" while Paystack has not confirmed or cannot be reached.
 */
import { loadConfig } from '../config.ts';
import { fromEpochSeconds } from '../domain/dates.ts';
import { CHECKOUT_REFERENCE_PATTERN, type CheckoutAttempt } from '../domain/online-recording.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { channelLabel, type InvoiceDocument, showDate } from '../render/invoice-document.ts';
import type { PageNotice } from '../render/invoice-page-payments.ts';
import { formatMoney } from '../render/money-format.ts';
import { batchGet, itemOf } from '../store/batch.ts';
import type { InvoicePageReading } from '../store/invoice-pages.ts';
import { paymentFromItem } from '../store/items.ts';
import { keys } from '../store/keys.ts';
import { readCheckoutAttempt } from '../store/online-payments.ts';
import { paystackSecretKey } from '../store/paystack-connections.ts';
import { hostedInvoiceReading, pageDocumentOf } from './invoice-document.ts';
import { recordOnlinePayment } from './record-online-payment.ts';

export interface ReturnAnswer {
  document: InvoiceDocument;
  notice: PageNotice;
}

const NOT_THIS_INVOICE = 'This link does not name a payment of this invoice.';
const NOT_COMPLETED = 'The payment was not completed, and nothing was charged. You can try again.';
const NOT_MATCHED = 'This payment could not be matched to the invoice. Please contact the business that sent it.';

export async function confirmReturn(token: string, reference: string | undefined): Promise<ReturnAnswer> {
  const reading = await hostedInvoiceReading(token);
  const page = (notice: PageNotice): ReturnAnswer => ({ document: pageDocumentOf(reading), notice });
  const attempt =
    reference && CHECKOUT_REFERENCE_PATTERN.test(reference) ? await readCheckoutAttempt(reference) : undefined;
  const { details } = reading.invoice;
  if (!attempt || attempt.companyId !== details.companyId || attempt.referenceCode !== details.referenceCode)
    return page({ kind: 'message', text: NOT_THIS_INVOICE });
  if (attempt.recordedPaymentId !== undefined) return received(token, attempt.recordedPaymentId);
  return verifyAndRecord(reading, attempt, page, token);
}

async function verifyAndRecord(
  reading: InvoicePageReading,
  attempt: CheckoutAttempt,
  page: (notice: PageNotice) => ReturnAnswer,
  token: string,
): Promise<ReturnAnswer> {
  const secretKey = await paystackSecretKey(reading.paystack);
  if (!secretKey) return page({ kind: 'confirming' });
  const { PaystackApi } = await import('../outbound/paystack.ts');
  const verified = await new PaystackApi(secretKey, { baseUrl: loadConfig().paystackBaseUrl }).verify(
    attempt.reference,
  );
  if (!verified.ok) return page({ kind: 'confirming' });
  const charge = verified.value;
  if (charge.status === 'abandoned' || charge.status === 'failed')
    return page({ kind: 'message', text: NOT_COMPLETED });
  if (charge.status !== 'success') return page({ kind: 'confirming' });
  const recorded = await recordOnlinePayment({ companyId: attempt.companyId, reference: attempt.reference, charge });
  if (recorded.outcome === 'ignored') return page({ kind: 'message', text: NOT_MATCHED });
  return received(token, recorded.paymentId);
}

/** The page read again (the payment now among its receipts) with the receipt of `paymentId` on top. */
async function received(token: string, paymentId: number): Promise<ReturnAnswer> {
  const reading = await hostedInvoiceReading(token);
  const { companyId, currency } = reading.invoice.details;
  const item = itemOf(await batchGet([keys.payment(companyId, paymentId)]), keys.payment(companyId, paymentId));
  const document = pageDocumentOf(reading);
  if (!item) return { document, notice: { kind: 'confirming' } };
  return { document, notice: receivedNotice(paymentFromItem(item), currency, document) };
}

function receivedNotice(payment: PaymentRecord, currency: string, document: InvoiceDocument): PageNotice {
  const money = (kobo: number) => formatMoney(kobo, currency);
  const refund = payment.online?.refund;
  return {
    kind: 'received',
    amount: money(payment.online?.amountChargedKobo ?? payment.amountKobo),
    date: showDate(fromEpochSeconds(payment.transactionDate)),
    channel: channelLabel(payment.channel),
    stillDue: document.amountDue,
    ...(refund ? { refunded: money(refund.amountKobo) } : {}),
  };
}
