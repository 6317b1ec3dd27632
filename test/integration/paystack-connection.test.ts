/**
 * Connecting an account to Paystack (docs/getting-paid-online.md "Connecting Paystack"): the key sealed (never in the
 * table in clear, never opening for another account), shown as its last 4; the hook id made at the first connect, kept
 * across key changes and a disconnect, and found from the webhook URL; fee settings with their defaults; the account
 * line `account:update` and `account:list` print.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountLine } from '../../infra/cli/account-line.ts';
import { applyPaystackChanges } from '../../infra/cli/paystack-options.ts';
import { resetConfig } from '../../shared/config.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import {
  connectPaystack,
  disconnectPaystack,
  findHookAccount,
  paystackSecretKey,
  readPaystackConnection,
} from '../../shared/store/paystack-connections.ts';
import { newAccount } from '../support/api.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'paystack-connection-'));
const saved = process.env.DATA_DIR;
beforeAll(() => {
  process.env.DATA_DIR = dataDir;
  resetConfig();
});
afterAll(() => {
  if (saved === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved;
  resetConfig();
  rmSync(dataDir, { recursive: true, force: true });
});

const KEY_A = `sk_test_${'a'.repeat(40)}`;
const KEY_B = `sk_live_${'b'.repeat(36)}wxyz`;

describe('a Paystack connection', () => {
  it('seals the key, shows its last 4, and keeps one hook id across key changes and a disconnect', async () => {
    const { account } = await newAccount();
    const first = (await connectPaystack(account.companyId, KEY_A))!;
    expect(first.hookId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(first.keyLast4).toBe('aaaa');
    expect(await paystackSecretKey(first)).toBe(KEY_A);
    expect(await findHookAccount(first.hookId!)).toBe(account.companyId);
    const item = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.paystackConnection(account.companyId) }),
    );
    expect(JSON.stringify(item.Item)).not.toContain('a'.repeat(20));
    const rotated = (await connectPaystack(account.companyId, KEY_B))!;
    expect([rotated.hookId, rotated.keyLast4]).toEqual([first.hookId, 'wxyz']);
    const disconnected = await disconnectPaystack(account.companyId);
    expect([disconnected.hookId, disconnected.keyLast4, disconnected.sealedKey]).toEqual([
      first.hookId,
      undefined,
      undefined,
    ]);
    expect(await paystackSecretKey(disconnected)).toBeUndefined();
    expect((await connectPaystack(account.companyId, KEY_A))!.hookId).toBe(first.hookId);
  });

  it('a sealed key copied to another account does not open', async () => {
    const { account: one } = await newAccount();
    const { account: two } = await newAccount();
    const connected = (await connectPaystack(one.companyId, KEY_A))!;
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.paystackConnection(two.companyId), key_sealed: connected.sealedKey, key_last4: 'aaaa' },
      }),
    );
    await expect(paystackSecretKey(await readPaystackConnection(two.companyId))).rejects.toThrow();
  });

  it('the account line: key last 4 and webhook URL while connected, null otherwise; the fee settings', async () => {
    const { account } = await newAccount();
    const never = accountLine(account, await readPaystackConnection(account.companyId));
    expect(never).toMatchObject({
      paystack_key_last4: null,
      paystack_webhook_url: null,
      paystack_fees: { percent: '1.5', flat: '100.00', flat_from: '2500.00', cap: '2000.00' },
    });
    const connected = await applyPaystackChanges(account.companyId, {
      secretKey: KEY_A,
      fees: { percent: '1.4', cap: '1,900' },
    });
    const line = accountLine(account, connected);
    expect(line).toMatchObject({
      paystack_key_last4: 'aaaa',
      paystack_webhook_url: `http://localhost:3000/paystack/events/${connected.hookId}`,
      paystack_fees: { percent: '1.4', flat: '100.00', flat_from: '2500.00', cap: '1900.00' },
    });
    expect(JSON.stringify(line)).not.toContain(KEY_A);
    expect(accountLine(account, await applyPaystackChanges(account.companyId, { secretKey: '' }))).toMatchObject({
      paystack_key_last4: null,
      paystack_webhook_url: null,
      paystack_fees: { percent: '1.4' },
    });
  });
});
