/**
 * docs/operations.md "Keys": keys have ids, labels and expiries; an operator lists and revokes them by id; disabling an
 * account stops all its keys. Revocation, expiry and disabling take effect within 60 s even through
 * the auth cache (faked clock); expiry is checked on every use of a cached entry.
 */

import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfig } from '../../shared/config.ts';
import { expiryAfterDays, isKeyUsable, msToTimestamp } from '../../shared/domain/api-key.ts';
import { clearAuthCache } from '../../shared/http/auth.ts';
import {
  type Account,
  findAccountByKey,
  getAccount,
  hashSecretKey,
  listAccounts,
  setAccountDisabled,
} from '../../shared/store/accounts.ts';
import { createKey, KEY_ID_PATTERN, listKeys, revokeKeyById, revokeKeyBySecret } from '../../shared/store/api-keys.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { keys } from '../../shared/store/keys.ts';
import { TABLE } from '../../shared/store/table.ts';
import { call, newAccount } from '../support/api.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetConfig();
  clearAuthCache();
});

const history = (key: string) => call('payment-history', { key, body: { period: 'today' } }).then((r) => r.status);

describe('key state (pure)', () => {
  it('a key is usable until revoked or until its expiry instant', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(isKeyUsable({}, now)).toBe(true);
    expect(isKeyUsable({ revokedAt: '2026-03-01 11:00:00' }, now)).toBe(false);
    expect(isKeyUsable({ expiresAt: '2026-03-01 12:00:01' }, now)).toBe(true);
    expect(isKeyUsable({ expiresAt: '2026-03-01 12:00:00' }, now)).toBe(false);
    expect(isKeyUsable({ expiresAt: 'garbage' }, now)).toBe(false);
    expect(expiryAfterDays(now, 30)).toBe('2026-03-31 12:00:00');
  });
});

