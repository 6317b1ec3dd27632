/**
 * Reads of one invoice (docs/api.md "Invoices: read, list, delete": `GET /invoices/{reference_code}`, and
 * `GET /payments/{reference_code}`, its latest payment): one batched read, answered through the representation.
 */
import { visibleInvoice } from '../domain/invoice.ts';
import { Refusal } from '../domain/refusal.ts';
import { type Answer, invoiceShown, latestPaymentShown } from '../representation/views.ts';
import { batchGet } from '../store/batch.ts';
import { invoiceFrom, invoiceKeys, latestPaymentFrom } from '../store/invoices.ts';
import type { RequestContext } from './context.ts';

async function readInvoice(referenceCode: string) {
  const items = await batchGet(invoiceKeys(referenceCode));
  return { invoice: invoiceFrom(items, referenceCode), latestPayment: latestPaymentFrom(items, referenceCode) };
}

/** The invoice's current state (a deleted one too); `invoice_not_found` when absent or another account's. */
export async function getInvoice(context: RequestContext, referenceCode: string): Promise<Answer> {
  const { invoice } = await readInvoice(referenceCode);
  const visible = visibleInvoice(invoice, context.account.companyId);
  if (!visible.ok) throw visible.refusal;
  return invoiceShown(visible.value, context.todayForOverdue);
}

/** The invoice's most recent payment with the invoice; `invoice_not_found`, or `payment_not_found` when none. */
export async function getLatestPayment(context: RequestContext, referenceCode: string): Promise<Answer> {
  const { invoice, latestPayment } = await readInvoice(referenceCode);
  const visible = visibleInvoice(invoice, context.account.companyId);
  if (!visible.ok) throw visible.refusal;
  if (!latestPayment) throw new Refusal('payment_not_found', 'No payment has been recorded on this invoice.');
  return latestPaymentShown(latestPayment, visible.value, context.todayForOverdue);
}
