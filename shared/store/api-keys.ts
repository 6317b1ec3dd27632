/**
 * Secret keys (docs/api.md "Authentication"; docs/operations.md "Keys"). A key is `sk_` + 40 base62 characters, shown
 * once, stored only as its SHA-256 hash plus the last 4 characters. Each key has an id (`key_` + 16
 * base62) so an operator can list and revoke it without holding the secret.
 *
 * Three items per key, written in one transaction (entity chart in keys.ts):
 * - `APIKEY#<hash>`: the key itself, read on authentication; the only item holding its state
 *   (revoked_at, key_expires_at), so a revocation is one conditional update of one item. The expiry is
 *   not called `expires_at`: that is the table's TTL attribute, and a key must never vanish by TTL.
 * - `APIKEYID#<keyId>`: key id → hash, so revoking by id is two reads by key, never a scan.
 * - `ACCOUNT#<companyId>` / `APIKEY#<keyId>`: key id → hash under the account, so listing an
 *   account's keys is one Query.
 */
import { createHash, randomInt } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { msToTimestamp } from '../domain/api-key.ts';
import { batchGet } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { ACCOUNT_API_KEY_PREFIX, keys } from './keys.ts';
import { queryAll } from './query-all.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const SECRET_KEY_PATTERN = /^sk_[0-9A-Za-z]{40}$/;
export const KEY_ID_PATTERN = /^key_[0-9A-Za-z]{16}$/;

function base62(length: number): string {
  let body = '';
  for (let i = 0; i < length; i++) body += BASE62[randomInt(62)];
  return body;
}

export function generateSecretKey(): string {
  return `sk_${base62(40)}`;
}

/** `key_` + 16 base62 characters (95 bits): unguessable enough that ids never collide in practice. */
export function generateKeyId(): string {
  return `key_${base62(16)}`;
}

export function hashSecretKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** What an operator may see of a key: never the secret or its hash. */
export interface ApiKey {
  keyId: string;
  companyId: number;
  last4: string;
  label?: string | undefined;
  createdAt: string;
  expiresAt?: string | undefined;
  revokedAt?: string | undefined;
}

export interface KeyOptions {
  label?: string | undefined;
  /** Stored `YYYY-MM-DD HH:MM:SS` UTC; the key stops working at that instant. */
  expiresAt?: string | undefined;
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function apiKeyFromItem(item: Item): ApiKey {
  return {
    keyId: String(item.key_id),
    companyId: Number(item.company_id),
    last4: String(item.last4),
    label: optionalString(item.label),
    createdAt: String(item.created_at),
    expiresAt: optionalString(item.key_expires_at),
    revokedAt: optionalString(item.revoked_at),
  };
}

/** The two pointer items (by id, and under the account) of a key, as transaction Puts. */
export function pointerPuts(companyId: number, keyId: string, secretHash: string) {
  const pointer = { company_id: companyId, key_id: keyId, key_hash: secretHash };
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.apiKeyById(keyId), type: 'api_key_id', ...pointer },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...keys.accountApiKey(companyId, keyId), type: 'account_api_key', ...pointer },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
}

/** The transaction items that create a new key for `companyId`, and what they create. */
export function newKeyWrites(companyId: number, options: KeyOptions = {}, nowMs = Date.now()) {
  const secretKey = generateSecretKey();
  const secretHash = hashSecretKey(secretKey);
  const key: ApiKey = {
    keyId: generateKeyId(),
    companyId,
    last4: secretKey.slice(-4),
    label: options.label,
    createdAt: msToTimestamp(nowMs),
    expiresAt: options.expiresAt,
  };
  const transactItems = [
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...keys.apiKey(secretHash),
          type: 'api_key',
          company_id: companyId,
          key_id: key.keyId,
          last4: key.last4,
          label: key.label,
          created_at: key.createdAt,
          key_expires_at: key.expiresAt,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    ...pointerPuts(companyId, key.keyId, secretHash),
  ];
  return { secretKey, key, transactItems };
}

export function isConditionFailure(error: unknown, index: number): boolean {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return (
    (error as { name?: string }).name === 'TransactionCanceledException' &&
    reasons?.[index]?.Code === 'ConditionalCheckFailed'
  );
}

/** Adds another active key to an existing account; undefined when the account does not exist. */
export async function createKey(
  companyId: number,
  options: KeyOptions = {},
): Promise<{ secretKey: string; key: ApiKey } | undefined> {
  const { secretKey, key, transactItems } = newKeyWrites(companyId, options);
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: keys.account(companyId),
              ConditionExpression: 'attribute_exists(PK)',
            },
          },
          ...transactItems,
        ],
      }),
    );
  } catch (error) {
    if (isConditionFailure(error, 0)) return undefined;
    throw error;
  }
  return { secretKey, key };
}

/** The key a presented secret names (revoked and expired keys included); undefined when unknown or malformed. */
export async function findKeyBySecret(secret: string): Promise<ApiKey | undefined> {
  if (!SECRET_KEY_PATTERN.test(secret)) return undefined;
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashSecretKey(secret)), ConsistentRead: true }),
  );
  return result.Item ? apiKeyFromItem(result.Item) : undefined;
}

/** An account's keys, oldest first. */
export async function listKeys(companyId: number): Promise<ApiKey[]> {
  const listed = await queryAll({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.account(companyId).PK, ':prefix': ACCOUNT_API_KEY_PREFIX },
    ProjectionExpression: 'key_hash',
  });
  const hashes = listed.map((item) => String(item.key_hash));
  const found = await batchGet(hashes.map((hash) => keys.apiKey(hash)));
  return [...found.values()]
    .map(apiKeyFromItem)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
}

async function revokeByHash(secretHash: string, nowMs: number): Promise<Item | undefined> {
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(secretHash),
        UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :now)',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':now': msToTimestamp(nowMs) },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

export interface RevokedKey {
  companyId: number;
  keyId: string;
}

/** Revokes a key by its secret (idempotent). Undefined when the key is unknown. */
export async function revokeKeyBySecret(secret: string, nowMs = Date.now()): Promise<RevokedKey | undefined> {
  const item = await revokeByHash(hashSecretKey(secret), nowMs);
  return item && { companyId: Number(item.company_id), keyId: String(item.key_id) };
}

/** Revokes a key by its id (idempotent), without a scan. Undefined when no key has that id. */
export async function revokeKeyById(keyId: string, nowMs = Date.now()): Promise<RevokedKey | undefined> {
  const pointer = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.apiKeyById(keyId), ConsistentRead: true }),
  );
  if (!pointer.Item) return undefined;
  const item = await revokeByHash(String(pointer.Item.key_hash), nowMs);
  return item && { companyId: Number(item.company_id), keyId };
}

/** Revokes a key by its secret. Returns the owning company id, or undefined when the key is unknown. */
export async function revokeKey(secret: string): Promise<number | undefined> {
  return (await revokeKeyBySecret(secret))?.companyId;
}
