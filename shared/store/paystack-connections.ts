/**
 * An account's connection to Paystack (docs/getting-paid-online.md "Connecting Paystack"; docs/data-design.md "Getting
 * paid online"): one item beside the account (`ACCOUNT#<co>`/`PAYSTACK`) with the sealed secret key, its last 4, the
 * hook id of the webhook URL and the fee settings; and the hook's lookup item (`PAYSTACKHOOK#<hook_id>` → account),
 * put with the first connect. The key is sealed as webhook secrets are (store/webhook-secrets.ts): KMS deployed
 * (PAYSTACK_KMS_KEY_ID), the local sealing key otherwise.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { loadConfig, MissingSettingError } from '../config.ts';
import { DEFAULT_PAYSTACK_FEES, type PaystackFees } from '../domain/online-payment.ts';
import { generateHookId, keyLast4, keyMode } from '../domain/paystack-connection.ts';
import { itemOf } from './batch.ts';
import { cancellationReasons } from './database-errors.ts';
import { documentClient, tableName } from './dynamodb-client.ts';
import type { Item } from './items.ts';
import { type Key, keys } from './keys.ts';
import { sealSecret, unsealSecret, unsealSecretCached } from './webhook-secrets.ts';

export interface PaystackConnection {
  companyId: number;
  /** The id of the account's webhook URL; absent until the first connect. */
  hookId: string | undefined;
  /** The sealed secret key; absent when not connected (never connected, or disconnected). */
  sealedKey: Uint8Array | undefined;
  keyLast4: string | undefined;
  fees: PaystackFees;
  /** The bank slug a client's dedicated virtual account is asked at (docs/bank-transfers.md "Virtual accounts"). */
  preferredBank: string;
}

/** The preferred bank of an account that set none. */
export const DEFAULT_PREFERRED_BANK = 'wema-bank';

export const paystackConnectionKey = (companyId: number): Key => keys.paystackConnection(companyId);

export function connectionFromItem(companyId: number, item: Item | undefined): PaystackConnection {
  const figure = (name: string, fallback: number) => (typeof item?.[name] === 'number' ? Number(item[name]) : fallback);
  const sealed = item?.key_sealed;
  return {
    companyId,
    hookId: typeof item?.hook_id === 'string' ? item.hook_id : undefined,
    sealedKey: sealed instanceof Uint8Array ? sealed : undefined,
    keyLast4: typeof item?.key_last4 === 'string' ? item.key_last4 : undefined,
    fees: {
      percentBasisPoints: figure('fee_percent_bp', DEFAULT_PAYSTACK_FEES.percentBasisPoints),
      flatKobo: figure('fee_flat', DEFAULT_PAYSTACK_FEES.flatKobo),
      flatFromKobo: figure('fee_flat_from', DEFAULT_PAYSTACK_FEES.flatFromKobo),
      capKobo: figure('fee_cap', DEFAULT_PAYSTACK_FEES.capKobo),
    },
    preferredBank: typeof item?.preferred_bank === 'string' ? item.preferred_bank : DEFAULT_PREFERRED_BANK,
  };
}

/** The connection among a batch read's items (a missing item is an account never connected, default fees). */
export const connectionFrom = (items: Map<string, Item>, companyId: number): PaystackConnection =>
  connectionFromItem(companyId, itemOf(items, paystackConnectionKey(companyId)));

export async function readPaystackConnection(companyId: number): Promise<PaystackConnection> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: paystackConnectionKey(companyId), ConsistentRead: true }),
  );
  return connectionFromItem(companyId, out.Item);
}

/** The account a webhook URL's hook id belongs to; undefined for an id no account has. */
export async function findHookAccount(hookId: string): Promise<number | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.paystackHook(hookId), ConsistentRead: true }),
  );
  const companyId = Number(out.Item?.company_id);
  return Number.isSafeInteger(companyId) ? companyId : undefined;
}

/** The secret key of a connected account (unsealed, kept a few minutes in a warm function); undefined when not. */
export async function paystackSecretKey(connection: PaystackConnection): Promise<string | undefined> {
  if (!connection.sealedKey) return undefined;
  const opened = await unsealSecretCached(
    connection.companyId,
    connection.sealedKey,
    Date.now(),
    'paystack-secret-key',
  );
  return opened.toString('utf8');
}

/** A saved card's Paystack authorization code, opened to charge it (automatic collection). */
export async function unsealCardAuthorization(companyId: number, sealed: Uint8Array): Promise<string> {
  return (await unsealSecret(companyId, sealed, 'paystack-authorization')).toString('utf8');
}

