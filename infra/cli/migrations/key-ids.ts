/**
 * The one-off migration that gives keys created before key ids existed an id (`key:migrate`, and `key:list` first runs
 * it once per table: docs/accounts.md "Keys created before key ids").
 *
 * Remove when every stage's table and every DATA_DIR still in use holds the marker `MIGRATION#key-ids`
 * (docs/operations.md "Retiring a migration"); with it go `key:migrate`, the `ensureKeyIds()` of `key:list`, and the
 * store's tolerance of a key item without `key_id` (shared/store/api-keys.ts).
 */
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { msToTimestamp } from '../../../shared/domain/api-key.ts';
import { generateKeyId, isConditionFailure, pointerPuts } from '../../../shared/store/api-keys.ts';
import { documentClient, tableName } from '../../../shared/store/dynamodb-client.ts';
import { API_KEY_PREFIX, keys } from '../../../shared/store/keys.ts';
import { scanTable } from './table-scan.ts';

const KEY_IDS_MIGRATION = 'key-ids';

/**
 * Gives every key created before key ids existed (an `APIKEY#` item without `key_id`) an id and its
 * two pointer items, then records that the migration finished. Idempotent and safe to run while the
 * API serves traffic: each key is migrated by one conditional transaction, and a key migrated
 * concurrently is skipped. Reads the whole table once (a Scan), so it is a one-off operator command,
 * never part of a request.
 */
export async function migrateLegacyKeys(nowMs = Date.now()): Promise<{ migrated: number }> {
  let migrated = 0;
  const legacyKeys = scanTable({
    FilterExpression: 'begins_with(PK, :prefix) AND SK = :sk AND attribute_not_exists(key_id)',
    ExpressionAttributeValues: { ':prefix': API_KEY_PREFIX, ':sk': keys.apiKey('').SK },
    ProjectionExpression: 'PK, company_id',
  });
  for await (const item of legacyKeys) {
    if (await assignKeyId(String(item.PK).slice(API_KEY_PREFIX.length), Number(item.company_id))) migrated++;
  }
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.migration(KEY_IDS_MIGRATION), type: 'migration', finished_at: msToTimestamp(nowMs), migrated },
    }),
  );
  return { migrated };
}

/** Runs `migrateLegacyKeys` unless it has finished on this table before. */
export async function ensureKeyIds(): Promise<{ migrated: number }> {
  const marker = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.migration(KEY_IDS_MIGRATION), ConsistentRead: true }),
  );
  return marker.Item ? { migrated: 0 } : migrateLegacyKeys();
}

async function assignKeyId(secretHash: string, companyId: number): Promise<boolean> {
  const keyId = generateKeyId();
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: keys.apiKey(secretHash),
              UpdateExpression: 'SET key_id = :keyId',
              ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(key_id)',
              ExpressionAttributeValues: { ':keyId': keyId },
            },
          },
          ...pointerPuts(companyId, keyId, secretHash),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error, 0)) return false;
    throw error;
  }
}