describe('key ids', () => {
  it('every key gets a key_id; listing shows ids, labels and dates, never the secret or its hash', async () => {
    const { key, account } = await newAccount();
    const expiresAt = msToTimestamp(Date.now() + 86_400_000);
    const second = (await createKey(account.companyId, { label: 'rotation 2026-03', expiresAt }))!;
    expect(second.key.keyId).toMatch(KEY_ID_PATTERN);

    const listed = await listKeys(account.companyId);
    expect(listed).toHaveLength(2);
    expect(listed.map((k) => k.last4).sort()).toEqual([key.slice(-4), second.secretKey.slice(-4)].sort());
    expect(listed.find((k) => k.keyId === second.key.keyId)).toMatchObject({
      label: 'rotation 2026-03',
      expiresAt,
      revokedAt: undefined,
    });
    const text = JSON.stringify(listed);
    for (const secret of [key, second.secretKey]) {
      expect(text).not.toContain(secret.slice(3));
      expect(text).not.toContain(hashSecretKey(secret));
    }
    for (const k of listed) expect(k.keyId).toMatch(KEY_ID_PATTERN);
    // The expiry must not be the table's TTL attribute: DynamoDB would delete the key item.
    const stored = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashSecretKey(second.secretKey)) }),
    );
    expect(stored.Item).toMatchObject({ key_id: second.key.keyId, key_expires_at: expiresAt });
    expect(stored.Item).not.toHaveProperty(TABLE.ttlAttribute);
  });

  it('revoking by id needs no secret and stops the key; revoking twice keeps the first time; unknown ids are reported', async () => {
    const { key, account } = await newAccount();
    const [first] = await listKeys(account.companyId);
    expect(await history(key)).toBe(200);
    expect(await revokeKeyById(first!.keyId)).toEqual({ companyId: account.companyId, keyId: first!.keyId });
    clearAuthCache();
    expect(await history(key)).toBe(401);
    const revokedAt = (await listKeys(account.companyId))[0]!.revokedAt;
    expect(revokedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await revokeKeyById(first!.keyId, Date.now() + 3_600_000);
    expect((await listKeys(account.companyId))[0]!.revokedAt).toBe(revokedAt);
    expect(await revokeKeyById('key_0000000000000000')).toBeUndefined();
  });

  it('revoking by secret reports the key id', async () => {
    const { key, account } = await newAccount();
    const [first] = await listKeys(account.companyId);
    expect(await revokeKeyBySecret(key)).toEqual({ companyId: account.companyId, keyId: first!.keyId });
  });

  it('createKey refuses an unknown account and writes nothing', async () => {
    expect(await createKey(987_654_321)).toBeUndefined();
    // Every page of the shared table: one page alone could miss an item written further on.
    const written: unknown[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(
        new ScanCommand({
          TableName: tableName(),
          FilterExpression: 'company_id = :c',
          ExpressionAttributeValues: { ':c': 987_654_321 },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      written.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    expect(written).toEqual([]);
  });
});

describe('accounts', () => {
  it('account:list reads every account by id; disabling and enabling round-trip', async () => {
    const { account } = await newAccount({ name: 'Listed Ltd' });
    const listed: number[] = [];
    let mine: Account | undefined;
    for await (const a of listAccounts(7)) {
      listed.push(a.companyId);
      if (a.companyId === account.companyId) mine = a;
    }
    expect(mine).toMatchObject({ name: 'Listed Ltd', disabledAt: undefined });
    expect(listed).toEqual([...listed].sort((a, b) => a - b));
    expect((await setAccountDisabled(account.companyId, true))?.disabledAt).toMatch(/^\d{4}-/);
    expect((await getAccount(account.companyId))?.disabledAt).toBeDefined();
    expect((await setAccountDisabled(account.companyId, false))?.disabledAt).toBeUndefined();
    expect(await setAccountDisabled(987_654_321, true)).toBeUndefined();
  });
});

describe('the auth cache honours revocation, expiry and disabling within 60 s (faked clock)', () => {
  /** A key used once at `start` (so it is cached), then the clock moved to each offset. */
  async function statuses(prepare: (ctx: { key: string; companyId: number; start: number }) => Promise<void>) {
    // The longest cache the service allows (the configuration is read once per process: read it again).
    vi.stubEnv('AUTH_CACHE_SECONDS', '60');
    resetConfig();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(start);
    const { key, account } = await newAccount();
    clearAuthCache();
    await prepare({ key, companyId: account.companyId, start });
    expect(await history(key)).toBe(200); // cached now
    return { key, companyId: account.companyId, start };
  }

  async function at(start: number, offsetMs: number, key: string) {
    vi.setSystemTime(start + offsetMs);
    return history(key);
  }

  it('disabling the account: cached for at most 60 s, then 401; enabling brings the key back', async () => {
    const { key, companyId, start } = await statuses(async () => {});
    await setAccountDisabled(companyId, true);
    expect(await at(start, 1_000, key)).toBe(200); // the cache is in use, so the bound below is what is measured
    expect(await at(start, 60_001, key)).toBe(401);
    expect(await findAccountByKey(key)).toBeUndefined();
    await setAccountDisabled(companyId, false);
    expect(await at(start, 60_002, key)).toBe(200);
  });

  it('revoking by id: cached for at most 60 s, then 401', async () => {
    const { key, companyId, start } = await statuses(async () => {});
    const [only] = await listKeys(companyId);
    await revokeKeyById(only!.keyId);
    expect(await at(start, 1_000, key)).toBe(200);
    expect(await at(start, 60_001, key)).toBe(401);
  });

  it('expiry is checked on every use of a cached entry: 401 from the expiry instant, not at the next fetch', async () => {
    let second = '';
    const { start } = await statuses(async ({ companyId, start: t0 }) => {
      second = (await createKey(companyId, { expiresAt: msToTimestamp(t0 + 10_000) }))!.secretKey;
    });
    expect(await at(start, 0, second)).toBe(200); // fetched and cached for 60 s
    expect(await at(start, 9_000, second)).toBe(200); // still cached, not yet expired
    expect(await at(start, 10_000, second)).toBe(401); // the cache would still hold it: expiry wins
    expect(await at(start, 30_000, second)).toBe(401);
  });

  it('a key created already expired never authenticates', async () => {
    const { account } = await newAccount();
    const companyId = account.companyId;
    const expired = (await createKey(companyId, { expiresAt: msToTimestamp(Date.now() - 1_000) }))!.secretKey;
    expect(await history(expired)).toBe(401);
  });
});
