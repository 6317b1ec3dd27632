/**
 * Bearer secret-key authentication (docs/api.md "Authentication"; docs/operations.md "Keys"). A resolved key is cached in the warm function for
 * at most AUTH_CACHE_SECONDS (≤ 60), so revoking a key or disabling its account takes effect within
 * 60 s; a key's expiry is checked on every use of a cached entry, so it takes effect at once.
 * Failures are never cached, and every failure gets the same 401.
 */

import { loadConfig } from '../config.ts';
import { type Account, hashSecretKey, resolveKey, SECRET_KEY_PATTERN } from '../store/accounts.ts';
import { invalidApiKey } from './errors.ts';

const MAX_CACHED_KEYS = 1000;
const cache = new Map<string, { account: Account; cachedUntilMs: number; keyExpiresAtMs: number | undefined }>();

export function clearAuthCache(): void {
  cache.clear();
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export async function resolveAccount(authorization: string | undefined): Promise<Account> {
  const secret = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  if (!secret || !SECRET_KEY_PATTERN.test(secret)) throw invalidApiKey();
  const hash = hashSecretKey(secret);
  const now = Date.now();
  const cached = cache.get(hash);
  if (cached && cached.cachedUntilMs > now) {
    if (cached.keyExpiresAtMs === undefined || now < cached.keyExpiresAtMs) return cached.account;
    cache.delete(hash);
    throw invalidApiKey();
  }

  const grant = await resolveKey(secret, now);
  if (!grant) {
    cache.delete(hash);
    throw invalidApiKey();
  }
  const ttlMs = loadConfig().authCacheSeconds * 1000;
  if (ttlMs > 0) {
    if (cache.size >= MAX_CACHED_KEYS) cache.clear();
    cache.set(hash, { account: grant.account, cachedUntilMs: now + ttlMs, keyExpiresAtMs: grant.keyExpiresAtMs });
  }
  return grant.account;
}
