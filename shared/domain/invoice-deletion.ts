/**
 * Pure rules for voiding an invoice (docs/api.md "Invoices: read, list, delete") and for paying a voided one.
 * The store commits a deletion on condition that the invoice is still in the state decided on (its version), so a
 * concurrent payment and delete cannot both commit (docs/data-design.md "Invoices").
 */
import { applyCreditAmount, type ClientCredit, NO_CREDIT } from './client-credit.ts';
import type { Invoice, InvoiceBalance } from './invoice.ts';
import { formatKobo } from './money.ts';
import { accept, type Decision, notFound, Refusal, refuse } from './refusal.ts';

/**
 * `delete`: commit `deletedAt` (and `credit`: take back from the client's credit what its credit notes gave it);
 * `already_deleted`: answer the same 200 again, writing nothing.
 */
export type InvoiceDeletion =
  | { kind: 'delete'; balance: InvoiceBalance; credit?: CreditTakenBack }
  | { kind: 'already_deleted' };

/** The client's credit before and after the void takes back `amountKobo`. */
export interface CreditTakenBack {
  amountKobo: number;
  before: ClientCredit;
  after: ClientCredit;
}

/**
 * What the invoice's credit notes gave the client's credit (what they credited beyond the amount due): non-zero on an
 * invoice with nothing paid only when they credited it while paid and its payments were reversed since.
 */
export const creditNotesToClientKobo = (balance: Pick<InvoiceBalance, 'creditNotesKobo' | 'creditedKobo'>) =>
  (balance.creditNotesKobo ?? 0) - (balance.creditedKobo ?? 0);

/**
 * Decides a DELETE by `companyId` on the invoice read (undefined when there is none): repeating it is the same 200;
 * an invoice with a payment recorded cannot be voided (`invoice_has_payments`); another account's is not found.
 * What its credit notes gave the client's credit is taken back from `credit` (the client's, read): a voided invoice
 * leaves no credit behind; `amount_exceeds_credit` when the client no longer holds it (refunded or applied since).
 */
export function decideInvoiceDeletion(
  invoice: Invoice | undefined,
  companyId: number,
  now: string,
  credit: ClientCredit = NO_CREDIT,
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
  const taken = creditNotesToClientKobo(balance);
  if (taken > credit.balanceKobo) return refuse(creditSpent(taken));
  return accept({
    kind: 'delete',
    balance: { ...balance, deletedAt: now, version: balance.version + 1, updatedAt: now },
    ...(taken > 0 ? { credit: { amountKobo: taken, before: credit, after: applyCreditAmount(credit, taken) } } : {}),
  });
}

const creditSpent = (takenKobo: number) =>
  new Refusal(
    'amount_exceeds_credit',
    `The client's credit is less than the ${formatKobo(takenKobo)} this invoice's credit notes gave it; it cannot be voided.`,
    [
      {
        code: 'amount_exceeds_credit',
        field: 'reference_code',
        message: `voiding takes back ${formatKobo(takenKobo)} of the client's credit, which holds less`,
      },
    ],
  );

/** Whether a payment may be recorded on the invoice: never on a voided one (`invoice_deleted`). */
export function acceptsPayments(balance: Pick<InvoiceBalance, 'deletedAt'>): boolean {
  return balance.deletedAt === null;
}
