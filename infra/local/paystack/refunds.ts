/**
 * Refunds (docs/paystack-local.md "API"): `POST /refund` queues a refund of what is left of a successful transaction
 * (`pending`, event `refund.pending`); a moment later it is `processed` (events `refund.processing`, then
 * `refund.processed`), and a transaction refunded whole becomes `reversed`, as Paystack's refund statuses go.
 * `GET /refund/:id` shows one; `GET /refund` lists them, newest first (`?transaction=` a transaction's, by id or
 * reference). The moment is kept in the state, so a restart still processes it.
 */
import { newRefundReference } from './codes.ts';
import type { Engine, RefundScheduler } from './engine.ts';
import { type Fields, invalid, notFound, textField } from './http.ts';
import { REFUNDED_BY, refundCreatedView, refundEventData, refundView } from './shapes.ts';
import type { Integration, Json, Refund, StateFile, Transaction } from './state.ts';
import { amountOrRefuse, findTransaction } from './transactions.ts';
import type { WebhookOutbox } from './webhooks.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Moves each pending refund to processed when its time comes. */
export class RefundClock implements RefundScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly store: StateFile,
    private readonly outbox: WebhookOutbox,
    readonly processAfterMs: number,
  ) {}

  start(): void {
    for (const integration of this.store.integrations())
      for (const refund of integration.refunds)
        if (refund.status === 'pending' || refund.status === 'processing') this.arm(integration, refund);
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
  }

  arm(integration: Integration, refund: Refund): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        if (!this.stopped) this.process(integration, refund);
      },
      Math.max(0, refund.process_at - Date.now()),
    );
    this.timers.add(timer);
  }

  private process(integration: Integration, refund: Refund): void {
    const tx = integration.transactions.find((t) => t.id === refund.transaction_id)!;
    const now = new Date().toISOString();
    if (refund.status === 'pending') {
      Object.assign(refund, { status: 'processing', updated_at: now });
      this.outbox.emit(integration, 'refund.processing', refundEventData(integration, refund, tx), tx.reference);
    }
    Object.assign(refund, { status: 'processed', refund_reference: newRefundReference(), refunded_at: now });
    if (refundedTotal(integration, tx, ['processed']) === tx.amount) tx.status = 'reversed';
    this.outbox.emit(integration, 'refund.processed', refundEventData(integration, refund, tx), tx.reference);
  }
}

function refundedTotal(integration: Integration, tx: Transaction, statuses: Refund['status'][]): number {
  return integration.refunds
    .filter((r) => r.transaction_id === tx.id && statuses.includes(r.status))
    .reduce((sum, r) => sum + r.amount, 0);
}

function refundedTransaction(integration: Integration, fields: Fields): Transaction {
  const given = textField(fields, 'transaction');
  if (given === undefined) throw invalid('Transaction reference or id is required');
  const tx = findTransaction(integration, given) ?? integration.transactions.find((t) => String(t.id) === given);
  if (!tx) throw notFound('Transaction not found');
  return tx;
}

/** How much to refund: the amount asked (no more than is left), or all that is left. */
function refundAmount(integration: Integration, tx: Transaction, fields: Fields): number {
  const left = tx.amount - refundedTotal(integration, tx, ['pending', 'processing', 'processed']);
  if (tx.status === 'reversed' || left <= 0)
    throw invalid(
      'Transaction has been fully reversed',
      'Let the customer know that the refund should get to their account soon.',
    );
  if (tx.status !== 'success') throw invalid('Only successful transactions can be refunded');
  if (fields.amount === undefined) return left;
  const amount = amountOrRefuse(fields);
  if (amount > left) throw invalid(`Refund amount cannot be more than the unrefunded amount (${left})`);
  return amount;
}

export function createRefund(engine: Engine, integration: Integration, fields: Fields): Json {
  const tx = refundedTransaction(integration, fields);
  const amount = refundAmount(integration, tx, fields);
  const currency = (textField(fields, 'currency') ?? tx.currency).toUpperCase();
  if (currency !== tx.currency) throw invalid("Currency does not match the transaction's currency");
  const now = Date.now();
  const refund: Refund = {
    id: engine.store.next('refund'),
    transaction_id: tx.id,
    amount,
    currency,
    status: 'pending',
    refund_reference: null,
    merchant_note: textField(fields, 'merchant_note') ?? `Refund for transaction ${tx.reference} by ${REFUNDED_BY}`,
    customer_note: textField(fields, 'customer_note') ?? `Refund for transaction ${tx.reference}`,
    created_at: new Date(now).toISOString(),
    updated_at: new Date(now).toISOString(),
    refunded_at: null,
    expected_at: new Date(now + 9 * DAY_MS).toISOString(),
    process_at: now + engine.refunds.processAfterMs,
  };
  integration.refunds.push(refund);
  engine.outbox.emit(integration, 'refund.pending', refundEventData(integration, refund, tx), tx.reference);
  engine.refunds.arm(integration, refund);
  return refundCreatedView(integration, refund, tx);
}

export function fetchRefund(integration: Integration, id: string): Json {
  const refund = integration.refunds.find((r) => String(r.id) === id);
  if (!refund) throw notFound('Refund not found');
  const tx = integration.transactions.find((t) => t.id === refund.transaction_id)!;
  return refundView(integration, refund, tx);
}

export function listRefunds(integration: Integration, transaction: string | null): Json[] {
  const tx = transaction === null ? undefined : findTransaction(integration, transaction);
  const txId = tx?.id ?? (transaction === null ? undefined : Number(transaction));
  return integration.refunds
    .filter((refund) => txId === undefined || refund.transaction_id === txId)
    .map((refund) =>
      refundView(integration, refund, integration.transactions.find((t) => t.id === refund.transaction_id)!),
    )
    .reverse();
}
