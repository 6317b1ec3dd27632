/**
 * An invoice's reminders in the table (docs/receivables.md "Reminders"): pausing or resuming them on its header, and
 * waking an account's open invoices when its schedule changes, so that the sweep decides with the new schedule
 * (docs/data-design.md "Wake index"). The reminders sent are appended by the sweep (store/overdue.ts).
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { monotonicUlids } from '../ulid.ts';
import { cancellationReasons } from './database-errors.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { keys, openInvoiceKeys, overdueIndexKeys } from './keys.ts';
import { TABLE } from './table.ts';
import type { TransactItem } from './transaction.ts';

const nextMarker = monotonicUlids();

/** The GSI2 attributes that wake an invoice at the next sweep (a fresh marker each time: keys.ts `wakeNow`). */
export const wakeNowAttributes = (referenceCode: string, now: Date = new Date()) =>
  overdueIndexKeys.wakeNow(referenceCode, now.toISOString().slice(0, 10), nextMarker());

/**
 * Pauses or resumes the invoice's reminders, on condition that it is still the state the decision read (`version`,
 * which this write leaves alone so that a concurrent payment is not refused) and not voided. Resuming an open invoice
 * wakes it (`wake`), so that a reminder due today is sent today.
 */
export function remindersPauseAction(
  table: string,
  change: { referenceCode: string; companyId: number; version: number; paused: boolean; wake: boolean },
): TransactItem {
  const values: Item = { ':company': change.companyId, ':version': change.version, ':paused': change.paused };
  let set = 'reminders_paused = :paused';
  if (change.wake) {
    const index = wakeNowAttributes(change.referenceCode);
    set += ', GSI2PK = :gsi2pk, GSI2SK = :gsi2sk';
    Object.assign(values, { ':gsi2pk': index.GSI2PK, ':gsi2sk': index.GSI2SK });
  }
  return {
    Update: {
      TableName: table,
      Key: keys.invoiceHeader(change.referenceCode),
      ConditionExpression: 'company_id = :company AND version = :version AND attribute_not_exists(deleted_at)',
      UpdateExpression: `SET ${set}`,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Wakes every open invoice of the account (its `OPENINVOICES#` items: docs/data-design.md "Receivables") at the next
 * sweep: what `account:update --reminders` does, so a schedule set later applies to existing invoices. An invoice
 * settled or voided meanwhile is left alone. Returns how many were woken.
 */
export async function wakeOpenInvoices(companyId: number): Promise<number> {
  let woken = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'PK = :pk',
        ExpressionAttributeValues: { ':pk': openInvoiceKeys.partition(companyId) },
        ProjectionExpression: 'reference_code',
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    for (const item of page.Items ?? []) if (await wake(String(item.reference_code))) woken++;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return woken;
}

async function wake(referenceCode: string): Promise<boolean> {
  const index = wakeNowAttributes(referenceCode);
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.invoiceHeader(referenceCode),
        ConditionExpression: 'attribute_exists(#pk) AND amount_due > :zero AND attribute_not_exists(deleted_at)',
        UpdateExpression: 'SET #gsi2pk = :gsi2pk, #gsi2sk = :gsi2sk',
        ExpressionAttributeNames: {
          '#pk': TABLE.partitionKey,
          '#gsi2pk': TABLE.overdueIndex.partitionKey,
          '#gsi2sk': TABLE.overdueIndex.sortKey,
        },
        ExpressionAttributeValues: { ':zero': 0, ':gsi2pk': index.GSI2PK, ':gsi2sk': index.GSI2SK },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException' || cancellationReasons(error)) return false;
    throw error;
  }
}
