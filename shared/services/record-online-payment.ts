/**
 * `recordOnlinePayment` (docs/getting-paid-online.md "Recording"): records a transaction Paystack verified, for a
 * reference this service issued — the one way an online payment is recorded, used by the client's return and by the
 * processing of Paystack's webhooks. One read, a decision (domain/online-recording.ts), one transaction whose condition
 * on the checkout attempt keeps one reference to at most one payment: a recording that loses a race reads again and
 * finds the payment recorded.
 */

import { todayForOverdue } from '../clock.ts';
import { formatTimestamp } from '../domain/dates.ts';
import {
  CHECKOUT_REFERENCE_PATTERN,
  decideOnlineRecording,
  type IgnoredBecause,
  type VerifiedCharge,
} from '../domain/online-recording.ts';
import type { PaymentCard } from '../domain/payment-record.ts';
import { generateCardToken } from '../domain/saved-card.ts';
import { success } from '../outcome.ts';
import { accountFromItem } from '../store/accounts.ts';
import { itemOf } from '../store/batch.ts';
import { cardOfSignature, cardSignatureKey, newCardActions } from '../store/cards.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, invoiceKeys, latestPaymentFrom } from '../store/invoices.ts';
import type { Item } from '../store/items.ts';
import { keys } from '../store/keys.ts';
import { attemptFrom, checkoutAttemptKey } from '../store/online-payments.ts';
import { sealPaystackSecret } from '../store/paystack-connections.ts';
import { claimId, IdAllocator, sequenceActions } from '../store/sequences.ts';
import { executeWrite, ReadAgain, type TransactItem, type WritePlan } from '../store/write-executor.ts';
import { onlinePaymentWrites } from './online-payment-plan.ts';

export interface OnlineRecordingRequest {
  /** The account the word came for: the webhook's (its hook), or the hosted page's invoice's. */
  companyId: number;
  reference: string;
  /** What Paystack's verify answered for the reference. */
  charge: VerifiedCharge;
}

export type OnlineRecordingResult =
  | { outcome: 'recorded'; paymentId: number; payment: Record<string, unknown> }
  | { outcome: 'already_recorded'; paymentId: number }
  | { outcome: 'ignored'; because: IgnoredBecause };

/** Records the payment once; `already_recorded` for every later call on the same reference, whatever the order. */
export async function recordOnlinePayment(request: OnlineRecordingRequest): Promise<OnlineRecordingResult> {
  const { companyId, reference, charge } = request;
  if (!CHECKOUT_REFERENCE_PATTERN.test(reference)) return { outcome: 'ignored', because: 'unknown_reference' };
  const sealedCard = await sealedAuthorizationOf(companyId, charge);
  const paymentIds = new IdAllocator(tableName(), companyId, 'payment');
  const recording = { request, sealedCard, paymentIds, signatureClientId: undefined as number | undefined };
  try {
    const result = await executeWrite(
      {
        keys: async () => [...recordingKeys(recording), ...(await paymentIds.keysToRead())],
        settle: (committed) => paymentIds.settle(committed),
        decide: (items, attempt) => planRecording(recording, items, attempt),
      },
      undefined,
    );
    return (result.response as { data: OnlineRecordingResult }).data;
  } finally {
    paymentIds.release();
  }
}

interface Recording {
  request: OnlineRecordingRequest;
  sealedCard: Uint8Array | undefined;
  paymentIds: IdAllocator;
  /** The client whose card signature item the read includes (known once the invoice was read). */
  signatureClientId: number | undefined;
}

const referenceCodeOf = (reference: string): string => reference.slice(0, reference.lastIndexOf('-'));

function recordingKeys({ request, signatureClientId }: Recording) {
  const signature = request.charge.authorization?.signature;
  return [
    checkoutAttemptKey(request.reference),
    ...invoiceKeys(referenceCodeOf(request.reference)),
    keys.account(request.companyId),
    ...(signature && signatureClientId !== undefined
      ? [cardSignatureKey(request.companyId, signatureClientId, signature)]
      : []),
  ];
}

