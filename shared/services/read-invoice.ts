/** Reads of one invoice (SPEC §13 `GET /invoices/{reference_code}`, `GET /payments/{reference_code}`): one batched read. */
import { type Invoice, visibleInvoice } from '../domain/invoice.ts';
import type { PaymentRecord } from '../domain/payment-record.ts';
import { Refusal } from '../domain/refusal.ts';
import type { Account } from '../store/accounts.ts';
import { batchGet } from '../store/batch.ts';
import { invoiceFrom, invoiceKeys, latestPaymentFrom } from '../store/invoices.ts';

/** Reference codes are 20 alphanumerics; anything else names no invoice (and is never sent to the database as a key). */
const REFERENCE_CODE = /^[A-Za-z0-9]{1,64}$/;

async function readInvoice(referenceCode: string) {
  if (!REFERENCE_CODE.test(referenceCode)) return { invoice: undefined, latestPayment: undefined };
  const items = await batchGet(invoiceKeys(referenceCode));
  return { invoice: invoiceFrom(items, referenceCode), latestPayment: latestPaymentFrom(items, referenceCode) };
}

/** The invoice's current state; `invoice_not_found` when absent or another account's. A deleted one is returned. */
export async function getInvoice(account: Account, referenceCode: string): Promise<Invoice> {
  const { invoice } = await readInvoice(referenceCode);
  const visible = visibleInvoice(invoice, account.companyId);
  if (!visible.ok) throw visible.refusal;
  return visible.value;
}

/** The invoice's most recent payment with the invoice; `invoice_not_found`, or `payment_not_found` when none. */
export async function getLatestPayment(
  account: Account,
  referenceCode: string,
): Promise<{ payment: PaymentRecord; invoice: Invoice }> {
  const { invoice, latestPayment } = await readInvoice(referenceCode);
  const visible = visibleInvoice(invoice, account.companyId);
  if (!visible.ok) throw visible.refusal;
  if (!latestPayment) throw new Refusal('payment_not_found', 'No payment has been recorded on this invoice.');
  return { payment: latestPayment, invoice: visible.value };
}
