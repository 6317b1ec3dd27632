/**
 * The wake sweep's handler of automatic collections (docs/getting-paid-online.md "Automatic collection"): for each
 * invoice created with a saved card whose attempt may be due, decide with the account's today
 * (domain/card-collection.ts) and start the attempt — its count, its charge job and its checkout reference, in one
 * transaction on condition of what was read (store/card-collections.ts). The charge itself is the job's
 * (services/collection-charges.ts). A collection whose invoice is paid, voided or gone leaves the index.
 */
import { chargeJobId, collectionDue } from '../domain/card-collection.ts';
import { type CalendarDate, formatTimestamp, todayIn } from '../domain/dates.ts';
import type { Invoice } from '../domain/invoice.ts';
import { acceptsPayments } from '../domain/invoice-deletion.ts';
import type { PaystackFees } from '../domain/online-payment.ts';
import { checkoutOffer, checkoutReference } from '../domain/online-recording.ts';
import { batchGet } from '../store/batch.ts';
import {
  attemptStartActions,
  type CardCollection,
  collectionClosedAction,
  collectionFrom,
  collectionKey,
} from '../store/card-collections.ts';
import { tableName } from '../store/dynamodb-client.ts';
import { invoiceFrom, invoiceKeys } from '../store/invoices.ts';
import { connectionFrom, paystackConnectionKey } from '../store/paystack-connections.ts';
import { commitWake, type WakeHit, type WakeRun } from '../store/wake-index.ts';
import { newUlid } from '../ulid.ts';

export interface CollectionWakeCounts {
  /** Charge jobs queued (attempts started). */
  charges: number;
  /** Collections taken out of the index: their invoice is paid, voided or gone. */
  closed: number;
}

export async function wakeCollections(hits: WakeHit[], run: WakeRun): Promise<CollectionWakeCounts> {
  const counts: CollectionWakeCounts = { charges: 0, closed: 0 };
  for (const hit of hits) {
    const items = await batchGet([collectionKey(hit.id), ...invoiceKeys(hit.id), paystackConnectionKey(hit.companyId)]);
    const collection = collectionFrom(items, hit.id);
    if (!collection) continue;
    const invoice = invoiceFrom(items, hit.id);
    const open = invoice !== undefined && acceptsPayments(invoice.balance) && invoice.balance.amountDueKobo > 0;
    if (!invoice || !open) {
      if (await commitWake([collectionClosedAction(tableName(), hit.id, hit.indexKey)])) counts.closed++;
      continue;
    }
    const account = await run.account(collection.companyId);
    if (!account) continue;
    const today = todayIn(account.timeZone, run.now);
    const facts = { open, state: invoice.balance.collection, firstDay: collection.firstDay, today };
    if (!collectionDue(facts)) continue; // The account's today has not reached it yet: a later sweep starts it.
    const fees = connectionFrom(items, collection.companyId).fees;
    if (await startAttempt(hit, collection, invoice, { fees, today }, run)) counts.charges++;
  }
  return counts;
}

/** The attempt's start: false when what was read changed (a payment, another sweep): the next sweep decides again. */
async function startAttempt(
  hit: WakeHit,
  collection: CardCollection,
  invoice: Invoice,
  { fees, today }: { fees: PaystackFees; today: CalendarDate },
  run: WakeRun,
): Promise<boolean> {
  const offer = checkoutOffer(invoice, fees);
  // Only an NGN invoice is charged (Paystack's fees are Nigerian): another currency's collection ends here.
  if (!offer.ok) return commitWake([collectionClosedAction(tableName(), hit.id, hit.indexKey)]).then(() => false);
  const attempt = collection.attemptsStarted + 1;
  const createdAt = formatTimestamp(run.writtenAt());
  const reference = checkoutReference(collection.referenceCode, newUlid());
  const { details, balance } = invoice;
  return commitWake(
    attemptStartActions(tableName(), {
      collection,
      indexKey: hit.indexKey,
      version: balance.version,
      job: {
        jobId: chargeJobId(collection.referenceCode, attempt),
        companyId: collection.companyId,
        referenceCode: collection.referenceCode,
        attempt,
        cardToken: collection.cardToken,
        reference,
        amountKobo: offer.amountKobo,
        attemptDay: today,
        createdAt,
      },
      checkout: {
        reference,
        companyId: collection.companyId,
        referenceCode: collection.referenceCode,
        invoiceId: details.id,
        expectedKobo: offer.amountKobo,
        amountDueKobo: balance.amountDueKobo,
        feeBearer: offer.feeBearer,
        fees,
        createdAt,
      },
    }),
  );
}