/** Seals a Paystack secret (the key, or a card's authorization code) for one account. */
export async function sealPaystackSecret(
  companyId: number,
  secret: string,
  purpose: 'paystack-secret-key' | 'paystack-authorization',
): Promise<Uint8Array> {
  const { paystackKmsKeyId, deployed } = loadConfig();
  // A deployed function has no local sealing key: it seals with KMS or not at all.
  if (deployed && !paystackKmsKeyId) throw new MissingSettingError('PAYSTACK_KMS_KEY_ID');
  return sealSecret(companyId, Buffer.from(secret, 'utf8'), purpose, paystackKmsKeyId);
}

/**
 * Connects the account with `secretKey` (or replaces its key): seals it, keeps the hook id — made, with its lookup
 * item, on the first connect. Returns the connection, or undefined when the account does not exist.
 */
export async function connectPaystack(companyId: number, secretKey: string): Promise<PaystackConnection | undefined> {
  const sealed = await sealPaystackSecret(companyId, secretKey, 'paystack-secret-key');
  const keyAttributes = { key_sealed: sealed, key_last4: keyLast4(secretKey), key_mode: keyMode(secretKey) };
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await readPaystackConnection(companyId);
    try {
      if (current.hookId) return await updateConnection(companyId, keyAttributes, 'attribute_exists(hook_id)');
      return await firstConnect(companyId, keyAttributes);
    } catch (error) {
      // Another connect made the hook meanwhile: read again and keep its hook.
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Error(`Could not connect account ${companyId} to Paystack: it kept changing meanwhile.`);
}

/** Disconnects: the key is removed (the hook id and fee settings stay, for a later connect). */
export async function disconnectPaystack(companyId: number): Promise<PaystackConnection> {
  const out = await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paystackConnectionKey(companyId),
        ConditionExpression: 'attribute_exists(PK)',
        UpdateExpression: 'REMOVE key_sealed, key_last4, key_mode SET updated_at = :now',
        ExpressionAttributeValues: { ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    )
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { Attributes: undefined };
      throw error;
    });
  return connectionFromItem(companyId, out.Attributes);
}

/** Sets the account's fee settings (connected or not). */
export async function setPaystackFees(companyId: number, fees: PaystackFees): Promise<PaystackConnection> {
  const attributes = {
    fee_percent_bp: fees.percentBasisPoints,
    fee_flat: fees.flatKobo,
    fee_flat_from: fees.flatFromKobo,
    fee_cap: fees.capKobo,
  };
  return updateConnection(companyId, attributes, undefined);
}

/** Sets the bank slug the account's clients' virtual accounts are asked at (connected or not). */
export const setPaystackPreferredBank = (companyId: number, slug: string): Promise<PaystackConnection> =>
  updateConnection(companyId, { preferred_bank: slug }, undefined);

async function updateConnection(companyId: number, attributes: Item, condition: string | undefined) {
  const all = {
    ...attributes,
    entity: 'paystack_connection',
    company_id: companyId,
    updated_at: new Date().toISOString(),
  };
  const names = Object.keys(all);
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: paystackConnectionKey(companyId),
      UpdateExpression: `SET ${names.map((_, i) => `#a${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, all[name as keyof typeof all]])),
      ...(condition ? { ConditionExpression: condition } : {}),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return connectionFromItem(companyId, out.Attributes);
}

/** The first connect: the hook id and its lookup item, on condition that neither exists, with the key. */
async function firstConnect(companyId: number, keyAttributes: Item): Promise<PaystackConnection | undefined> {
  const hookId = generateHookId();
  const now = new Date().toISOString();
  const account = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.account(companyId), ConsistentRead: true }),
  );
  if (!account.Item) return undefined;
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.paystackHook(hookId), entity: 'paystack_hook', company_id: companyId, created_at: now },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: paystackConnectionKey(companyId),
            ConditionExpression: 'attribute_not_exists(hook_id)',
            UpdateExpression:
              'SET entity = :entity, company_id = :company, hook_id = :hook, key_sealed = :sealed, key_last4 = :last4, ' +
              'key_mode = :mode, connected_at = :now, updated_at = :now',
            ExpressionAttributeValues: {
              ':entity': 'paystack_connection',
              ':company': companyId,
              ':hook': hookId,
              ':sealed': keyAttributes.key_sealed,
              ':last4': keyAttributes.key_last4,
              ':mode': keyAttributes.key_mode,
              ':now': now,
            },
          },
        },
      ],
    }),
  );
  return readPaystackConnection(companyId);
}

function isConditionFailure(error: unknown): boolean {
  if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return true;
  return (cancellationReasons(error) ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed');
}