/** A reusable card's authorization, sealed before the write (sealing may call KMS): used only if the card is saved. */
async function sealedAuthorizationOf(companyId: number, charge: VerifiedCharge): Promise<Uint8Array | undefined> {
  const authorization = charge.authorization;
  if (!authorization?.reusable || charge.channel !== 'card') return undefined;
  return sealPaystackSecret(companyId, authorization.code, 'paystack-authorization');
}

const answer = (data: OnlineRecordingResult): WritePlan['response'] => success(200, data);

function planRecording(recording: Recording, items: Map<string, Item>, writeAttempt: number): WritePlan {
  const { companyId, reference, charge } = recording.request;
  const accountItem = itemOf(items, keys.account(companyId));
  const checkout = attemptFrom(items, reference);
  const invoice = checkout && invoiceFrom(items, checkout.referenceCode);
  if (!accountItem) return { actions: [], response: answer({ outcome: 'ignored', because: 'unknown_reference' }) };
  const account = accountFromItem(accountItem);
  const decision = decideOnlineRecording({
    companyId,
    attempt: checkout,
    charge,
    invoice,
    timeZone: account.timeZone,
    now: new Date(),
  });
  if (decision.kind === 'ignore')
    return { actions: [], response: answer({ outcome: 'ignored', because: decision.because }) };
  if (decision.kind === 'already_recorded')
    return { actions: [], response: answer({ outcome: 'already_recorded', paymentId: decision.paymentId }) };
  if (!checkout || !invoice) throw new Error('a recording was decided without its attempt and invoice');
  const saved = decision.saveCard ? savedCard(recording, items, invoice.details.clientId) : undefined;
  const id = claimId(recording.paymentIds, items);
  const writes = onlinePaymentWrites({
    table: tableName(),
    companyId,
    currency: account.currency,
    todayForOverdue: todayForOverdue(account.timeZone),
    attempt: checkout,
    charge,
    invoice,
    split: decision.split,
    paidOn: decision.paidOn,
    ids: { id: id.id, previousPaymentId: latestPaymentFrom(items, invoice.details.referenceCode)?.id },
    card: saved?.card,
    writeAttempt,
    sendReceipts: account.sendReceipts === true,
  });
  return {
    actions: [...writes.actions, ...(saved?.actions ?? []), ...sequenceActions([id])],
    response: answer({ outcome: 'recorded', paymentId: writes.payment.id, payment: writes.answer.data }),
  };
}

/**
 * The client's saved card for this payment: the one its card signature already names, or a new one. The signature's
 * item is keyed by the client, known only once the invoice was read: the first read without it asks for another.
 */
function savedCard(
  recording: Recording,
  items: Map<string, Item>,
  clientId: number,
): { card: PaymentCard; actions: TransactItem[] } | undefined {
  const { companyId, charge } = recording.request;
  const authorization = charge.authorization;
  if (!authorization || !recording.sealedCard) return undefined;
  const signature = authorization.signature;
  if (signature && recording.signatureClientId !== clientId) {
    recording.signatureClientId = clientId;
    throw new ReadAgain();
  }
  const existing = signature ? cardOfSignature(items, cardSignatureKey(companyId, clientId, signature)) : undefined;
  const shown = { brand: authorization.brand, last4: authorization.last4, expMonth: authorization.expMonth };
  if (existing) return { card: { token: existing.token, ...shown, expYear: authorization.expYear }, actions: [] };
  const card = {
    token: generateCardToken(),
    companyId,
    clientId,
    ...shown,
    expYear: authorization.expYear,
    createdAt: formatTimestamp(new Date()),
  };
  const { token, brand, last4, expMonth, expYear } = card;
  return {
    card: { token, brand, last4, expMonth, expYear },
    actions: newCardActions(tableName(), card, recording.sealedCard, signature),
  };
}
