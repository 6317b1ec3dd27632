/**
 * Accounts (docs/api.md "Authentication"; docs/operations.md "Keys"): created with their first secret key, listed, disabled and enabled by the
 * CLI, and resolved from a presented key on every authenticated request. Keys: api-keys.ts.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isKeyUsable, keyExpiryMs, msToTimestamp } from '../domain/api-key.ts';
import { DEFAULT_INVOICE_PREFIX } from '../domain/document-number.ts';
import type { MerchantProfile } from '../domain/merchant-profile.ts';
import { DEFAULT_VAT, type VatSetting } from '../domain/tax.ts';
import { propertyOf } from '../guards.ts';
import {
  type AccountChanges,
  accountChangeExpression,
  einvoiceServiceIdFromItem,
  invoicePrefixFromItem,
  profileFromItem,
  reminderOffsetsFromItem,
  SEND_RECEIPTS_ATTRIBUTE,
  vatFromItem,
} from './account-profile.ts';
import { findKeyBySecret, type KeyOptions, newKeyWrites, SECRET_KEY_PATTERN } from './api-keys.ts';
import { batchGet } from './batch.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { keys } from './keys.ts';

export {
  createKey,
  generateSecretKey,
  hashSecretKey,
  revokeKey,
  SECRET_KEY_PATTERN,
} from './api-keys.ts';

export interface Account {
  companyId: number;
  name: string;
  currency: string;
  timeZone: string;
  tokenizationEnabled: boolean;
  /** HMAC secret (base64) that signs this account's history cursors. */
  cursorSecret: string;
  createdAt: string;
  /** Set while the account is disabled: none of its keys authenticate. */
  disabledAt?: string | undefined;
  /** What invoices say they are from and how to pay them (`account:update`); unset fields are absent. */
  profile: MerchantProfile;
  /** Reminder days relative to the due date, ascending; empty when none (`account:update --reminders`). */
  reminderOffsets: number[];
  /** The VAT new invoices are created with (`account:update --vat --vat-rate`; default off: docs/tax.md). */
  vat: VatSetting;
  /** The prefix of new invoices' numbers (`account:update --invoice-prefix`; default `INV-`). */
  invoicePrefix: string;
  /** Every recorded payment e-mails the client a receipt (`account:update --send-receipts`); absent: false. */
  sendReceipts?: boolean;
  /** The e-invoicing service id the IRN carries (`account:update --einvoice-service-id`); absent: no IRN. */
  einvoiceServiceId?: string | undefined;
}

export interface AccountOptions {
  name: string;
  currency?: string;
  timeZone?: string;
  tokenizationEnabled?: boolean;
}

function nowTimestamp(): string {
  return msToTimestamp(Date.now());
}

/** Creates an account and its first secret key. The account id comes from the (CLI-only) account sequence. */
export async function createAccount(
  options: AccountOptions,
  keyOptions: KeyOptions = {},
): Promise<{ account: Account; secretKey: string; keyId: string }> {
  const companyId = await nextCompanyId();
  const account: Account = {
    companyId,
    name: options.name,
    currency: options.currency ?? 'NGN',
    timeZone: options.timeZone ?? 'Africa/Lagos',
    tokenizationEnabled: options.tokenizationEnabled ?? false,
    cursorSecret: randomBytes(32).toString('base64'),
    createdAt: nowTimestamp(),
    profile: {},
    reminderOffsets: [],
    vat: { ...DEFAULT_VAT },
    invoicePrefix: DEFAULT_INVOICE_PREFIX,
  };
  const firstKey = newKeyWrites(companyId, keyOptions);
  const accountPut = {
    Put: { TableName: tableName(), Item: accountItem(account), ConditionExpression: 'attribute_not_exists(PK)' },
  };
  await documentClient().send(new TransactWriteCommand({ TransactItems: [accountPut, ...firstKey.transactItems] }));
  return { account, secretKey: firstKey.secretKey, keyId: firstKey.key.keyId };
}

/** The next company id, from the account sequence (written only by `account:create`). */
async function nextCompanyId(): Promise<number> {
  const sequence = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.accountSequence(),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(sequence.Attributes?.value);
}

function accountItem(account: Account): Record<string, unknown> {
  return {
    ...keys.account(account.companyId),
    type: 'account',
    company_id: account.companyId,
    name: account.name,
    currency: account.currency,
    time_zone: account.timeZone,
    tokenization_enabled: account.tokenizationEnabled,
    cursor_secret: account.cursorSecret,
    created_at: account.createdAt,
  };
}

