/**
 * A client's credit, pure (docs/bank-transfers.md "Client credit"): money the client paid that no open invoice could
 * take. Kept as a balance with what came in, what was applied and what was refunded — `balance = received − applied −
 * refunded`, always — and the transfers it came from with what of each can still be refunded through Paystack. Credit
 * is used oldest transfer first (applied or refunded), so a refund goes back on the newest transfers still holding some.
 */
import { accept, type Decision, Refusal, refuse } from './refusal.ts';

/** A transfer the credit came from, and what of it is still credit (what Paystack may still refund). */
export interface CreditSource {
  /** Paystack's reference of the transaction. */
  reference: string;
  amountKobo: number;
}

export interface ClientCredit {
  balanceKobo: number;
  receivedKobo: number;
  appliedKobo: number;
  refundedKobo: number;
  /** Oldest first; Σ amounts ≤ balance (credit from elsewhere — a credit note, later — has no source). */
  sources: CreditSource[];
  /** 0 for a client that never had credit (no item yet). */
  version: number;
}

export const NO_CREDIT: ClientCredit = {
  balanceKobo: 0,
  receivedKobo: 0,
  appliedKobo: 0,
  refundedKobo: 0,
  sources: [],
  version: 0,
};

/**
 * Why a credit line was written: `refund_failed` gives back credit whose refund Paystack refused for good;
 * `application_reversed` gives back credit whose payment from credit was reversed.
 */
export type CreditChangeKind = 'received' | 'applied' | 'refunded' | 'refund_failed' | 'application_reversed';

/** Credit comes in: from a transfer (its reference kept as a source), or from elsewhere. */
export function receiveCredit(credit: ClientCredit, amountKobo: number, transferReference?: string): ClientCredit {
  assertPositive(amountKobo);
  return {
    ...credit,
    balanceKobo: credit.balanceKobo + amountKobo,
    receivedKobo: credit.receivedKobo + amountKobo,
    sources: transferReference ? [...credit.sources, { reference: transferReference, amountKobo }] : credit.sources,
  };
}

/** Credit applied to invoices: the oldest sources are used first. Never more than the balance. */
export function applyCreditAmount(credit: ClientCredit, amountKobo: number): ClientCredit {
  assertPositive(amountKobo);
  if (amountKobo > credit.balanceKobo) throw new RangeError('applying more credit than the client has');
  return {
    ...credit,
    balanceKobo: credit.balanceKobo - amountKobo,
    appliedKobo: credit.appliedKobo + amountKobo,
    sources: takeOldest(credit, amountKobo),
  };
}

/**
 * A payment from credit reversed: its amount is credit again, as if never applied. Which transfers it had used is not
 * kept, so it comes back without a source (a later refund of it is recorded as paid back by hand).
 */
export function returnAppliedCredit(credit: ClientCredit, amountKobo: number): ClientCredit {
  assertPositive(amountKobo);
  if (amountKobo > credit.appliedKobo) throw new RangeError('returning more credit than was applied');
  return { ...credit, balanceKobo: credit.balanceKobo + amountKobo, appliedKobo: credit.appliedKobo - amountKobo };
}

/** A credit refund: what goes back through Paystack (per transaction) and what is recorded as paid back by hand. */
export interface CreditRefundPlan {
  credit: ClientCredit;
  throughPaystack: CreditSource[];
  byHandKobo: number;
}

/**
 * Refunds `amountKobo` of the credit: the newest transfers' parts still held go back through Paystack; what no transfer
 * covers (credit from elsewhere) is recorded as paid back by hand. `amount_exceeds_credit` above the balance.
 */
export function planCreditRefund(credit: ClientCredit, amountKobo: number): Decision<CreditRefundPlan> {
  if (amountKobo > credit.balanceKobo)
    return refuse(
      new Refusal('amount_exceeds_credit', `The client's credit is less than the amount to refund.`, [
        { code: 'amount_exceeds_balance', field: 'amount', message: 'must not exceed the credit_balance' },
      ]),
    );
  const throughPaystack: CreditSource[] = [];
  const kept = credit.sources.map((source) => ({ ...source }));
  let left = amountKobo;
  for (let i = kept.length - 1; i >= 0 && left > 0; i--) {
    const source = kept[i]!;
    const part = Math.min(left, source.amountKobo);
    throughPaystack.push({ reference: source.reference, amountKobo: part });
    source.amountKobo -= part;
    left -= part;
  }
  return accept({
    credit: {
      ...credit,
      balanceKobo: credit.balanceKobo - amountKobo,
      refundedKobo: credit.refundedKobo + amountKobo,
      sources: kept.filter((source) => source.amountKobo > 0),
    },
    throughPaystack,
    byHandKobo: left,
  });
}

/**
 * A refund through Paystack that failed for good (refused, or every retry failed): its amount is credit again, as it
 * was before the refund — the balance and the transfer's part still held — so the money is never in neither place.
 */
export function returnFailedRefund(credit: ClientCredit, refunded: CreditSource): ClientCredit {
  assertPositive(refunded.amountKobo);
  if (refunded.amountKobo > credit.refundedKobo) throw new RangeError('returning more than was refunded');
  return {
    ...credit,
    balanceKobo: credit.balanceKobo + refunded.amountKobo,
    refundedKobo: credit.refundedKobo - refunded.amountKobo,
    sources: credit.sources.some((source) => source.reference === refunded.reference)
      ? credit.sources.map((source) =>
          source.reference === refunded.reference
            ? { ...source, amountKobo: source.amountKobo + refunded.amountKobo }
            : source,
        )
      : [...credit.sources, { ...refunded }],
  };
}

/** The sources left once `amountKobo` of credit is used: credit without a source first (Paystack cannot refund it), then oldest. */
function takeOldest(credit: ClientCredit, amountKobo: number): CreditSource[] {
  const sourced = credit.sources.reduce((sum, source) => sum + source.amountKobo, 0);
  let left = Math.max(0, amountKobo - (credit.balanceKobo - sourced));
  const kept: CreditSource[] = [];
  for (const source of credit.sources) {
    const part = Math.min(left, source.amountKobo);
    left -= part;
    if (source.amountKobo - part > 0) kept.push({ ...source, amountKobo: source.amountKobo - part });
  }
  return kept;
}

function assertPositive(kobo: number): void {
  if (!Number.isSafeInteger(kobo) || kobo <= 0) throw new RangeError(`not a positive amount in kobo: ${kobo}`);
}
