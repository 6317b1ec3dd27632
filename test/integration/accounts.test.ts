/** docs/api.md "Authentication": secret keys — format, hashing at rest, several active keys, revocation. */

import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { clearAuthCache } from '../../shared/http/auth.ts';
import { createKey, hashSecretKey, revokeKey } from '../../shared/store/accounts.ts';
import { documentClient, tableName } from '../../shared/store/dynamodb-client.ts';
import { call, newAccount } from '../support/api.ts';

describe('secret keys', () => {
  it('look like sk_ + 40 base62 characters and are stored only as a SHA-256 hash plus the last 4', async () => {
    const { key, account } = await newAccount({ name: 'Hash Check' });
    expect(key).toMatch(/^sk_[0-9A-Za-z]{40}$/);
    // The whole shared test table, page by page (a Scan page stops at 1 MB; 500 items keep each request well within
    // the client's 1.5 s request timeout on a loaded machine).
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(
        new ScanCommand({ TableName: tableName(), Limit: 500, ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    expect(JSON.stringify(items)).not.toContain(key.slice(3));
    const stored = items.find((item) => item.PK === `APIKEY#${hashSecretKey(key)}`);
    expect(stored).toMatchObject({ company_id: account.companyId, last4: key.slice(-4) });
  });

  it('allow several active keys per account; a revoked key gets the uniform 401', async () => {
    const { key, account } = await newAccount();
    const second = (await createKey(account.companyId))!.secretKey;
    expect(second).not.toBe(key);
    for (const k of [key, second])
      expect((await call('payment-history', { key: k, body: { period: 'today' } })).status).toBe(200);
    expect(await revokeKey(second)).toBe(account.companyId);
    clearAuthCache();
    const revoked = await call('payment-history', { key: second, body: { period: 'today' } });
    const unknown = await call('payment-history', { key: `sk_${'A'.repeat(40)}`, body: { period: 'today' } });
    const missing = await call('payment-history', { body: { period: 'today' } });
    const malformed = await call('payment-history', {
      headers: { authorization: 'Basic abc' },
      body: { period: 'today' },
    });
    for (const r of [revoked, unknown, missing, malformed]) {
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer');
      expect({ ...r.body, request_id: null }).toEqual({ ...revoked.body, request_id: null });
    }
    expect((await call('payment-history', { key, body: { period: 'today' } })).status).toBe(200);
  });

  it('default to NGN and Africa/Lagos and no tokenization', async () => {
    const { account } = await newAccount();
    expect(account).toMatchObject({ currency: 'NGN', timeZone: 'Africa/Lagos', tokenizationEnabled: false });
  });
});
