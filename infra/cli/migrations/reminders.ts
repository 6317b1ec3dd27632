/**
 * `data:migrate`'s last step, for tables from before reminders were sent (docs/receivables.md "Reminders"): an account
 * could store a schedule (`account:update --reminders`) before the sweep sent any, and invoices notified overdue then
 * left the wake index (docs/data-design.md "Wake index"). It wakes every open invoice of each account with a schedule
 * (as `account:update --reminders` does now), so the next sweep decides with the schedule; then it records the
 * `MIGRATION#reminders` marker, so a second run wakes nothing. Safe while the API serves: a wake only makes the sweep
 * look again, and the sweep sends each reminder at most once.
 *
 * Remove when every stage's table and every DATA_DIR still in use holds the marker `MIGRATION#reminders`
 * (docs/operations.md "Retiring a migration").
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { formatTimestamp } from '../../../shared/domain/dates.ts';
import { listAccounts } from '../../../shared/store/accounts.ts';
import { documentClient, tableName } from '../../../shared/store/dynamodb-client.ts';
import { keys } from '../../../shared/store/keys.ts';
import { wakeOpenInvoices } from '../../../shared/store/wake-index.ts';
import type { DataMigration } from './migration-step.ts';

const MIGRATION = 'reminders';

async function wakeScheduledAccounts(): Promise<Record<string, number>> {
  const marker = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.migration(MIGRATION), ConsistentRead: true }),
  );
  if (marker.Item) return { reminders_woken: 0 };
  let woken = 0;
  for await (const account of listAccounts())
    if (account.reminderOffsets.length > 0) woken += await wakeOpenInvoices(account.companyId);
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.migration(MIGRATION), type: 'migration', finished_at: formatTimestamp(new Date()), woken },
    }),
  );
  return { reminders_woken: woken };
}

export const remindersMigration: DataMigration = {
  name: MIGRATION,
  summary: "wakes the open invoices of accounts whose reminder schedule predates the reminders' sweep",
  prints: '"reminders_woken": open invoices woken for the sweep (0 once MIGRATION#reminders is recorded)',
  run: wakeScheduledAccounts,
};
