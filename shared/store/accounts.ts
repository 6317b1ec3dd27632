/**
 * Accounts and secret keys (SPEC §2). A key is `sk_` + 40 base62 characters, shown once, stored only
 * as its SHA-256 hash plus the last 4 characters.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { keys } from './keys';
import { propertyOf } from '../guards';

export interface Account {
  companyId: number;
  name: string;
  currency: string;
  timeZone: string;
  tokenizationEnabled: boolean;
  /** HMAC secret (base64) that signs this account's history cursors. */
  cursorSecret: string;
  createdAt: string;
}

export interface AccountOptions {
  name: string;
  currency?: string;
  timeZone?: string;
  tokenizationEnabled?: boolean;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const SECRET_KEY_PATTERN = /^sk_[0-9A-Za-z]{40}$/;

export function generateSecretKey(): string {
  let body = '';
  for (let i = 0; i < 40; i++) body += BASE62[randomInt(62)];
  return `sk_${body}`;
}

export function hashSecretKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

function nowTimestamp(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

function apiKeyPut(companyId: number, secret: string) {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...keys.apiKey(hashSecretKey(secret)),
        type: 'api_key',
        company_id: companyId,
        last4: secret.slice(-4),
        created_at: nowTimestamp(),
      },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** Creates an account and its first secret key. The account id comes from the (CLI-only) account sequence. */
export async function createAccount(options: AccountOptions): Promise<{ account: Account; secretKey: string }> {
  const client = documentClient();
  const sequence = await client.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.accountSequence(),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const companyId = Number(sequence.Attributes?.value);
  const account: Account = {
    companyId,
    name: options.name,
    currency: options.currency ?? 'NGN',
    timeZone: options.timeZone ?? 'Africa/Lagos',
    tokenizationEnabled: options.tokenizationEnabled ?? false,
    cursorSecret: randomBytes(32).toString('base64'),
    createdAt: nowTimestamp(),
  };
  const secretKey = generateSecretKey();
  await client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.account(companyId),
              type: 'account',
              company_id: companyId,
              name: account.name,
              currency: account.currency,
              time_zone: account.timeZone,
              tokenization_enabled: account.tokenizationEnabled,
              cursor_secret: account.cursorSecret,
              created_at: account.createdAt,
            },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        apiKeyPut(companyId, secretKey),
      ],
    }),
  );
  return { account, secretKey };
}

export async function getAccount(companyId: number): Promise<Account | undefined> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.account(companyId), ConsistentRead: true }));
  const item = result.Item;
  if (!item) return undefined;
  return {
    companyId: Number(item.company_id),
    name: String(item.name),
    currency: String(item.currency),
    timeZone: String(item.time_zone),
    tokenizationEnabled: item.tokenization_enabled === true,
    cursorSecret: String(item.cursor_secret),
    createdAt: String(item.created_at),
  };
}

/** Adds another active key to an existing account. Undefined when the account does not exist. */
export async function createKey(companyId: number): Promise<string | undefined> {
  if (!(await getAccount(companyId))) return undefined;
  const secretKey = generateSecretKey();
  await documentClient().send(new TransactWriteCommand({ TransactItems: [apiKeyPut(companyId, secretKey)] }));
  return secretKey;
}

/** Revokes a key. Returns the owning company id, or undefined when the key is unknown. */
export async function revokeKey(secret: string): Promise<number | undefined> {
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(hashSecretKey(secret)),
        UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':now': nowTimestamp() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Number(result.Attributes?.company_id);
  } catch (error) {
    if (propertyOf(error, 'name') === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/** Resolves a presented secret to its account; undefined for unknown, revoked or malformed keys. */
export async function findAccountByKey(secret: string): Promise<Account | undefined> {
  if (!SECRET_KEY_PATTERN.test(secret)) return undefined;
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashSecretKey(secret)), ConsistentRead: true }),
  );
  const item = result.Item;
  if (!item || item.revoked_at) return undefined;
  return getAccount(Number(item.company_id));
}
