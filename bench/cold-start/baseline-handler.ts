/**
 * Cold-start baseline: a function that only constructs the DynamoDB document client at module scope
 * (what any DynamoDB-backed Lambda must load). Bundled by bench/cold-start.ts with the stack's options.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

const client = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

export const handler = async () => ({ statusCode: 200, body: String(Boolean(client)) });
