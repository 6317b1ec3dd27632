/**
 * Writes an account and a key exactly as the code before key ids did (commit a4f9221,
 * shared/store/accounts.ts `createAccount` / `apiKeyPut`), so the upgrade path can be tested against
 * the items an existing table really holds. Do not "modernise" this file.
 */
import { randomBytes } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { generateSecretKey, hashSecretKey } from '../../shared/store/api-keys.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';

function nowTimestamp(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

function apiKeyPut(companyId: number, secret: string) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        PK: `APIKEY#${hashSecretKey(secret)}`,
        SK: 'APIKEY',
        type: 'api_key',
        company_id: companyId,
        last4: secret.slice(-4),
        created_at: nowTimestamp(),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** The old `createAccount` (defaults only) plus `extraKeys` old `createKey` calls; returns every secret. */
export async function createLegacyAccount(
  name: string,
  extraKeys = 0,
): Promise<{ companyId: number; secrets: string[] }> {
  const client = documentClient();
  const sequence = await client.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { PK: 'SEQUENCE', SK: 'ACCOUNT' },
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const companyId = Number(sequence.Attributes?.value);
  const secrets = [generateSecretKey()];
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              PK: `ACCOUNT#${companyId}`,
              SK: 'ACCOUNT',
              type: 'account',
              company_id: companyId,
              name,
              currency: 'NGN',
              time_zone: 'Africa/Lagos',
              tokenization_enabled: false,
              cursor_secret: randomBytes(32).toString('base64'),
              created_at: nowTimestamp(),
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        apiKeyPut(companyId, secrets[0]!),
      ],
    }),
  );
  for (let i = 0; i < extraKeys; i++) {
    const secret = generateSecretKey();
    await client.send(new TransactWriteCommand({ TransactItems: [apiKeyPut(companyId, secret)] }));
    secrets.push(secret);
  }
  return { companyId, secrets };
}
