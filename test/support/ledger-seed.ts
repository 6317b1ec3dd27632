/**
 * Writes `count` ledger lines of one day for a client directly (5,001 payments through the API would take minutes):
 * enough for a statement of that day to be refused as too large. Seeding is test set-up, not the service: it uses
 * its own client, whose requests may take as long as a loaded machine needs (the service's client gives up after
 * 1.5 s, shared/store/dynamodb-client.ts), and resends what DynamoDB left unprocessed.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../../shared/config.ts';
import { tableName } from '../../shared/store/dynamodb-client.ts';
import { ledgerItem } from '../../shared/store/receivables.ts';

let seedingClient: DynamoDBDocumentClient | undefined;

function seeding(): DynamoDBDocumentClient {
  const config = loadConfig();
  seedingClient ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: config.region,
      ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint, credentials: config.localCredentials } : {}),
      maxAttempts: 5,
      requestHandler: { requestTimeout: 30_000 },
    }),
  );
  return seedingClient;
}

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
  for (let i = 0; i < items.length; i += 25) {
    let requests = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    while (requests.length > 0) {
      const written = await seeding().send(new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }));
      requests = (written.UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    }
  }
}
