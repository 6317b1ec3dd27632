/**
 * Pure rules for voiding an invoice (docs/api.md "Invoices: read, list, delete") and for paying a voided one.
 * The store commits a deletion on condition that the invoice is still in the state decided on (its version), so a
 * concurrent payment and delete cannot both commit (docs/data-design.md "Invoices").
 */
import type { Invoice, InvoiceBalance } from './invoice.ts';
import { accept, type Decision, notFound, Refusal, refuse } from './refusal.ts';

/** `delete`: commit `deletedAt`; `already_deleted`: answer the same 200 again, writing nothing. */
export type InvoiceDeletion = { kind: 'delete'; balance: InvoiceBalance } | { kind: 'already_deleted' };

/**
 * Decides a DELETE by `companyId` on the invoice read (undefined when there is none): repeating it is the same 200;
 * an invoice with a payment recorded cannot be voided (`invoice_has_payments`); another account's is not found.
 */
export function decideInvoiceDeletion(
  invoice: Invoice | undefined,
  companyId: number,
  now: string,
): Decision<InvoiceDeletion> {
  if (!invoice || invoice.details.companyId !== companyId) return refuse(notFound('invoice_not_found'));
  const { balance } = invoice;
  if (balance.deletedAt !== null) return accept({ kind: 'already_deleted' });
  if (balance.paymentsCount > 0 || balance.amountPaidKobo > 0)
    return refuse(
      new Refusal('invoice_has_payments', 'This invoice has payments recorded; it cannot be deleted.', [
        { code: 'invoice_has_payments', field: 'reference_code', message: 'the invoice has payments recorded' },
      ]),
    );
  return accept({
    kind: 'delete',
    balance: { ...balance, deletedAt: now, version: balance.version + 1, updatedAt: now },
  });
}

/** Whether a payment may be recorded on the invoice: never on a voided one (`invoice_deleted`). */
export function acceptsPayments(balance: Pick<InvoiceBalance, 'deletedAt'>): boolean {
  return balance.deletedAt === null;
}