export function accountFromItem(item: Item): Account {
  return {
    companyId: Number(item.company_id),
    name: String(item.name),
    currency: String(item.currency),
    timeZone: String(item.time_zone),
    tokenizationEnabled: item.tokenization_enabled === true,
    cursorSecret: String(item.cursor_secret),
    createdAt: String(item.created_at),
    disabledAt: typeof item.disabled_at === 'string' ? item.disabled_at : undefined,
    profile: profileFromItem(item),
    reminderOffsets: reminderOffsetsFromItem(item),
    vat: vatFromItem(item),
    invoicePrefix: invoicePrefixFromItem(item),
    sendReceipts: item[SEND_RECEIPTS_ATTRIBUTE] === true,
    einvoiceServiceId: einvoiceServiceIdFromItem(item),
  };
}

export async function getAccount(companyId: number): Promise<Account | undefined> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.account(companyId), ConsistentRead: true }),
  );
  return result.Item ? accountFromItem(result.Item) : undefined;
}

/**
 * Every account, by company id. Ids come from the account sequence (1 … its value), so this is
 * BatchGets by key, `pageSize` accounts at a time, never a Scan.
 */
export async function* listAccounts(pageSize = 100): AsyncGenerator<Account> {
  const sequence = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.accountSequence(), ConsistentRead: true }),
  );
  const last = Number(sequence.Item?.value ?? 0);
  for (let first = 1; first <= last; first += pageSize) {
    const ids = Array.from({ length: Math.min(pageSize, last - first + 1) }, (_, i) => first + i);
    const found = await batchGet(ids.map((id) => keys.account(id)));
    for (const id of ids) {
      const item = found.get(`${keys.account(id).PK}\u0000${keys.account(id).SK}`);
      if (item) yield accountFromItem(item);
    }
  }
}

/**
 * Disables (all its keys answer 401 within the auth cache's lifetime) or re-enables an account.
 * Returns the updated account, or undefined when it does not exist. Disabling twice keeps the first time.
 */
export async function setAccountDisabled(companyId: number, disabled: boolean): Promise<Account | undefined> {
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.account(companyId),
        ConditionExpression: 'attribute_exists(PK)',
        ...(disabled
          ? {
              UpdateExpression: 'SET disabled_at = if_not_exists(disabled_at, :now)',
              ExpressionAttributeValues: { ':now': nowTimestamp() },
            }
          : { UpdateExpression: 'REMOVE disabled_at' }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes ? accountFromItem(result.Attributes) : undefined;
  } catch (error) {
    if (propertyOf(error, 'name') === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/**
 * Changes the account's name, profile fields and reminder schedule (`account:update`); fields not in `changes` stay.
 * Returns the updated account, or undefined when it does not exist.
 */
export async function updateAccount(companyId: number, changes: AccountChanges): Promise<Account | undefined> {
  const { expression, names, values } = accountChangeExpression(changes);
  if (expression === '') return getAccount(companyId);
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.account(companyId),
        ConditionExpression: 'attribute_exists(PK)',
        UpdateExpression: expression,
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes ? accountFromItem(result.Attributes) : undefined;
  } catch (error) {
    if (propertyOf(error, 'name') === 'ConditionalCheckFailedException') return undefined;
    throw error;
  }
}

/** An authenticated key: its account, and when (ms) the key expires, if it does. */
export interface KeyGrant {
  account: Account;
  keyExpiresAtMs: number | undefined;
}

/** Resolves a presented secret; undefined for malformed, unknown, revoked or expired keys and disabled accounts. */
export async function resolveKey(secret: string, nowMs = Date.now()): Promise<KeyGrant | undefined> {
  if (!SECRET_KEY_PATTERN.test(secret)) return undefined;
  const key = await findKeyBySecret(secret);
  if (!key || !isKeyUsable(key, nowMs)) return undefined;
  const account = await getAccount(key.companyId);
  if (!account || account.disabledAt !== undefined) return undefined;
  return { account, keyExpiresAtMs: keyExpiryMs(key) };
}

/** Resolves a presented secret to its account; undefined for unknown, revoked, expired or malformed keys and disabled accounts. */
export async function findAccountByKey(secret: string): Promise<Account | undefined> {
  return (await resolveKey(secret))?.account;
}
