/**
 * Warms a freshly started DynamoDB Local before tests hold it to the functions' timeouts (1.5 s per attempt,
 * shared/store/dynamodb-client.ts). A new JVM answers its first write of each kind slowly while it loads classes
 * and compiles: on this 2-core machine under load the first UpdateItem took 1.3–2.9 s and the first
 * TransactWriteItems 1.0–1.7 s (with the C1-only JIT the tests use, vitest.config.ts: 0.4–0.7 s and 0.1–0.2 s),
 * so the first test to write could time out through no fault of the code. Production DynamoDB is never cold.
 *
 * Every kind of call the functions make, a few times, on a table of its own shape that is dropped afterwards:
 * the tests' table, its stream and its items stay exactly as the tests expect. Its client has the SDK's own
 * (generous) timeouts. The same calls are the workload whose classes DynamoDB Local's class archive keeps
 * (dynamodb-local-class-archive.ts).
 */
import {
  BatchGetItemCommand,
  CreateTableCommand,
  DeleteItemCommand,
  DeleteTableCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE } from '../../shared/store/table.ts';
import { LOCAL_CREDENTIALS } from './dynamodb-local.ts';

const ROUNDS = 3;

const TableName = 'warm-up';
const key = (n: number) => ({ PK: { S: `WARM#${n}` }, SK: { S: 'ITEM' } });

export async function warmUp(endpoint: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: LOCAL_CREDENTIALS });
  try {
    await client.send(new CreateTableCommand(createTableInput(TableName)));
    for (let n = 0; n < ROUNDS; n++) await oneRound(client, n);
    await client.send(new DeleteTableCommand({ TableName }));
  } finally {
    client.destroy();
  }
}

/** Each kind of call once, on the items of round `n`. */
async function oneRound(client: DynamoDBClient, n: number): Promise<void> {
  const { listingIndex } = TABLE;
  const indexed = { [listingIndex.partitionKey]: { S: 'WARM' }, [listingIndex.sortKey]: { S: String(n) } };
  await client.send(new PutItemCommand({ TableName, Item: { ...key(n), ...indexed } }));
  await client.send(
    new UpdateItemCommand({
      TableName,
      Key: key(n),
      UpdateExpression: 'ADD #n :one',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':one': { N: '1' } },
    }),
  );
  await client.send(
    new TransactWriteItemsCommand({
      ClientRequestToken: `warm-up-${n}`,
      TransactItems: [
        {
          Put: {
            TableName,
            Item: { ...key(n + ROUNDS), ...indexed },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        { ConditionCheck: { TableName, Key: key(n), ConditionExpression: 'attribute_exists(PK)' } },
      ],
    }),
  );
  await client.send(new GetItemCommand({ TableName, Key: key(n), ConsistentRead: true }));
  await client.send(
    new BatchGetItemCommand({
      RequestItems: { [TableName]: { Keys: [key(n), key(n + ROUNDS)], ConsistentRead: true } },
    }),
  );
  await client.send(
    new QueryCommand({
      TableName,
      IndexName: listingIndex.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': listingIndex.partitionKey },
      ExpressionAttributeValues: { ':pk': { S: 'WARM' } },
    }),
  );
  await client.send(new ScanCommand({ TableName, Limit: 10 }));
  await client.send(new DeleteItemCommand({ TableName, Key: key(n + ROUNDS) }));
}
