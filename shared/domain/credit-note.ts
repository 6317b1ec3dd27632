/**
 * Whether a credit note may be issued against an invoice, and what it does to it (docs/decisions.md "Credit
 * notes"). An issued invoice is corrected, never edited: a credit note never credits more than the invoice's total less
 * the credit notes before it; it reduces the amount due, and what it credits beyond that (the invoice was paid) becomes
 * the client's credit. Its amounts and tax split come from tax.ts (`taxInvoice` for items with the invoice's VAT
 * setting, `creditNoteByAmount` for an amount).
 */
import { formatKobo } from './money.ts';
import { accept, type Decision, invalidFields, Refusal, refuse } from './refusal.ts';

/** What the decision reads of the invoice. */
export interface CreditNoteFacts {
  invoiceTotalKobo: number;
  /** Σ the totals of the invoice's earlier credit notes. */
  earlierCreditNotesKobo: number;
  amountDueKobo: number;
  voided: boolean;
}

/** What an accepted credit note does. */
export interface CreditNoteEffect {
  /** Taken off the invoice's amount due. */
  amountDueReductionKobo: number;
  /** What exceeds the amount due: added to the client's credit. */
  clientCreditKobo: number;
}

/**
 * The effect of a credit note of `creditTotalKobo` (its total, VAT included), or the refusal: `credit_exceeds_invoice`
 * beyond what is left to credit, `invoice_deleted` on a voided invoice, `validation_failed` (on `field`: the request's
 * `amount` or `items`) for a total of zero.
 */
export function decideCreditNote(
  facts: CreditNoteFacts,
  creditTotalKobo: number,
  field: 'amount' | 'items',
): Decision<CreditNoteEffect> {
  if (facts.voided)
    return refuse(
      new Refusal('invoice_deleted', 'This invoice was voided; it takes no credit notes.', [
        { code: 'invoice_deleted', field: 'reference_code', message: 'the invoice was voided' },
      ]),
    );
  if (creditTotalKobo <= 0)
    return refuse(invalidFields([{ code: 'invalid_amount', field, message: 'the credit note must be above zero' }]));
  const creditable = facts.invoiceTotalKobo - facts.earlierCreditNotesKobo;
  if (creditTotalKobo > creditable) {
    const left = formatKobo(Math.max(0, creditable));
    return refuse(
      new Refusal(
        'credit_exceeds_invoice',
        `The credit note exceeds what is left to credit on this invoice (${left}: its total less earlier credit notes).`,
        [{ code: 'credit_exceeds_invoice', field, message: `must be at most ${left}`, creditable: left }],
      ),
    );
  }
  const amountDueReductionKobo = Math.min(creditTotalKobo, Math.max(0, facts.amountDueKobo));
  return accept({ amountDueReductionKobo, clientCreditKobo: creditTotalKobo - amountDueReductionKobo });
}
