/**
 * Writes `count` ledger lines of one day for a client directly (5,001 payments through the API would take minutes):
 * enough for a statement of that day to be refused as too large.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { ledgerItem } from '../../shared/store/receivables.ts';

export async function seedLedgerLines(companyId: number, clientId: number, isoDate: string, count: number) {
  const items = Array.from({ length: count }, (_, i) =>
    ledgerItem({
      companyId,
      clientId,
      date: isoDate,
      recordedAt: `${isoDate} 00:00:00`,
      type: 'payment',
      referenceCode: 'SEEDEDSEEDEDSEEDED00',
      description: 'Payment (Cash)',
      debitKobo: 0,
      creditKobo: 1,
      sourceId: 1_000_000 + i,
    }),
  );
  for (let i = 0; i < items.length; i += 25)
    await documentClient().send(
      new BatchWriteCommand({
        RequestItems: { [tableName()]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
      }),
    );
}
