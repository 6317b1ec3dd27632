/**
 * `data:migrate`'s second step, for payments recorded before period totals were kept (docs/operations.md "Upgrading a
 * table to period totals"): each such payment is added to its day's totals and marked `in_totals`, in one transaction
 * on condition that it is not marked yet, so it is counted exactly once — also while the API serves, also if the
 * command runs twice (a reversal of an uncounted payment counts it as reversed and marks it itself). Reads every
 * payment once (a Scan), so it is an operator command, never part of a request.
 *
 * Removal date: 2026-12-31, once `data:migrate` has printed `"payments_counted":0` on every stage and every DATA_DIR
 * still in use (docs/operations.md "Retiring a migration"). With it goes the reversal of an uncounted payment, which
 * adds it to the reversed totals only (shared/domain/period-totals.ts, shared/store/payment-reversals.ts): every
 * payment is then counted.
 */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentRecord } from '../../../shared/domain/payment-record.ts';
import { recordedDelta } from '../../../shared/domain/period-totals.ts';
import { isConditionFailure } from '../../../shared/store/api-keys.ts';
import { documentClient, tableName } from '../../../shared/store/dynamodb-client.ts';
import { paymentFromItem } from '../../../shared/store/items.ts';
import { keys } from '../../../shared/store/keys.ts';
import { dayTotalsUpdate } from '../../../shared/store/period-totals.ts';
import type { DataMigration } from './migration-step.ts';
import { scanTable } from './table-scan.ts';

async function* uncountedPayments(): AsyncGenerator<PaymentRecord> {
  const items = scanTable({
    FilterExpression: 'entity = :payment AND attribute_not_exists(in_totals)',
    ExpressionAttributeValues: { ':payment': 'payment' },
  });
  for await (const item of items) yield paymentFromItem(item);
}

/** Counts one payment; false when it was counted (or reversed) since the scan. */
async function countPayment(payment: PaymentRecord): Promise<boolean> {
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.payment(payment.companyId, payment.id),
              UpdateExpression: 'SET in_totals = :yes',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(in_totals)',
              ExpressionAttributeValues: { ':yes': true },
            },
          },
          dayTotalsUpdate(tableName(), payment, recordedDelta(payment)),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error, 0)) return false;
    throw error;
  }
}

/** Adds every payment recorded before totals were kept to its day's totals; returns how many it counted. */
export async function countLegacyPayments(): Promise<number> {
  let counted = 0;
  for await (const payment of uncountedPayments()) if (await countPayment(payment)) counted++;
  return counted;
}

export const paymentTotalsMigration: DataMigration = {
  name: 'payment-totals',
  summary: 'count payments recorded before period totals in them',
  prints: '"payments_counted" (payments added to their day totals)',
  run: async () => ({ payments_counted: await countLegacyPayments() }),
};
